// The tool layer as a window uses it (src/window/tool-host.ts): the catalog, its listings and the gate.

import type { ToolHost } from '../../window/tool-host.js';
import { TOOLS_BY_NAME, profileTools } from './tool-catalog.js';
import { failure, resultJson, runTool } from './tool-gate.js';
import { listTools } from './tool-listing.js';

export const TOOL_HOST: ToolHost = {
  listing: (profile) => listTools(profileTools(profile)),
  declares: (name) => TOOLS_BY_NAME.has(name),
  run(name, args, ctx, approvals, revoked) {
    const def = TOOLS_BY_NAME.get(name);
    if (def === undefined) return Promise.resolve(failure(`Unknown tool '${name}'`, 'unknown_tool'));
    return runTool(def, args, ctx, approvals, revoked);
  },
  failure,
  resultJson,
};
