import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDbusAddress, toDbusNextAddress } from '../bus-address.js';

test('unix path and abstract addresses become socket addresses dbus-next opens without usocket', () => {
  assert.equal(
    toDbusNextAddress('unix:path=/root/.cache/at-spi/bus_0,guid=abc'),
    'unix:socket=/root/.cache/at-spi/bus_0',
  );
  assert.equal(toDbusNextAddress('unix:abstract=/tmp/dbus-XYZ,guid=1'), 'unix:socket=\u0000/tmp/dbus-XYZ');
  assert.equal(toDbusNextAddress('unix:path=/tmp/a%20b'), 'unix:socket=/tmp/a b');
  assert.equal(toDbusNextAddress('tcp:host=127.0.0.1,port=1234'), 'tcp:host=127.0.0.1,port=1234');
  assert.equal(toDbusNextAddress('nonce-tcp:host=x;unix:path=/run/bus'), 'unix:socket=/run/bus');
  assert.equal(toDbusNextAddress('launchd:env=X'), undefined);
});

test('addresses parse into transports and parameters', () => {
  const [entry] = parseDbusAddress('unix:path=/x,guid=y');
  assert.equal(entry?.transport, 'unix');
  assert.equal(entry?.params.get('guid'), 'y');
});
