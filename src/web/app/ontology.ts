// The read-only ontology browser of the server view: the asserted class tree of the chosen window's active
// ontology, loaded one level and one page at a time (so a 100k-class ontology opens as fast as a small
// one), an entity card, and search. A refresh (an edit happened) reloads what is open, keeping it open.

import { api, empty, h, replace, when } from './dom.js';

type Json = Record<string, unknown>;

interface ClassPage {
  readonly total: number;
  readonly offset: number;
  readonly items: { iri: string; display: string; children: number }[];
}

export class OntologyBrowser {
  private readonly expanded = new Set<string>();
  /** How many rows of each open level (key '' for the roots) were loaded, so a refresh loads as many. */
  private readonly loaded = new Map<string, number>();
  private card: string | null = null;
  private window: string | null = null;
  private tree: HTMLUListElement | null = null;

  constructor(
    private readonly container: HTMLElement,
    private readonly selected: () => string | null,
    private readonly picker: () => HTMLElement | null,
    private readonly act: (run: () => Promise<unknown>) => () => void,
  ) {}

  private path(what: string): string {
    return `/admin/view/windows/${encodeURIComponent(this.window ?? '')}/${what}`;
  }

  /** Builds the browser for the selected window from scratch. */
  async reset(): Promise<void> {
    this.window = this.selected();
    this.expanded.clear();
    this.loaded.clear();
    this.card = null;
    if (this.window === null) return replace(this.container, empty('No window is open.'));
    const results = h('div', { 'data-test': 'search-results' });
    const search = h('input', {
      type: 'search',
      placeholder: 'Search entities',
      'data-test': 'search',
      onchange: this.act(async () => {
        const q = search.value.trim();
        if (q === '') return replace(results);
        const found = await api<{ items: Json[]; count: number }>(`${this.path('search')}?q=${encodeURIComponent(q)}`);
        replace(
          results,
          found.items.length === 0
            ? empty('Nothing found.')
            : h(
                'ul',
                {},
                found.items.map((i) =>
                  h(
                    'li',
                    { 'data-test': 'search-item' },
                    h('button', { class: 'name', onclick: this.act(() => this.showCard(String(i.iri))) }, String(i.display)),
                    ' ',
                    h('span', { class: 'muted' }, String(i.type)),
                  ),
                ),
              ),
        );
      }),
    });
    this.tree = h('ul', { class: 'tree top', 'data-test': 'class-tree' });
    replace(
      this.container,
      h('div', { class: 'filters' }, this.picker(), search),
      results,
      h(
        'div',
        { class: 'split' },
        h('div', { class: 'card' }, h('strong', {}, 'Asserted class hierarchy'), this.tree),
        h('div', { class: 'card', 'data-test': 'entity-card' }, empty('Choose a class or a search result.')),
      ),
    );
    await this.level(this.tree, null);
  }

  /** An edit happened: reload the open levels (keeping them open) and the card. */
  async refresh(): Promise<void> {
    if (this.tree === null || this.window !== this.selected()) return this.reset();
    await this.level(this.tree, null);
    if (this.card !== null) await this.showCard(this.card);
  }

  /** Fills `ul` with the children of `parent` (null: the roots): as many rows as were shown before, at least one page. */
  private async level(ul: HTMLUListElement, parent: string | null): Promise<void> {
    const key = parent ?? '';
    const want = this.loaded.get(key) ?? 0;
    const rows: ClassPage['items'] = [];
    let page: ClassPage;
    do {
      page = await api<ClassPage & Json>(
        `${this.path('classes')}?offset=${rows.length}${parent === null ? '' : `&parent=${encodeURIComponent(parent)}`}`,
      );
      rows.push(...page.items);
    } while (rows.length < want && rows.length < page.total && page.items.length > 0);
    this.loaded.set(key, rows.length);
    const nodes = await Promise.all(rows.map((r) => this.node(r)));
    const more =
      rows.length < page.total
        ? h(
            'li',
            {},
            h(
              'button',
              {
                'data-test': 'more',
                onclick: this.act(async () => {
                  this.loaded.set(key, rows.length + 1);
                  await this.level(ul, parent);
                }),
              },
              `Show more (${page.total - rows.length} more)`,
            ),
          )
        : null;
    replace(ul, nodes.length === 0 && parent === null ? empty('The active ontology has no named classes.') : nodes, more);
  }

