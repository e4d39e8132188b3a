// RFC 3986 section 5.2 reference resolution, kept string-based: WHATWG `URL` would normalise hosts and
// percent-encoding and rejects relative references against opaque bases such as `urn:` IRIs.

/** True when the reference starts with a scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`). */
export function hasScheme(ref: string): boolean {
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (i === 0) {
      if (!alpha) return false;
    } else if (c === 58) {
      return true;
    } else if (!alpha && !(c >= 48 && c <= 57) && c !== 43 && c !== 45 && c !== 46) {
      return false;
    }
  }
  return false;
}

interface Parts {
  scheme: string; // with ':' or ''
  authority: string | null; // without '//'
  path: string;
  query: string | null; // without '?'
  fragment: string | null; // without '#'
}

function split(s: string): Parts {
  let rest = s;
  let scheme = '';
  if (hasScheme(s)) {
    const colon = s.indexOf(':');
    scheme = s.slice(0, colon + 1);
    rest = s.slice(colon + 1);
  }
  let fragment: string | null = null;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let query: string | null = null;
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let authority: string | null = null;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
  }
  return { scheme, authority, path: rest, query, fragment };
}

/** RFC 3986 5.2.4. */
export function removeDotSegments(path: string): string {
  if (!path.includes('.')) return path;
  const input = path.split('/');
  const out: string[] = [];
  const absolute = path.startsWith('/');
  for (let i = absolute ? 1 : 0; i < input.length; i++) {
    const seg = input[i]!;
    const last = i === input.length - 1;
    if (seg === '.') {
      if (last) out.push('');
    } else if (seg === '..') {
      if (out.length > 0) out.pop();
      if (last) out.push('');
    } else {
      out.push(seg);
    }
  }
  return (absolute ? '/' : '') + out.join('/');
}

function join(p: Parts): string {
  let s = p.scheme;
  if (p.authority !== null) s += '//' + p.authority;
  s += p.path;
  if (p.query !== null) s += '?' + p.query;
  if (p.fragment !== null) s += '#' + p.fragment;
  return s;
}

/** Resolves `ref` against `base`; an absolute `ref`, or a missing base, leaves `ref` unchanged. */
export function resolveIri(ref: string, base: string | null | undefined): string {
  if (!base || hasScheme(ref)) return ref;
  const b = split(base);
  const r = split(ref);
  const t: Parts = { scheme: b.scheme, authority: null, path: '', query: null, fragment: r.fragment };
  if (r.authority !== null) {
    t.authority = r.authority;
    t.path = removeDotSegments(r.path);
    t.query = r.query;
  } else {
    t.authority = b.authority;
    if (r.path === '') {
      t.path = b.path;
      t.query = r.query !== null ? r.query : b.query;
    } else {
      if (r.path.startsWith('/')) {
        t.path = removeDotSegments(r.path);
      } else {
        const merged = b.authority !== null && b.path === '' ? '/' + r.path : b.path.slice(0, b.path.lastIndexOf('/') + 1) + r.path;
        t.path = removeDotSegments(merged);
      }
      t.query = r.query;
    }
  }
  return join(t);
}
