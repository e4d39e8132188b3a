// Konclude (a complete OWL 2 DL reasoner, SROIQV(D)) as a subprocess. Each run gets a private temp
// directory (0700) holding the ontology, written in functional syntax by our renderer, and an OWLlink
// request file (both 0600); one Konclude process answers consistency, the class hierarchy and every
// named individual's direct types from one parse, and its OWLlink response becomes the same result shape
// as the EL classifier's (ElResult), so DL queries, entailment checks and justifications use it unchanged.
// Bounds: a time limit (the process is killed), an address-space limit (`ulimit -v`), a cancellation
// flag polled while the process runs, and a lifeline: the process dies with the thread that started it. Konclude never runs as a network server here.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as SaxesModule from 'saxes';
import type { Axiom, Individual, IRI } from '../model/terms.js';
import { signature } from '../model/walk.js';
import { OWL_NOTHING, OWL_THING } from '../model/vocab.js';
import type { ElOptions, ElResult } from './el-reasoner.js';
import { ReasonerCancelled, ReasonerTimeout, type CancelFlag } from './saturation.js';
import { snapshotRenderer } from './snapshot.js';
import { compareUtf8, type Taxonomy, type TaxonomyNode } from './taxonomy.js';
import { lazyRequire } from '../util/lazy.js';

/** The XML parser loads with the first Konclude answer read. */
const saxes = lazyRequire<typeof SaxesModule>('saxes');

export interface KoncludeConfig {
  /** The Konclude executable. */
  readonly path: string;
  /** Address-space bound of the process, in MiB. */
  readonly memoryMb: number;
  /** Upper bound on one run, whatever a caller asks for. */
  readonly maxTimeMs: number;
}

/** The Debian build hangs in precomputation with one worker thread; two work. */
const THREADS = 2;
/** How often a running process looks at its cancellation flag. */
const POLL_MS = 25;

export class KoncludeFailure extends Error {
  override name = 'KoncludeFailure';
}

interface Input {
  readonly ontology: string;
  readonly classes: readonly IRI[];
  readonly individuals: readonly IRI[];
}

/** The functional-syntax document (full IRIs) and the named classes and individuals of the axioms. */
function inputOf(axioms: Iterable<Axiom>): Input {
  const r = snapshotRenderer();
  const lines = ['Ontology('];
  const classes = new Set<IRI>();
  const individuals = new Set<IRI>();
  for (const a of axioms) {
    // SWRL rules are ignored, as by every reasoner here (the tools warn)
    if (a.kind === 'DLSafeRule') continue;
    lines.push(r.axiom(a));
    for (const e of signature(a)) {
      if (e.kind === 'Class') classes.add(e.iri);
      else if (e.kind === 'NamedIndividual') individuals.add(e.iri);
    }
  }
  lines.push(')');
  return { ontology: lines.join('\n'), classes: [...classes], individuals: [...individuals].sort(compareUtf8) };
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** One OWLlink request: load, consistency, the class hierarchy, owl:Thing's equivalents, then each individual's direct types. */
function requestOf(ontologyFile: string, individuals: readonly IRI[]): string {
  const kb = 'urn:athene:kb';
  const parts = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<RequestMessage xmlns="http://www.owllink.org/owllink#" xmlns:owl="http://www.w3.org/2002/07/owl#">',
    `<CreateKB kb="${kb}"/>`,
    `<LoadOntologies kb="${kb}"><OntologyIRI IRI="${escapeAttr(pathToFileURL(ontologyFile).href)}"/></LoadOntologies>`,
    `<IsKBSatisfiable kb="${kb}"/>`,
    `<GetSubClassHierarchy kb="${kb}"/>`,
    // the hierarchy leaves out classes equivalent to owl:Thing when the top node has no children
    `<GetEquivalentClasses kb="${kb}"><owl:Class IRI="${OWL_THING}"/></GetEquivalentClasses>`,
  ];
  for (const i of individuals)
    parts.push(`<GetFlattenedTypes kb="${kb}" direct="true"><owl:NamedIndividual IRI="${escapeAttr(i)}"/></GetFlattenedTypes>`);
  parts.push('</RequestMessage>');
  return parts.join('\n');
}

interface Response {
  readonly consistent: boolean;
  /** The bottom synset, then each (parent synset, child synsets) pair of the hierarchy. */
  readonly bottom: readonly IRI[];
  readonly pairs: readonly { parent: readonly IRI[]; children: (readonly IRI[])[] }[];
  /** Classes equivalent to owl:Thing. */
  readonly top: readonly IRI[];
  /** Direct types per requested individual, in request order. */
  readonly types: (readonly IRI[])[];
}