  private async node(r: ClassPage['items'][number]): Promise<HTMLLIElement> {
    const open = this.expanded.has(r.iri) && r.children > 0;
    const children = h('ul', { class: 'tree' });
    const li = h(
      'li',
      { 'data-test': 'class-node', 'data-iri': r.iri },
      h(
        'div',
        { class: 'node' },
        h(
          'button',
          {
            class: 'twist',
            'aria-expanded': open,
            disabled: r.children === 0,
            'aria-label': r.children === 0 ? 'no subclasses' : 'subclasses',
            onclick: this.act(async () => {
              if (this.expanded.delete(r.iri)) {
                this.loaded.delete(r.iri);
                replace(children);
              } else {
                this.expanded.add(r.iri);
                await this.level(children, r.iri);
              }
              li.querySelector('.twist')!.textContent = this.expanded.has(r.iri) ? '▾' : '▸';
            }),
          },
          r.children === 0 ? '·' : open ? '▾' : '▸',
        ),
        h('button', { class: 'name', title: r.iri, onclick: this.act(() => this.showCard(r.iri)) }, r.display),
        r.children > 0 ? h('span', { class: 'muted' }, String(r.children)) : null,
      ),
      children,
    );
    if (open) await this.level(children, r.iri);
    return li;
  }

  private async showCard(iri: string): Promise<void> {
    this.card = iri;
    const slot = this.container.querySelector('[data-test="entity-card"]');
    if (slot === null) return;
    const data = await api<Json>(`${this.path('entity')}?iri=${encodeURIComponent(iri)}`);
    const context = data.context as Json;
    if (typeof context.error === 'string') return replace(slot, empty(context.error));
    const cards = (context.entities ?? []) as Json[];
    const axioms = (((data.axioms as Json).axioms as Json | undefined)?.items as Json[] | undefined) ?? [];
    const history = data.history === null ? null : (((data.history as Json).entries ?? []) as Json[]);
    const neighbours = (c: Json, field: string, title: string) => {
      const list = c[field] as { items?: Json[] } | Json[] | undefined;
      const items = Array.isArray(list) ? list : (list?.items ?? []);
      return items.length === 0
        ? null
        : h('div', {}, h('strong', {}, title), ' ', items.map((i) => String(i.display ?? i.expression ?? '')).join(', '));
    };
    replace(
      slot,
      cards.map((c) =>
        h(
          'div',
          { 'data-iri': String(c.iri) },
          h('h3', {}, String(c.display), ' ', h('span', { class: 'muted' }, String(c.type))),
          h('div', {}, h('code', {}, String(c.iri))),
          c.deprecated === true ? h('div', { class: 'op-remove' }, 'deprecated') : null,
          h('h4', {}, 'Annotations'),
          (c.annotations as Json[]).length === 0
            ? empty('none')
            : h(
                'ul',
                {},
                (c.annotations as Json[]).map((a) =>
                  h(
                    'li',
                    {},
                    h('span', { class: 'muted' }, `${String(a.property)}: `),
                    String(a.value ?? a.value_iri ?? ''),
                    a.lang === undefined ? '' : ` @${String(a.lang)}`,
                  ),
                ),
              ),
          neighbours(c, 'super_classes', 'Superclasses:'),
          neighbours(c, 'sub_classes', 'Subclasses:'),
          h('div', { class: 'muted' }, `Used in ${String(c.referencing_axioms)} axiom(s)`),
        ),
      ),
      h('h4', {}, 'Axioms'),
      axioms.length === 0
        ? empty('none')
        : h(
            'ul',
            { class: 'changes', 'data-test': 'entity-axioms' },
            axioms.map((a) => h('li', {}, h('code', {}, String(a.rendering)))),
          ),
      h('h4', {}, 'History'),
      history === null
        ? empty('The change journal is off.')
        : history.length === 0
          ? empty('No journaled change.')
          : h(
              'ul',
              {},
              history
                .slice(-10)
                .reverse()
                .map((e) =>
                  h(
                    'li',
                    {},
                    `${when(String(e.time))}: ${String(e.tool ?? e.cause)} by ${String((e.principal as Json | null)?.name ?? 'unknown')}`,
                  ),
                ),
            ),
    );
  }
}
