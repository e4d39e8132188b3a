// Locates the first syntax error of a JSON text. JSON.parse's messages name a position only for some
// errors on Node 20, so parsers that report line and column ask this scanner after JSON.parse failed.

export interface JsonErrorPosition {
  offset: number;
  line: number;
  column: number;
  expected: string;
}

class Fault {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

/** The position of the first syntax error, or null if the text is valid JSON. */
export function jsonErrorPosition(text: string): JsonErrorPosition | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const expect = (what: string) => new Fault(i, what);
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') throw expect('a string key');
        string();
        ws();
        if (text[i] !== ':') throw expect("':'");
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        throw expect("',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        throw expect("',' or ']'");
      }
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null'])
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m && m[0].length > 0) {
      i += m[0].length;
      return;
    }
    throw expect('a value');
  };
  const string = () => {
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !'"\\/bfnrt'.includes(e ?? 'x'))
          throw expect('a valid escape');
        i += e === 'u' ? 6 : 2;
        continue;
      }
      if (c < 0x20) throw expect('a closing quote');
      i++;
    }
    throw expect('a closing quote');
  };
  try {
    value();
    ws();
    if (i < text.length) throw expect('the end of the document');
    return null;
  } catch (e) {
    if (!(e instanceof Fault)) throw e;
    const before = text.slice(0, e.offset);
    const line = before.split('\n').length;
    return { offset: e.offset, line, column: e.offset - before.lastIndexOf('\n'), expected: e.expected };
  }
}