/** Reads Konclude's OWLlink response (no DTD processing: saxes fetches nothing). */
export function parseResponse(xml: string): Response {
  const parser = new (saxes().SaxesParser)({ xmlns: false });
  const stack: string[] = [];
  let consistent: boolean | null = null;
  const bottom: IRI[] = [];
  const pairs: { parent: IRI[]; children: IRI[][] }[] = [];
  const types: IRI[][] = [];
  const top: IRI[] = [];
  let error: string | null = null;
  let synset: IRI[] | null = null;
  parser.on('opentag', (tag) => {
    const name = tag.name.replace(/^owl:/, '');
    stack.push(name);
    const depth = stack.length;
    const attr = (k: string) => (typeof tag.attributes[k] === 'string' ? (tag.attributes[k] as string) : '');
    if (depth === 2) {
      if (name === 'BooleanResponse' && consistent === null) consistent = attr('result') === 'true';
      else if (name === 'Classes') types.push((synset = []));
      else if (name === 'SetOfClasses') synset = top;
      else if (name.endsWith('Error') && name !== 'UnsatisfiableKBError') error ??= attr('error') || name;
      return;
    }
    if (stack[1] === 'ClassHierarchy' && name === 'ClassSynset') {
      // the hierarchy's own synset is the bottom node; the others come in (parent, children) pairs
      if (depth === 3) synset = bottom;
      else if (stack[2] === 'ClassSubClassesPair') {
        if (depth === 4) pairs.push({ parent: (synset = []), children: [] });
        else if (depth === 5) pairs.at(-1)?.children.push((synset = []));
      }
      return;
    }
    if (name === 'Class' && synset !== null) synset.push(attr('IRI'));
  });
  parser.on('closetag', () => {
    const name = stack.pop();
    if (name === 'ClassSynset' || name === 'Classes' || name === 'SetOfClasses') synset = null;
  });
  parser.write(xml).close();
  if (error !== null) throw new KoncludeFailure(error);
  if (consistent === null) throw new KoncludeFailure('no consistency answer in the response');
  return { consistent, bottom, pairs, top, types };
}

interface Node {
  representative: IRI;
  members: IRI[];
  parents: Node[];
  children: Node[];
}

const memberOrder = (first: IRI) => (a: IRI, b: IRI) => (a === first ? -1 : b === first ? 1 : compareUtf8(a, b));

function makeNode(members: Iterable<IRI>, first: IRI | null): Node {
  const sorted = [...new Set(members)].sort(first === null ? compareUtf8 : memberOrder(first));
  const [representative] = sorted;
  if (representative === undefined) throw new KoncludeFailure('an empty class synset in the response');
  return { representative, members: sorted, parents: [], children: [] };
}

/**
 * The taxonomy of a consistent response over the input's classes: Konclude leaves out classes that only
 * occur in declarations, so those become direct children of owl:Thing.
 */
function taxonomyOf(res: Response, classes: readonly IRI[]): Taxonomy {
  const nodeOf = new Map<IRI, Node>();
  const bottom = makeNode([OWL_NOTHING, ...res.bottom], OWL_NOTHING);
  for (const m of bottom.members) nodeOf.set(m, bottom);
  const nodeFor = (synset: readonly IRI[]): Node => {
    const known = synset.map((m) => nodeOf.get(m)).find((n) => n !== undefined);
    if (known === undefined) {
      const n = makeNode(synset, synset.includes(OWL_THING) ? OWL_THING : null);
      for (const m of n.members) nodeOf.set(m, n);
      return n;
    }
    // a synset repeats its node's members; the first one seen may have been the owl:Thing node alone
    const added = synset.filter((m) => !nodeOf.has(m));
    if (added.length > 0) {
      const first = known.representative === OWL_THING || known.representative === OWL_NOTHING ? known.representative : null;
      known.members = [...known.members, ...added].sort(first === null ? compareUtf8 : memberOrder(first));
      known.representative = known.members[0]!; // added is not empty
      for (const m of added) nodeOf.set(m, known);
    }
    return known;
  };
  const top = nodeFor([OWL_THING, ...res.top]);
  for (const { parent, children } of res.pairs) {
    const p = nodeFor(parent);
    for (const c of children) {
      const child = nodeFor(c);
      if (child === bottom || child.parents.includes(p)) continue;
      child.parents.push(p);
      p.children.push(child);
    }
  }
  for (const c of classes) {
    if (nodeOf.has(c)) continue;
    const n = nodeFor([c]);
    n.parents.push(top);
    top.children.push(n);
  }
  const inner = [...new Set(nodeOf.values())].filter((n) => n !== top && n !== bottom);
  const leaves = inner.filter((n) => n.children.length === 0);
  bottom.parents = leaves.length > 0 ? leaves : [top];
  return { top, bottom, nodes: [top, ...inner, bottom], nodeOf: (iri) => nodeOf.get(iri) };
}

