// The settings table is the one source of flags, environment variables, settings.json keys, help and README.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SETTINGS, settingsMarkdown, loadSettings, flagSettings, SettingsError } from '../../src/settings/settings.js';
import { packageRoot } from '../../src/util/package.js';

const run = promisify(execFile);
const cli = path.join(packageRoot(), 'dist/src/cli/main.js');

test('the README lists exactly the settings table', async () => {
  const readme = await readFile(path.join(packageRoot(), 'README.md'), 'utf8');
  assert.ok(
    readme.includes(settingsMarkdown()),
    'README.md settings table differs from src/settings/settings.ts; paste settingsMarkdown()',
  );
});

test('athene serve --help names every flag, its environment variable, settings.json key and default', async () => {
  const { stdout } = await run(process.execPath, [cli, 'serve', '--help']);
  for (const r of SETTINGS) {
    assert.ok(stdout.includes(r.flag), r.flag);
    assert.ok(stdout.includes(r.env), r.env);
    assert.ok(stdout.includes(`settings.json "${r.key}"`), r.key);
    for (const alias of r.aliases) assert.ok(stdout.includes(alias), alias);
  }
  assert.match(stdout, /default 8123/);
});

test('athene --version and athene help', async () => {
  const { version } = JSON.parse(await readFile(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  assert.equal((await run(process.execPath, [cli, '--version'])).stdout, `athene ${version}\n`);
  assert.match((await run(process.execPath, [cli, 'help'])).stdout, /athene serve --help/);
});

test('every flag spelling, variable and file key reaches its setting; errors name the spelling that exists', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-settings-'));
  try {
    assert.deepEqual(flagSettings({ linger: '3', 'no-share': true, bind: '::1', 'confirm-writes': true, 'no-read-only': true }), {
      broker_idle_linger_s: '3',
      share_endpoint: false,
      bind_address: '::1',
      confirm_each_write: true,
      read_only: false,
    });
    const s = await loadSettings(home, flagSettings({ 'broker-idle-linger-s': '7' }), {});
    assert.equal(s.broker_idle_linger_s, 7);
    await assert.rejects(
      loadSettings(home, flagSettings({ linger: 'soon' }), {}),
      (e: Error) => e instanceof SettingsError && /^--broker-idle-linger-s: expected an integer in 0\.\.3600, got 'soon'$/.test(e.message),
    );
    await assert.rejects(loadSettings(home, {}, { ATHENE_BROKER_IDLE_LINGER_S: '-1' }), (e: Error) =>
      /^ATHENE_BROKER_IDLE_LINGER_S: /.test(e.message),
    );
    await writeFile(path.join(home, 'settings.json'), JSON.stringify({ broker_idle_linger_s: 1.5 }));
    await assert.rejects(loadSettings(home, {}, {}), (e: Error) => /broker_idle_linger_s: expected an integer/.test(e.message));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
