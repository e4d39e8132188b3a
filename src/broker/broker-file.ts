// `<home>/broker.json`: who owns the shared endpoint. Written atomically (0600) by the broker when it binds
// the configured port, removed when it exits; a later process reads it to find the broker, then probes it.

import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../util/atomic-file.js';

export interface BrokerRecord {
  readonly pid: number;
  readonly port: number;
  readonly protocol: number;
  /** The broker's package version (absent in records of releases that did not write it). */
  readonly version?: string;
  readonly started_at: string;
}

const BrokerRecordSchema = v.object({
  pid: v.pipe(v.number(), v.integer(), v.minValue(1)),
  port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
  protocol: v.pipe(v.number(), v.integer(), v.minValue(1)),
  version: v.exactOptional(v.pipe(v.string(), v.maxLength(100))),
  started_at: v.string(),
});

export function brokerFilePath(home: string): string {
  return path.join(home, 'broker.json');
}

export async function writeBrokerRecord(home: string, record: BrokerRecord): Promise<void> {
  await writeFileAtomic(brokerFilePath(home), JSON.stringify(record) + '\n', { mode: 0o600 });
}

/** The recorded broker; null when there is no file or it is not a broker record. */
export async function readBrokerRecord(home: string): Promise<BrokerRecord | null> {
  let text: string;
  try {
    text = await readFile(brokerFilePath(home), 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = v.safeParse(BrokerRecordSchema, JSON.parse(text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Removes the record if it is still this process's (a successor may have written its own). */
export async function removeBrokerRecord(home: string, pid: number): Promise<void> {
  const current = await readBrokerRecord(home);
  if (current !== null && current.pid === pid) await unlink(brokerFilePath(home)).catch(() => undefined);
}
