// The ids a JSON-RPC POST body asks to be answered: the window answers a dropped call by them, and the front
// door's cut calls name them in their errors.

/** The ids of the JSON-RPC requests in a POST body (one message or a batch); none when it does not parse. */
export function requestIds(body: string): (string | number)[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: (string | number)[] = [];
  for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
    const r = m as { method?: unknown; id?: unknown } | null;
    if (r !== null && typeof r === 'object' && typeof r.method === 'string' && (typeof r.id === 'string' || typeof r.id === 'number'))
      ids.push(r.id);
  }
  return ids;
}
