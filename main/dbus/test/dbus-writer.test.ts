import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MessageType, Variant, WireFormatError } from '../message.js';
import { decodeMessage } from '../reader.js';
import { seededRandom } from '../../../shared/random.js';
import { CallBatch, marshalMethodCall, type MethodCall } from '../writer.js';

const base = {
  serial: 42,
  destination: ':1.41',
  path: '/org/a11y/atspi/accessible/17',
  interface: 'org.a11y.atspi.Component',
};

test('method calls carry their header fields and arguments', () => {
  const cases: Array<{ member: string; signature: string; body: unknown[] }> = [
    { member: 'GetExtents', signature: 'u', body: [0] },
    { member: 'GetRole', signature: '', body: [] },
    { member: 'GetAccessibleAtPoint', signature: 'iiu', body: [-5, 1200, 0] },
    { member: 'Get', signature: 'ss', body: ['org.a11y.atspi.Accessible', 'Name ünïcødé'] },
    { member: 'RegisterEvent', signature: 'sass', body: ['object:children-changed', ['a', 'bc', ''], ''] },
    { member: 'Set', signature: 'ssv', body: ['org.a11y.atspi.Value', 'CurrentValue', new Variant('d', 2.5)] },
    { member: 'X', signature: 'bdy', body: [true, 2.5, 255] },
    { member: 'Y', signature: 'asa{sv}', body: [[], { a: new Variant('as', ['x']) }] },
    // 8-aligned values in the body (its alignment counts from the message's start) after a non-ASCII string.
    {
      member: 'Z',
      signature: 'sxt(aiia{ss}iaiiasib)as',
      body: ['é', -3n, 2n ** 40n, [[1], 2, { k: 'v' }, 0, [], 0, [], 0, false], ['ChildCount']],
    },
    { member: 'GetText', signature: 'ii', body: [0, -1] },
  ];
  // Header strings of any length: short ASCII ones, a non-ASCII path-free name, a long one.
  for (const path of ['/a', '/org/a11y/atspi/accessible/' + 'x'.repeat(300)]) {
    for (const destination of [':1.41', 'org.ünïcødé.App']) {
      const message = decodeMessage(
        marshalMethodCall({ ...base, path, destination, member: 'M', signature: 'd', body: [1.5] }),
      );
      assert.equal(message.path, path);
      assert.equal(message.destination, destination);
      assert.deepEqual(message.body, [1.5]);
    }
  }
  for (const c of cases) {
    const message = decodeMessage(marshalMethodCall({ ...base, ...c }));
    assert.equal(message.type, MessageType.METHOD_CALL);
    assert.equal(message.serial, 42);
    assert.equal(message.path, base.path);
    assert.equal(message.interface, base.interface);
    assert.equal(message.member, c.member);
    assert.equal(message.destination, base.destination);
    assert.equal(message.signature, c.signature);
    assert.deepEqual(message.body, c.body, c.member);
  }
});

test('a value that does not fit its signature is refused, naming the argument and type', () => {
  const call = (signature: string, body: unknown[]) => () =>
    marshalMethodCall({ ...base, member: 'M', signature, body });
  assert.throws(call('u', ['not a number']), /argument 0: a value of type "u" cannot be written from string/);
  assert.throws(call('uu', [1]), /has 2 types but the body 1 values/);
  assert.throws(call('i', [2 ** 31]), WireFormatError);
  assert.throws(call('y', [1.5]), WireFormatError);
  assert.throws(call('s', ['a\u0000b']), WireFormatError);
  assert.throws(call('(ii)', [[1]]), /argument 0: a value of type "\(ii\)"/);
  assert.throws(call('as', [['a', 2]]), /argument 0\[1\]: a value of type "s"/);
  assert.throws(call('v', [1]), /argument 0: a value of type "v" cannot be written from number/);
  assert.throws(call('v', [new Variant('ss', 'a')]), /exactly one complete type/);
  assert.throws(call('z', [1]), /unknown type code "z"/);
});

test('a batch of calls holds the bytes marshalMethodCall writes for each, in order, across its pools', () => {
  const random = seededRandom(20261206);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const shapes: Array<Pick<MethodCall, 'interface' | 'member' | 'signature' | 'body'>> = [
    { interface: 'org.a11y.atspi.Component', member: 'GetExtents', signature: 'u', body: [0] },
    { interface: 'org.a11y.atspi.Accessible', member: 'GetRelationSet' },
    { interface: 'org.a11y.atspi.Accessible', member: 'GetRelationSet', signature: '', body: [] },
    { interface: 'org.a11y.atspi.Text', member: 'GetText', signature: 'ii', body: [0, -1] },
    { interface: 'org.a11y.atspi.Text', member: 'GetAttributeRun', signature: 'ib', body: [3, true] },
    { interface: 'org.freedesktop.DBus.Properties', member: 'GetAll', signature: 's', body: ['org.a11y.atspi.Text'] },
    { interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: ['ä', 'Name'] },
    { interface: 'org.a11y.atspi.Value', member: 'Set', signature: 'ssv', body: ['a', 'b', new Variant('d', 2.5)] },
    { interface: 'org.a11y.atspi.Collection', member: 'GetTree', signature: '(aiia{ss}iaiiasib)as' },
    { interface: 'x.ünïcødé', member: 'M', signature: 'sxt', body: ['é', -3n, 2n ** 40n] },
    { interface: 'x.Big', member: 'Big', signature: 'ay', body: [Buffer.alloc(300_000, 7)] },
  ];
  shapes[8]!.body = [
    [[1], 2, { k: 'v' }, 0, [], 0, [], 0, false],
    ['ChildCount', 'Name'],
  ];
  const destinations = [':1.3', ':1.52', 'org.a11y.atspi.Registry', 'org.ünïcødé'];
  const paths = ['/', '/org/a11y/atspi/accessible/root', '/org/a11y/atspi/accessible/12345', `/p/${'x'.repeat(400)}`];
  const batch = new CallBatch();
  assert.equal(batch.take(), undefined);
  let serial = 1;
  for (let round = 0; round < 40; round++) {
    const expected: Buffer[] = [];
    const count = Math.floor(random() * 200);
    for (let i = 0; i < count; i++) {
      const shape = i === 5 && round % 10 === 0 ? shapes[10]! : pick(shapes.slice(0, 10));
      const call: MethodCall = { serial: serial++, destination: pick(destinations), path: pick(paths), ...shape };
      if (random() < 0.05) call.flags = 1;
      expected.push(marshalMethodCall(call));
      const { serial: own, ...fields } = call;
      batch.add(own, fields);
      // A call whose body does not fit adds nothing.
      if (random() < 0.05) {
        assert.throws(() => batch.add(serial, { ...fields, signature: 'u', body: ['x'] }), WireFormatError);
        assert.throws(() => batch.add(serial, { ...fields, signature: 'uu', body: [1] }), /2 types but the body 1/);
      }
    }
    const taken = batch.take();
    if (count === 0) assert.equal(taken, undefined);
    else assert.ok(taken?.equals(Buffer.concat(expected)), `round ${round}`);
  }
});
