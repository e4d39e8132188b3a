// The server view in a real browser (headless Debian Chromium through playwright-core) with a window of
// another process behind the broker: the window shows its live state, its own confirm-each-write switch is
// turned on from the page, an agent's write there is held and appears without reload with its changes,
// and the owner approves it from the page; the change then shows in that window's feed. The broker runs
// in this process; the other is a real `athene serve`.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { brokerFixture, connectTo, freePort, spawnAthene, stopAthene, type Athene } from '../test/broker/support.js';
import { startTestServer, call, type TestServer } from '../test/server/support.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOTS = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'test-browser', 'screenshots');
/** Generous for a loaded 2-core machine. */
const LIVE_MS = 20_000;

let t: TestServer;
let other: Athene;
let browser: Browser;

before(async () => {
  const port = await freePort();
  t = await startTestServer([brokerFixture('alpha.ttl')], { port: String(port), broker_idle_linger_s: '0' });
  // a process starting on a busy 2-core machine may take a while
  other = await spawnAthene(t.home, port, brokerFixture('beta.ttl'), [], {}, 90_000);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  await mkdir(SCREENSHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  if (other !== undefined) await stopAthene(other);
  await t?.stop();
});

test("a held write of another process's window appears live with its changes and is approved from the page", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  let agent: Client | null = null;
  try {
    const page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    await page.goto(t.server.ownerLoginUrl());
    await page.goto(`${new URL(t.server.url).origin}/admin/windows`);
    await page.locator('[data-test="live"].on').waitFor({ timeout: LIVE_MS });
    const remote = page.locator('[data-test="window-item"][data-local="false"]');
    await remote.waitFor({ timeout: LIVE_MS });
    assert.match((await remote.textContent()) ?? '', new RegExp(`process ${other.pid} \\(behind the broker\\)`));
    assert.match((await remote.locator('[data-test="window-dirty"]').textContent()) ?? '', /0 ontologies with unsaved changes/);
    const id = (await remote.getAttribute('data-window-id'))!;

    // the remote window's own switch, flipped from the page, goes to the owning process
    await remote.locator('[data-test="window-confirm-each-write"]').check();
    await page
      .locator('[data-test="window-item"][data-local="false"] [data-test="window-confirm-each-write"]:checked')
      .waitFor({ timeout: LIVE_MS });
    agent = await connectTo(t.server.url, t.token, `/instances/${encodeURIComponent(id)}/mcp`);
    await page
      .locator('[data-test="window-item"][data-local="false"] [data-test="window-sessions"]', { hasText: /^sessions: (?!none)/ })
      .waitFor({ timeout: LIVE_MS });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'windows-broker-desktop.png') });

    await page.click('[data-tab="pending"]');
    const answered = call(agent, 'add_subclass_of', { child: 'ThingBeta', parent: 'Widget' });
    const item = page.locator('[data-test="pending-item"]');
    await item.waitFor({ timeout: LIVE_MS });
    assert.match(
      (await item.textContent()) ?? '',
      /'beta thing' SubClassOf Widget/,
      "the remote write's change in Manchester syntax with display names",
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, 'pending-broker-desktop.png') });
    await item.locator('[data-test="approve"]').click();
    const done = await answered;
    assert.equal(done.isError, false, JSON.stringify(done.body));
    await item.waitFor({ state: 'detached', timeout: LIVE_MS });

    // the applied change is in that window's live feed and its tree
    await page.click('[data-tab="changes"]');
    await page.selectOption('[data-test="window-picker"]', id);
    await page.locator('[data-test="change-item"][data-tool="add_subclass_of"]').first().waitFor({ timeout: LIVE_MS });
    await page.click('[data-tab="windows"]');
    await page
      .locator('[data-test="window-item"][data-local="false"] [data-test="window-dirty"]', { hasText: /^1 ontology with unsaved changes/ })
      .waitFor({ timeout: LIVE_MS });
    await remote.locator('[data-test="window-confirm-each-write"]').uncheck();
    await page
      .locator('[data-test="window-item"][data-local="false"] [data-test="window-confirm-each-write"]:not(:checked)')
      .waitFor({ timeout: LIVE_MS });
  } finally {
    await agent?.close();
    await context.close();
  }
});
