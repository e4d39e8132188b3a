// Bodies of the broker's registration API (`/internal/register`, `/internal/heartbeat`,
// `/internal/deregister`, `/internal/takeover`), validated with valibot. Sizes are bounded so a body
// cannot grow the registry past its limits by other means than the counted ones.

import * as v from 'valibot';

/** Largest accepted registration or heartbeat body. */
export const MAX_REGISTRATION_BYTES = 1024 * 1024;

const WindowSpecSchema = v.strictObject({
  window_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  /** The window's broker secret (the broker needs it in clear to present it; loopback only). */
  secret: v.pipe(v.string(), v.minLength(43), v.maxLength(200)),
  label: v.pipe(v.string(), v.maxLength(2000)),
  documents: v.pipe(v.array(v.pipe(v.string(), v.maxLength(4096))), v.maxLength(64)),
  /** Requests this window served without a forwarded principal (through a version-1 broker). */
  legacy_requests: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

export type WindowSpec = v.InferOutput<typeof WindowSpecSchema>;

/** Past the 128-window limit, so that limit answers with its own error rather than a schema one. */
const Windows = v.pipe(v.array(WindowSpecSchema), v.maxLength(1024));

export const RegisterSchema = v.strictObject({
  pid: v.pipe(v.number(), v.integer(), v.minValue(1)),
  port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
  protocol: v.pipe(v.number(), v.integer(), v.minValue(1)),
  windows: Windows,
});

export const HeartbeatSchema = v.strictObject({
  process_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  windows: Windows,
});

const Text = v.pipe(v.string(), v.maxLength(4096));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));

/** A question of the owner's server view the broker forwards to a window of this process (ViewQuery). */
export const ViewQuerySchema = v.variant('kind', [
  v.strictObject({ kind: v.literal('pulse') }),
  v.strictObject({
    kind: v.literal('changes'),
    client: v.exactOptional(Text),
    entity: v.exactOptional(Text),
    limit: v.pipe(Count, v.maxValue(1000)),
  }),
  v.strictObject({ kind: v.literal('revert'), seq: v.pipe(Count, v.minValue(1)), document: v.pipe(Text, v.minLength(1)) }),
  v.strictObject({ kind: v.literal('classes'), parent: v.nullable(Text), offset: Count, limit: v.pipe(Count, v.maxValue(1000)) }),
  v.strictObject({ kind: v.literal('entity'), iri: Text }),
  v.strictObject({ kind: v.literal('search'), query: Text }),
  v.strictObject({ kind: v.literal('write-modes'), read_only: v.boolean(), confirm_each_write: v.boolean() }),
]);

export const DeregisterSchema = v.strictObject({
  process_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
});

/** A newer athene asking the broker for the port (`/internal/takeover`): who it is and which release. */
export const TakeoverSchema = v.strictObject({
  pid: v.pipe(v.number(), v.integer(), v.minValue(1)),
  protocol: v.pipe(v.number(), v.integer(), v.minValue(1)),
  version: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
});

export type RegisterBody = v.InferOutput<typeof RegisterSchema>;
export type HeartbeatBody = v.InferOutput<typeof HeartbeatSchema>;

/** The parsed body, or a precise message naming the first problem. */
export function parseBody<S extends v.GenericSchema>(
  schema: S,
  text: string,
): { ok: true; value: v.InferOutput<S> } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `the body is not JSON: ${(err as Error).message}` };
  }
  const parsed = v.safeParse(schema, json);
  if (parsed.success) return { ok: true, value: parsed.output };
  const issue = parsed.issues[0];
  return { ok: false, message: `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}` };
}