/** An inconsistent ontology: every class is unsatisfiable (the EL classifier's shape for this case). */
function inconsistentTaxonomy(classes: readonly IRI[]): Taxonomy {
  const top = makeNode([OWL_THING], OWL_THING);
  const bottom = makeNode([OWL_NOTHING, ...classes.filter((c) => c !== OWL_THING)], OWL_NOTHING);
  bottom.parents = [top];
  const nodeOf = (iri: IRI) => (iri === OWL_THING ? top : bottom.members.includes(iri) ? bottom : undefined);
  return { top, bottom, nodes: [top, bottom], nodeOf };
}

function ancestors(start: readonly TaxonomyNode[], top: TaxonomyNode): TaxonomyNode[] {
  const seen = new Set<TaxonomyNode>([top, ...start]);
  const out = [...seen];
  // the loop also visits the ancestors found meanwhile
  for (const n of out) {
    for (const p of n.parents) {
      if (seen.has(p)) continue;
      seen.add(p);
      out.push(p);
    }
  }
  return out;
}

/** The response as an ElResult over the input's classes and individuals. */
function resultOf(res: Response, input: Input): ElResult {
  const named = input.classes.filter((c) => c !== OWL_THING && c !== OWL_NOTHING).sort(compareUtf8);
  const taxonomy = res.consistent ? taxonomyOf(res, input.classes) : inconsistentTaxonomy(named);
  const direct = new Map<IRI, readonly TaxonomyNode[]>();
  input.individuals.forEach((ind, k) => {
    const nodes = new Set<TaxonomyNode>();
    for (const c of res.types[k] ?? []) {
      const n = taxonomy.nodeOf(c);
      if (n !== undefined && n !== taxonomy.top) nodes.add(n);
    }
    direct.set(ind, [...nodes]);
  });
  const types = (ind: Individual, isDirect = true): readonly TaxonomyNode[] => {
    if (!res.consistent) return isDirect ? [taxonomy.bottom] : taxonomy.nodes;
    if (ind.kind !== 'NamedIndividual') return [];
    const d = direct.get(ind.iri);
    if (d === undefined) return [];
    return isDirect ? d : ancestors(d, taxonomy.top);
  };
  return {
    consistent: res.consistent,
    unsatisfiable: res.consistent ? taxonomy.bottom.members.filter((m) => m !== OWL_NOTHING) : named,
    taxonomy,
    types,
    unsupported: { count: 0, sample: [] },
    complete: true,
  };
}

interface Prepared {
  readonly dir: string;
  readonly request: string;
  readonly response: string;
  readonly input: Input;
}

/** Writes the input files into a fresh private directory (0700, files 0600, never overwriting). */
function prepare(axioms: Iterable<Axiom>): Prepared {
  const input = inputOf(axioms);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athene-konclude-'));
  const ontology = path.join(dir, 'ontology.ofn');
  const request = path.join(dir, 'request.xml');
  writeFileSync(ontology, input.ontology, { mode: 0o600, flag: 'wx' });
  writeFileSync(request, requestOf(ontology, input.individuals), { mode: 0o600, flag: 'wx' });
  return { dir, request, response: path.join(dir, 'response.xml'), input };
}

/**
 * The command: a shell that sets the memory bound and a private umask, starts Konclude and holds its lifeline.
 * The shell's stdin is a pipe from the thread that started the run; it reads end-of-file when the thread cuts
 * it (a time bound, a cancellation) or once that thread or its process is gone (a terminated pool thread, a
 * server that exits or is killed), when no `finally` of ours may run: the watcher then removes the run's
 * directory and kills the whole process group (the shell leads it). When Konclude ends first, the shell
 * stops the watcher; a signal that ended Konclude ends the shell too.
 */
const SCRIPT = [
  'ulimit -v "$1" && umask 077 && dir=$2 && shift 2 || exit 125',
  'exec 3<&0 0</dev/null',
  '"$@" 3<&- &',
  'k=$!',
  '{ cat <&3; rm -rf "$dir"; kill -KILL 0; } >/dev/null 2>&1 &',
  'w=$!',
  'exec 3<&-',
  'wait "$k"',
  's=$?',
  'kill "$w"',
  '[ "$s" -le 128 ] || kill -"$((s - 128))" "$$"',
  'exit "$s"',
].join('\n');

