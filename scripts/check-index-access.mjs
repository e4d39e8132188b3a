// The noUncheckedIndexedAccess ratchet: type-checks the folders tsconfig.index-checked.json lists with the flag
// on and fails on any error in them. Only those folders' own files are judged: the modules they import may not
// be converted yet, and a plain `tsc -p` would report those too. No output is written (the build is `tsc -b`).

import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const configFile = path.join(root, 'tsconfig.index-checked.json');

const read = ts.readConfigFile(configFile, ts.sys.readFile);
if (read.error !== undefined) fail([read.error]);
const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configFile);
if (parsed.errors.length > 0) fail(parsed.errors);

const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
for (const file of parsed.fileNames) {
  const source = program.getSourceFile(file);
  if (source !== undefined) diagnostics.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source));
}
if (diagnostics.length > 0) fail(diagnostics);
console.log(`noUncheckedIndexedAccess: ${parsed.fileNames.length} files clean`);

function fail(list) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.error(ts.formatDiagnosticsWithColorAndContext(list, host));
  console.error(`noUncheckedIndexedAccess: ${list.length} errors in folders tsconfig.index-checked.json lists`);
  process.exit(1);
}
