import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { marshalMethodCall } from '../fast-marshal.js';

// dbus-next's own parser reads what the fast marshaller writes.
const require = createRequire(import.meta.url);
const DBusBuffer = require('dbus-next/lib/dbus-buffer.js') as new (
  buffer: Buffer,
  offset: number,
  endian: number,
) => { read(signature: string): unknown[]; align(power: number): void };
const headerNames: { [code: number]: string } = {
  1: 'path',
  2: 'interface',
  3: 'member',
  6: 'destination',
  8: 'signature',
};

/** dbus-next's own message parsing (its unmarshall, which cannot read a message without a signature). */
function unmarshall(buffer: Buffer) {
  const reader = new DBusBuffer(buffer, 0, buffer.readUInt8(0));
  const headers = reader.read('yyyyuua(yv)');
  const message: { [key: string]: unknown } = { type: headers[1], serial: headers[5] };
  for (const [code, variant] of headers[6] as Array<[number, [unknown, [string]]]>) {
    message[headerNames[code] ?? String(code)] = variant[1][0];
  }
  reader.align(3);
  const signature = (message.signature as string | undefined) ?? '';
  message.body = signature ? reader.read(signature) : [];
  return message;
}

const base = {
  serial: 42,
  destination: ':1.41',
  path: '/org/a11y/atspi/accessible/17',
  interface: 'org.a11y.atspi.Component',
};

test('method calls round-trip through dbus-next', () => {
  const cases: Array<{ member: string; signature: string; body: unknown[] }> = [
    { member: 'GetExtents', signature: 'u', body: [0] },
    { member: 'GetRole', signature: '', body: [] },
    { member: 'GetAccessibleAtPoint', signature: 'iiu', body: [-5, 1200, 0] },
    { member: 'Get', signature: 'ss', body: ['org.a11y.atspi.Accessible', 'Name ünïcødé'] },
    { member: 'RegisterEvent', signature: 'sass', body: ['object:children-changed', ['a', 'bc', ''], ''] },
    { member: 'X', signature: 'bd', body: [true, 2.5] },
    { member: 'Y', signature: 'as', body: [[]] },
  ];
  for (const c of cases) {
    const buffer = marshalMethodCall({ ...base, ...c });
    assert.ok(buffer, c.member);
    const message = unmarshall(buffer);
    assert.equal(message.type, 1);
    assert.equal(message.serial, 42);
    assert.equal(message.path, base.path);
    assert.equal(message.interface, base.interface);
    assert.equal(message.member, c.member);
    assert.equal(message.destination, base.destination);
    assert.equal(message.signature ?? '', c.signature);
    assert.deepEqual(message.body ?? [], c.body, c.member);
  }
});

test('argument types it does not write are left to the general marshaller', () => {
  assert.equal(marshalMethodCall({ ...base, member: 'Set', signature: 'ssv', body: ['a', 'b', 1] }), undefined);
  assert.equal(
    marshalMethodCall({ ...base, member: 'G', signature: '(aiia{ss}iaiiasib)as', body: [[], []] }),
    undefined,
  );
  assert.equal(marshalMethodCall({ ...base, member: 'U', signature: 'u', body: ['not a number'] }), undefined);
  assert.equal(marshalMethodCall({ ...base, member: 'U', signature: 'uu', body: [1] }), undefined);
});
