// Small helpers of the server view page: building elements (text is always set as text, never parsed as
// HTML), calling the view API with the owner session's CSRF token, and formatting times.

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

/** An element with attributes (`on<event>` functions become listeners; false/undefined are left out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, '');
    else if (v !== false && v !== undefined) el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export const csrf = document.querySelector('meta[name="athene-csrf"]')?.getAttribute('content') ?? '';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** Called when the server says the owner session is gone. */
let onSignedOut: () => void = () => undefined;

export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** GET (no body) or POST (a JSON body) to a server view path; the JSON answer, or an ApiError. */
export async function api<T = Record<string, unknown>>(path: string, body?: Record<string, unknown>): Promise<T> {
  const init: RequestInit =
    body === undefined
      ? { headers: { accept: 'application/json' } }
      : { method: 'POST', headers: { 'content-type': 'application/json', 'x-athene-csrf': csrf }, body: JSON.stringify(body) };
  const res = await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status === 401) onSignedOut();
  if (!res.ok || typeof data.error === 'string') {
    throw new ApiError(
      typeof data.error === 'string' ? data.error : `${path} answered ${res.status}`,
      res.status,
      typeof data.error_code === 'string' ? data.error_code : undefined,
    );
  }
  return data as T;
}

export function replace(container: Element, ...children: (Child | Child[])[]): void {
  container.replaceChildren(...children.flat().filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
}

export function when(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function duration(seconds: number): string {
  const d = Math.floor(seconds / 86400),
    hh = Math.floor((seconds % 86400) / 3600),
    m = Math.floor((seconds % 3600) / 60),
    s = seconds % 60;
  return d > 0 ? `${d}d ${hh}h` : hh > 0 ? `${hh}h ${m}m` : m > 0 ? `${m}m ${s}s` : `${s}s`;
}

export function empty(text: string): HTMLElement {
  return h('p', { class: 'empty' }, text);
}
