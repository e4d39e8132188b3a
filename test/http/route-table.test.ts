// The route table's matcher: exact paths, then prefixes and patterns in declaration order, a method check
// that answers 405 rather than falling through, null for an undeclared path, and a table that refuses
// an exact path hidden under an earlier pattern (where "exact first" would disagree with "first declared").

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RouteTable, type RouteSpec } from '../../src/http/route-table.js';

interface Named extends RouteSpec {
  readonly name: string;
}

const table = new RouteTable<Named>([
  { name: 'internal', methods: 'any', path: { prefix: '/internal/' } },
  { name: 'mcp', methods: ['GET', 'POST', 'DELETE'], path: '/mcp' },
  { name: 'instance', methods: ['POST'], path: /^\/instances\/([^/]+)\/mcp$/ },
  { name: 'admin-any', methods: 'any', path: { prefix: '/admin/' } },
  { name: 'health', methods: ['GET'], path: '/health' },
]);

/** The route `path` finds; throws when it finds none. */
function found(method: string, path: string) {
  const match = table.match(method, path);
  assert.ok(match !== null, `${method} ${path} finds no route`);
  return match;
}

test('an exact path, a prefix and a pattern each find their route; a pattern hands over its groups', () => {
  assert.equal(found('POST', '/mcp').route.name, 'mcp');
  assert.equal(found('GET', '/internal/clients').route.name, 'internal');
  const instance = found('POST', '/instances/w%201/mcp');
  assert.equal(instance.route.name, 'instance');
  assert.deepEqual(instance.params, ['w%201']);
  assert.deepEqual(found('GET', '/health').params, []);
});

test('another method on a declared path is reported as not allowed, never passed on to a later route', () => {
  const put = found('PUT', '/mcp');
  assert.equal(put.route.name, 'mcp');
  assert.equal(put.methodAllowed, false);
  assert.equal(found('DELETE', '/mcp').methodAllowed, true);
  assert.equal(found('GET', '/instances/a/mcp').methodAllowed, false);
  assert.equal(found('PATCH', '/admin/anything').methodAllowed, true);
});

test('an undeclared path finds nothing; a path near a declared one is not it', () => {
  for (const path of ['/', '/mcp/', '/mcpx', '/instances/a/b/mcp', '/healthz', '/internal']) {
    assert.equal(table.match('GET', path), null, path);
  }
});

test('a table refuses an exact path declared twice or under an earlier prefix or pattern', () => {
  assert.throws(
    () =>
      new RouteTable<Named>([
        { name: 'a', methods: ['GET'], path: '/x' },
        { name: 'b', methods: ['POST'], path: '/x' },
      ]),
    /declared twice/,
  );
  assert.throws(
    () =>
      new RouteTable<Named>([
        { name: 'prefix', methods: 'any', path: { prefix: '/admin/' } },
        { name: 'late', methods: ['GET'], path: '/admin/api/clients' },
      ]),
    /lies under the earlier route \/admin\/\*/,
  );
  assert.throws(
    () =>
      new RouteTable<Named>([
        { name: 'pattern', methods: ['POST'], path: /^\/w\/([^/]+)$/ },
        { name: 'late', methods: ['GET'], path: '/w/one' },
      ]),
    /lies under the earlier route/,
  );
  // declared before the prefix, an exact path is fine: it is what a reader sees first
  const ok = new RouteTable<Named>([
    { name: 'exact', methods: ['GET'], path: '/admin/api/clients' },
    { name: 'prefix', methods: 'any', path: { prefix: '/admin/' } },
  ]);
  assert.equal(ok.match('GET', '/admin/api/clients')?.route.name, 'exact');
  assert.equal(ok.match('GET', '/admin/api/other')?.route.name, 'prefix');
});
