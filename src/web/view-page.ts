// The server view's HTML shell, style and headers. The shell carries no data but the owner session's CSRF
// token; the page's modules (src/web/app, compiled beside this file) fetch the rest. The policy allows
// nothing but this server: its own scripts, styles and API, no inline code, no frames.

import { escapeHtml } from './consent-page.js';
import { VIEW_SECTIONS_TITLES } from './app/sections.js';

/** The compiled page modules the server serves under `/admin/assets/`. */
export const VIEW_ASSETS: readonly string[] = ['view.js', 'dom.js', 'sections.js', 'ontology.js'];

export const VIEW_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function viewHeaders(): readonly (readonly [string, string])[] {
  return [
    ['content-type', 'text/html; charset=utf-8'],
    ['content-security-policy', VIEW_CSP],
    ['x-frame-options', 'DENY'],
    ['cache-control', 'no-store'],
    ['referrer-policy', 'no-referrer'],
    ['x-content-type-options', 'nosniff'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['cross-origin-resource-policy', 'same-origin'],
  ];
}

/**
 * The page's shell. `window` is the window the feed and the ontology browser open on (this process's
 * newest): named here, the browser asks for its first class page without waiting for the window list.
 * The modules are preloaded side by side rather than found one import at a time.
 */
export function shellPage(csrf: string, window: string | null): string {
  const tabs = VIEW_SECTIONS_TITLES.map(
    ([id, title]) => `<a href="/admin/${id}" data-tab="${id}">${escapeHtml(title)}<span class="badge" data-badge="${id}"></span></a>`,
  ).join('');
  const sections = VIEW_SECTIONS_TITLES.map(
    ([id, title]) => `<section id="${id}" data-section="${id}" hidden><h2>${escapeHtml(title)}</h2><div class="body"></div></section>`,
  ).join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta name="athene-csrf" content="${escapeHtml(csrf)}"><meta name="athene-window" content="${escapeHtml(window ?? '')}"><title>Athene server view</title>` +
    '<link rel="stylesheet" href="/admin/assets/view.css">' +
    VIEW_ASSETS.slice(1)
      .map((a) => `<link rel="modulepreload" href="/admin/assets/${a}">`)
      .join('') +
    '<script type="module" src="/admin/assets/view.js"></script></head>' +
    `<body><header><h1>Athene</h1><span id="live" class="live" data-test="live">connecting…</span><nav>${tabs}</nav></header>` +
    `<div id="banner" class="banner" hidden></div><main>${sections}</main></body></html>`
  );
}

export const VIEW_STYLE = `:root{--fg:#1d232b;--muted:#5d6875;--line:#d8dde3;--bg:#f6f7f9;--card:#fff;--accent:#2456a6;--ok:#1f7a3a;--bad:#a3262a}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;padding:.5rem 1rem;background:#1d232b;color:#fff;position:sticky;top:0;z-index:2}
header h1{font-size:1.1rem;margin:0}nav{display:flex;flex-wrap:wrap;gap:.25rem;width:100%}
nav a{color:#dfe6ef;text-decoration:none;padding:.3rem .6rem;border-radius:4px}nav a[aria-current=page]{background:#3b4654;color:#fff}
.badge:not(:empty){margin-left:.35rem;background:#d9822b;color:#fff;border-radius:9px;padding:0 .4rem;font-size:.8rem}
.live{font-size:.8rem;color:#b9c3cf}.live.on{color:#7fd18f}
main{max-width:72rem;margin:0 auto;padding:1rem}section h2{font-size:1.2rem;margin:.2rem 0 .8rem}
.banner{background:#fbe9e9;color:var(--bad);padding:.6rem 1rem;border-bottom:1px solid #e6c1c1}
.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.7rem .9rem;margin:0 0 .7rem}
.row{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:baseline}.row>*{min-width:0;overflow-wrap:anywhere}.grow{flex:1 1 12rem;min-width:0}
.muted{color:var(--muted);font-size:.88rem}.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}
.facts dt{color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere}
pre,code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}pre{background:#f0f2f5;padding:.5rem;border-radius:4px;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere;margin:.4rem 0}
button{font:inherit;padding:.3rem .8rem;border:1px solid var(--line);border-radius:4px;background:#fff;cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}button.danger{color:var(--bad);border-color:#e0b4b6}
button.approve{background:var(--ok);border-color:var(--ok);color:#fff}
input[type=search],input[type=text],select{font:inherit;padding:.3rem .5rem;border:1px solid var(--line);border-radius:4px;max-width:100%}
label.toggle{display:flex;gap:.5rem;align-items:center;margin:.3rem 0}
ul.changes{margin:.3rem 0;padding-left:0;list-style:none}[data-slot]:empty{display:none}ul.changes li,.card li{overflow-wrap:anywhere}.op-add{color:var(--ok)}.op-remove{color:var(--bad)}
.empty{color:var(--muted);font-style:italic}.filters{display:flex;flex-wrap:wrap;gap:.5rem;margin-bottom:.7rem}
.tree{list-style:none;padding-left:1rem;margin:0}.tree.top{padding-left:0}.tree li{margin:.1rem 0}
.tree .node{display:flex;gap:.3rem;align-items:center}.tree button.twist{width:1.6rem;padding:0;border:none;background:none}
.tree button.name{border:none;background:none;padding:0 .2rem;color:var(--accent);text-align:left}
.split{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}
@media (max-width:760px){.split{grid-template-columns:1fr}main{padding:.6rem}nav a{padding:.25rem .45rem}}`;
