// The process's structured log (pino): one line per event with time, level and fields, on stderr, as JSON
// or pretty-printed. Events carry ids, counts, paths and reasons; never a token, a secret or ontology
// content (the redaction below is a second line of defence for fields named like credentials).

import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { lazyRequire } from './lazy.js';

/** The pretty printer (and its stream packages) loads only for the pretty format. */
const pretty = lazyRequire<typeof PinoPretty>('pino-pretty');

export type LogFormat = 'json' | 'pretty';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

const REDACT = [
  'token',
  'secret',
  'authorization',
  'password',
  'cookie',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.password',
  '*.cookie',
];

function create(format: LogFormat, level: LogLevel): Logger {
  const options = { level, base: { pid: process.pid }, redact: { paths: REDACT, censor: '[redacted]' } };
  if (format === 'json') return pino(options, pino.destination({ fd: 2, sync: true }));
  return pino(
    options,
    pretty()({
      destination: 2,
      sync: true,
      colorize: process.stderr.isTTY === true,
      ignore: 'pid,hostname',
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
    }),
  );
}

/** The shared logger; `configureLog` replaces it once the settings are known. */
export let log: Logger = create('json', 'info');

export function configureLog(format: LogFormat, level: LogLevel): void {
  log = create(format, level);
}
