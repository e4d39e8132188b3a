// Which release is newer (the version takeover's rule) and the test override of the protocol.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareReleases, ownRelease, PROTOCOL_OVERRIDE_ENV } from '../../src/broker/version.js';
import { BROKER_PROTOCOL } from '../../src/broker/wire.js';

test('the protocol counts first, then the package version part by part, numerically', () => {
  assert.ok(compareReleases({ protocol: 3, version: '0.1.0' }, { protocol: 2, version: '9.9.9' }) > 0);
  assert.ok(compareReleases({ protocol: 2, version: '0.10.0' }, { protocol: 2, version: '0.9.7' }) > 0, '10 is after 9, not before it');
  assert.ok(compareReleases({ protocol: 2, version: '1.0.0' }, { protocol: 2, version: '1.0.1' }) < 0);
  assert.equal(compareReleases({ protocol: 2, version: '1.2.3-rc.1' }, { protocol: 2, version: '1.2.3' }), 0);
  assert.ok(
    compareReleases({ protocol: 2, version: '0.1.0' }, { protocol: 2, version: '0.0.0' }) > 0,
    'a record without a version counts as 0.0.0',
  );
});

test('ATHENE_PROTOCOL_VERSION_OVERRIDE replaces the protocol; anything but a positive integer is refused', () => {
  assert.deepEqual(ownRelease('0.1.0', {}), { protocol: BROKER_PROTOCOL, version: '0.1.0' });
  assert.deepEqual(ownRelease('0.1.0', { [PROTOCOL_OVERRIDE_ENV]: '7' }), { protocol: 7, version: '0.1.0' });
  for (const bad of ['0', '-1', '2.5', 'three']) {
    assert.throws(
      () => ownRelease('0.1.0', { [PROTOCOL_OVERRIDE_ENV]: bad }),
      new RegExp(`${PROTOCOL_OVERRIDE_ENV} must be a positive integer`),
    );
  }
});