function command(config: KoncludeConfig, p: Prepared): [string, string[]] {
  return [
    '/bin/sh',
    [
      '-c',
      SCRIPT,
      'konclude',
      String(config.memoryMb * 1024),
      p.dir,
      config.path,
      'owllinkfile',
      '-w',
      String(THREADS),
      '-i',
      p.request,
      '-o',
      p.response,
    ],
  ];
}

function readResult(p: Prepared, status: number | null, signal: NodeJS.Signals | null, output: string, config: KoncludeConfig): ElResult {
  if (status !== 0) {
    const why = signal !== null ? `was killed by ${signal}` : `exited with status ${status}`;
    const hint =
      signal === 'SIGSEGV' || signal === 'SIGABRT' || /bad_alloc|memory/i.test(output) ? ` (memory bound ${config.memoryMb} MiB)` : '';
    const last =
      output
        .trim()
        .split('\n')
        .filter((l) => /error/i.test(l))
        .slice(-1)[0] ?? '';
    throw new KoncludeFailure(`Konclude ${why}${hint}${last !== '' ? ': ' + last.replace(/^\{error\}\s*[\d:]+\s*>>\s*/, '') : ''}`);
  }
  let xml: string;
  try {
    xml = readFileSync(p.response, 'utf8');
  } catch {
    throw new KoncludeFailure('Konclude wrote no response');
  }
  return resultOf(parseResponse(xml), p.input);
}

const boundOf = (config: KoncludeConfig, options: ElOptions) =>
  Math.max(
    1,
    Math.min(config.maxTimeMs, options.timeLimitMs !== undefined && options.timeLimitMs > 0 ? options.timeLimitMs : config.maxTimeMs),
  );

/**
 * Classifies and realizes the axioms with Konclude, a child process the caller's thread keeps serving beside:
 * killed at the time bound, as soon as the cancellation flag is raised, and when the thread or process that
 * started it is gone (the lifeline of `command`), so no Konclude process outlives the call.
 */
export async function konclude(axioms: Iterable<Axiom>, config: KoncludeConfig, options: ElOptions = {}): Promise<ElResult> {
  const bound = boundOf(config, options);
  const p = prepare(axioms);
  try {
    const [cmd, args] = command(config, p);
    // detached: the shell leads a process group of its own, the one its lifeline's watcher kills
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let output = '';
    const keep = (b: Buffer) => {
      if (output.length < 1 << 16) output += b.toString('utf8');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let stopped: 'timeout' | 'cancelled' | null = null;
    const stop = (why: 'timeout' | 'cancelled') => {
      stopped ??= why;
      // cutting the lifeline stops the run as the thread's end would: files removed, processes killed
      child.stdin.destroy();
    };
    const timer = setTimeout(() => stop('timeout'), bound);
    const poll =
      options.cancel === undefined
        ? undefined
        : setInterval(() => {
            if (Atomics.load(options.cancel as CancelFlag, 0) !== 0) stop('cancelled');
          }, POLL_MS);
    const [status, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.on('error', (err) => reject(new KoncludeFailure(`cannot run Konclude: ${err.message}`)));
      // the shell is gone: the lifeline's end lets its watcher go too
      child.on('exit', () => child.stdin.destroy());
      child.on('close', (code, sig) => resolve([code, sig]));
    }).finally(() => {
      clearTimeout(timer);
      clearInterval(poll);
    });
    if (stopped === 'timeout') throw new ReasonerTimeout(bound);
    if (stopped === 'cancelled') throw new ReasonerCancelled();
    return readResult(p, status, signal, output, config);
  } finally {
    rmSync(p.dir, { recursive: true, force: true });
  }
}

export interface KoncludeInstall {
  readonly path: string;
  /** As Konclude prints it, e.g. `0.7.0-1138`. */
  readonly version: string;
}

/** The executable at `configured`, else `Konclude` on the PATH, with its version; null when neither runs. */
export function probeKonclude(configured: string | null, env: NodeJS.ProcessEnv = process.env): KoncludeInstall | null {
  const candidates =
    configured !== null && configured !== ''
      ? [configured]
      : (env.PATH ?? '')
          .split(path.delimiter)
          .filter((d) => d !== '')
          .map((d) => path.join(d, 'Konclude'));
  for (const file of candidates) {
    const out = spawnSync(file, ['-h'], { encoding: 'utf8', timeout: 10_000, killSignal: 'SIGKILL' });
    if (out.error !== undefined) continue;
    const version = /Version v?([0-9][^\s,]*)/.exec(out.stdout + out.stderr)?.[1];
    if (version !== undefined) return { path: file, version };
  }
  return null;
}
