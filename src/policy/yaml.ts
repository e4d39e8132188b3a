// Strict YAML for project policy files (TOOLS.md 1.9): at most 1 MiB, exactly one document, no anchors or
// aliases, no duplicate keys, no tags beyond the core schema's own, string keys only. Errors carry the line
// and column; none of them quotes the rejected content, which may hold something its author meant to keep.

import type * as YamlModule from 'yaml';
import type { Document, LineCounter, Node } from 'yaml';
import { lazyRequire } from '../util/lazy.js';

/** The parser loads with the first policy, lock file or mapping header read, not with every window. */
export const yamlModule = lazyRequire<typeof YamlModule>('yaml');

export const MAX_POLICY_BYTES = 1024 * 1024;

export interface YamlIssue {
  readonly code: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

export type YamlResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly YamlIssue[] };

/** The core schema's tags: writing one explicitly changes nothing a reader could misread. */
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => 'tag:yaml.org,2002:' + t));

/** Our own wording for the parser's error codes, so its code frames (which quote the source) never leak. */
const PARSER_MESSAGES: Readonly<Record<string, string>> = {
  DUPLICATE_KEY: 'duplicate mapping key',
  BAD_ALIAS: 'invalid alias',
  BAD_INDENT: 'bad indentation',
  MISSING_CHAR: 'missing character (an unclosed quote or bracket?)',
  MULTILINE_IMPLICIT_KEY: 'an implicit key may not span lines',
  TAG_RESOLVE_FAILED: 'unknown tag',
  UNEXPECTED_TOKEN: 'unexpected token',
  BLOCK_AS_IMPLICIT_KEY: 'a block collection cannot be an implicit key',
  KEY_OVER_1024_CHARS: 'an implicit key is longer than 1024 characters',
  TAB_AS_INDENT: 'tab used as indentation',
};

function at(counter: LineCounter, offset: number | undefined): { line?: number; column?: number } {
  if (offset === undefined) return {};
  const { line, col } = counter.linePos(offset);
  return { line, column: col };
}

function issue(counter: LineCounter, code: string, message: string, offset?: number): YamlIssue {
  const pos = at(counter, offset);
  const where = pos.line === undefined ? '' : ` at line ${pos.line}, column ${pos.column}`;
  return { code, message: message + where, ...pos };
}

/** Anchors, aliases, foreign tags and non-string keys anywhere in the document. */
function structuralIssues(doc: Document, counter: LineCounter): YamlIssue[] {
  const issues: YamlIssue[] = [];
  const start = (n: Node) => n.range?.[0];
  const { visit, isMap, isScalar } = yamlModule();
  visit(doc, {
    Alias(_key, node) {
      issues.push(issue(counter, 'yaml_alias', 'aliases are not allowed', start(node)));
    },
    Node(_key, node) {
      if (node.anchor !== undefined) issues.push(issue(counter, 'yaml_anchor', 'anchors are not allowed', start(node)));
      if (node.tag !== undefined && !CORE_TAGS.has(node.tag))
        issues.push(issue(counter, 'yaml_tag', 'custom tags are not allowed', start(node)));
      if (isMap(node)) {
        for (const pair of node.items) {
          const key = pair.key;
          if (!isScalar(key) || typeof key.value !== 'string') {
            issues.push(issue(counter, 'yaml_key', 'mapping keys must be plain strings', (key as Node | null)?.range?.[0] ?? start(node)));
          }
        }
      }
    },
  });
  return issues;
}

/** Parses policy text under the strict rules; the value is plain JSON data (objects, arrays, scalars). */
export function parseStrictYaml(text: string): YamlResult {
  const yaml = yamlModule();
  const counter = new yaml.LineCounter();
  if (Buffer.byteLength(text, 'utf8') > MAX_POLICY_BYTES) {
    return { ok: false, issues: [{ code: 'yaml_too_large', message: `the file is larger than ${MAX_POLICY_BYTES} bytes` }] };
  }
  const docs = yaml.parseAllDocuments(text, {
    lineCounter: counter,
    uniqueKeys: true,
    prettyErrors: false,
    version: '1.2',
    schema: 'core',
    merge: false,
  });
  const [doc, trailing] = docs;
  if (doc === undefined) return { ok: false, issues: [{ code: 'yaml_empty', message: 'the file holds no YAML document' }] };
  if (trailing !== undefined) {
    return {
      ok: false,
      issues: [
        issue(counter, 'yaml_multiple_documents', 'exactly one YAML document is allowed (found a trailing document)', trailing.range[0]),
      ],
    };
  }
  const parserIssues = [...doc.errors, ...doc.warnings].map((e) =>
    issue(counter, 'yaml_syntax', PARSER_MESSAGES[e.code] ?? `invalid YAML (${e.code.toLowerCase()})`, e.pos[0]),
  );
  const issues = [...parserIssues, ...structuralIssues(doc, counter)];
  if (issues.length > 0) return { ok: false, issues };
  if (doc.contents === null) return { ok: false, issues: [{ code: 'yaml_empty', message: 'the file holds no YAML document' }] };
  return { ok: true, value: doc.toJS({ maxAliasCount: 0 }) };
}
