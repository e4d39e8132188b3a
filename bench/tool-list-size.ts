// Byte size of the `tools/list` response per profile, and of each tool in it (largest first): what an
// agent pays in context before its first call. `node dist/bench/tool-list-size.js [top]`.

import { profileTools } from '../src/tools/core/tool-catalog.js';
import { listTools } from '../src/tools/core/tool-listing.js';
import { TOOL_PROFILES } from '../src/settings/settings.js';

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
const top = Number(process.argv[2] ?? 15);

for (const profile of TOOL_PROFILES) {
  const tools = listTools(profileTools(profile));
  console.log(`${profile}: ${tools.length} tools, ${bytes({ tools })} bytes`);
}
const tools = listTools(profileTools('full'));
const parts = (key: 'description' | 'inputSchema' | 'outputSchema'): number =>
  tools.reduce((n, t) => n + (t[key] === undefined ? 0 : bytes(t[key])), 0);
console.log(
  `full: descriptions ${parts('description')}, inputSchemas ${parts('inputSchema')}, outputSchemas ${parts('outputSchema')} bytes`,
);
/** Prose an agent could do without at a pinch: argument descriptions (not references to another tool's), defaults, limits. */
const PROSE = new Set(['default', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'format']);
const withoutProse = (schema: unknown): unknown =>
  JSON.parse(
    JSON.stringify(schema, (key, value: unknown) =>
      PROSE.has(key) || (key === 'description' && typeof value === 'string' && !value.startsWith('As ')) ? undefined : value,
    ),
  );
const bare = tools.map((t) => ({ ...t, description: '', inputSchema: withoutProse(t.inputSchema) }));
console.log(
  `full without any description, default or limit (names, titles, hints, types, enums, required): ${bytes({ tools: bare })} bytes`,
);
const rows = tools.map((t) => ({
  name: t.name,
  total: bytes(t),
  description: bytes(t.description),
  input: bytes(t.inputSchema),
  output: t.outputSchema === undefined ? 0 : bytes(t.outputSchema),
}));
rows.sort((a, b) => b.total - a.total);
for (const r of rows.slice(0, top))
  console.log(`${String(r.total).padStart(6)}  ${r.name.padEnd(34)} description ${r.description}, input ${r.input}, output ${r.output}`);
