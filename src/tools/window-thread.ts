// The window thread's entry: the window actor (src/actors/window-worker.ts) serving this tool layer. The
// actors never import the tool layer; it hands itself to the window here.

import { serveWindow } from '../actors/window-worker.js';
import { TOOL_HOST } from './core/tool-host.js';

serveWindow(TOOL_HOST);
