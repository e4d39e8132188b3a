// One cold start measured inside its own process, for bench/startup. `server DIST FILE HOME`: startServer
// with one document, then one more window in the same process; prints one JSON line per stage and serves
// until stdin closes. `cli DIST ARGS…`: runs the `athene` command line of that build in this process and
// writes its CPU time to fd 3 as it exits. CPU is the whole process's (every thread), from its start.

import { writeSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

async function server(dist: string, file: string, home: string): Promise<void> {
  const url = pathToFileURL(path.join(dist, 'src/http/server.js')).href;
  const { startServer } = (await import(url)) as typeof import('../src/http/server.js');
  const s = await startServer({ home, files: [file], flags: { port: '0', log_level: 'warn' }, env: {} });
  process.stdout.write(JSON.stringify({ stage: 'ready', cpuMs: cpuMs(), url: s.url, tokenFile: s.tokenFile }) + '\n');
  const t0 = performance.now();
  const c0 = cpuMs();
  await s.openWindow([file]);
  process.stdout.write(JSON.stringify({ stage: 'window', wallMs: performance.now() - t0, cpuMs: cpuMs() - c0 }) + '\n');
  process.stdin.resume();
  process.stdin.on('end', () => void s.close(1000).then(() => process.exit(0)));
}

async function cli(dist: string, args: string[]): Promise<void> {
  const main = path.join(dist, 'src/cli/main.js');
  process.argv = [process.execPath, main, ...args];
  process.on('exit', () => writeSync(3, JSON.stringify({ cpuMs: cpuMs() }) + '\n'));
  await import(pathToFileURL(main).href);
}

const [mode, dist, ...rest] = process.argv.slice(2);
const [file, home, ...more] = rest;
if (mode === 'server' && dist !== undefined && file !== undefined && home !== undefined && more.length === 0)
  await server(dist, file, home);
else if (mode === 'cli' && dist !== undefined) await cli(dist, rest);
else throw new Error('usage: startup-child server DIST FILE HOME | cli DIST ARGS…');
