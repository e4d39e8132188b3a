// The current instant as ISO-8601 UTC text, formatted once per millisecond: the audit stream and the change
// journal stamp many events and batches within one.

let lastMs = -1;
let lastIso = '';

export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
