import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDbusAddress, unixSocketOf } from '../address.js';

test('the first unix path or abstract entry of an address is the socket to connect to', () => {
  assert.equal(unixSocketOf('unix:path=/root/.cache/at-spi/bus_0,guid=abc'), '/root/.cache/at-spi/bus_0');
  assert.equal(unixSocketOf('unix:abstract=/tmp/dbus-XYZ,guid=1'), '\u0000/tmp/dbus-XYZ');
  assert.equal(unixSocketOf('unix:path=/tmp/a%20b'), '/tmp/a b');
  assert.equal(unixSocketOf('nonce-tcp:host=x;unix:path=/run/bus'), '/run/bus');
  assert.equal(unixSocketOf('tcp:host=127.0.0.1,port=1234'), undefined);
  assert.equal(unixSocketOf('launchd:env=X'), undefined);
});

test('addresses parse into transports and parameters', () => {
  const [entry] = parseDbusAddress('unix:path=/x,guid=y');
  assert.equal(entry?.transport, 'unix');
  assert.equal(entry?.params.get('guid'), 'y');
});
