import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/random.js';
import { MessageType, Variant } from '../message.js';
import { decodeMessage, readBody, readHeader, splitTypes, WireFormatError } from '../reader.js';
import { marshalMessage } from '../writer.js';

function wire(signature: string, body: unknown[], bigEndian = false): Buffer {
  return marshalMessage({
    type: MessageType.METHOD_RETURN,
    serial: 9,
    replySerial: 4,
    destination: ':1.20',
    signature,
    body,
    bigEndian,
  });
}

function read(buffer: Buffer): unknown[] {
  return decodeMessage(buffer).body;
}

const random = seededRandom(20261201);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const text = () => pick(['', 'a', 'Item 12', 'ünïcødé ✓', ':1.3', 'org.a11y.atspi.Accessible', 'x'.repeat(300)]);
const path = () =>
  pick(['/', '/org/a11y/atspi/accessible/root', `/org/a11y/atspi/accessible/${Math.floor(random() * 1e6)}`]);

function value(type: string): unknown {
  switch (type[0]) {
    case 'y':
      return Math.floor(random() * 256);
    case 'b':
      return random() < 0.5;
    case 'n':
      return Math.floor(random() * 65536) - 32768;
    case 'q':
      return Math.floor(random() * 65536);
    case 'i':
      return Math.floor(random() * 2 ** 32) - 2 ** 31;
    case 'u':
      return Math.floor(random() * 2 ** 32);
    case 'x':
      return BigInt(Math.floor(random() * 2 ** 53)) * (random() < 0.5 ? -1n : 1n);
    case 't':
      return BigInt(Math.floor(random() * 2 ** 53)) * 1024n;
    case 'd':
      return pick([0, -1.5, 3.25, 1e300, -0.125]);
    case 's':
      return text();
    case 'o':
      return path();
    case 'g':
      return pick(['', 's', 'a{sv}', '(so)']);
    case 'v': {
      const inner = pick(['s', 'i', 'u', 'as', '(so)', 'a{ss}', 'b', 'd', 'v']);
      return new Variant(inner, value(inner));
    }
    case '(':
      return splitTypes(type.slice(1, -1)).map(value);
    case 'a': {
      const element = type.slice(1);
      const count = Math.floor(random() * 4);
      if (element[0] === '{') {
        const [k, v] = splitTypes(element.slice(1, -1)) as [string, string];
        const out: { [key: string]: unknown } = {};
        for (let i = 0; i < count; i++) out[String(value(k))] = value(v);
        return out;
      }
      if (element === 'y') return Buffer.from(Array.from({ length: count }, () => Math.floor(random() * 256)));
      return Array.from({ length: count }, () => value(element));
    }
  }
  throw new Error(`no generator for ${type}`);
}

const SIGNATURES = [
  'a((so)(so)(so)iiassusau)', // Cache.GetItems
  'a((so)(so)(so)a(so)assusau)', // Cache.GetItems, older signature
  'a((so)a{sv})', // Collection.GetTree
  'a(so)',
  '(iiii)',
  'v',
  'u',
  'i',
  'b',
  'd',
  's',
  'o',
  'as',
  'au',
  'a{ss}',
  'a(sss)',
  'a{sv}',
  'ay',
  'sa{sv}as', // PropertiesChanged
  'siiv(so)', // AT-SPI event signals
  'yqnbg',
  'aay',
  'a{sa{ss}}',
  'xt',
  'a{ia(xt)}',
];

test('what the writer writes reads back value for value, in both byte orders, for the signatures on the bus', () => {
  for (const signature of SIGNATURES) {
    for (let round = 0; round < 40; round++) {
      const body = splitTypes(signature).map(value);
      assert.deepEqual(read(wire(signature, body)), body, signature);
      assert.deepEqual(read(wire(signature, body, true)), body, `${signature} (big endian)`);
    }
  }
});

// Written by GLib's GDBusMessage.to_blob (an independent implementation): a little-endian method call and a
// big-endian signal with a string, a dictionary of variants, a struct, 64-bit integers and bytes.
const GLIB_CALL =
  '6c0100010c0000002a0000008d00000001016f001d0000002f6f72672f613131792f61747370692f61636365737369626c652f313700' +
  '000002017300180000006f72672e613131792e61747370692e436f6d706f6e656e74000000000000000006017300050000003a312e34' +
  '3100000008016700036969750000000000000000030173001400000047657441636365737369626c654174506f696e7400000000fb' +
  'ffffffb004000000000000';
const GLIB_SIGNAL =
  '4204010100000056000000070000005207017300000000043a312e330000000001016f00000000022f6100000000000002017300' +
  '000000076f72672e782e5900080167000f73617b73767d28736f2961787461790000000003017300000000015a00000000000000' +
  '00000005c3bc6ec3af00000000000010000000016b00016900000000fffffffd000000043a312e3300000000000000022f6f0000' +
  '00000010fffffffffffffff70000010000000000ffffffffffffffff000000020102';

test('reads messages GLib wrote, in both byte orders', () => {
  const call = decodeMessage(Buffer.from(GLIB_CALL, 'hex'));
  assert.equal(call.type, MessageType.METHOD_CALL);
  assert.equal(call.serial, 42);
  assert.equal(call.destination, ':1.41');
  assert.equal(call.path, '/org/a11y/atspi/accessible/17');
  assert.equal(call.member, 'GetAccessibleAtPoint');
  assert.deepEqual(call.body, [-5, 1200, 0]);
  const signal = decodeMessage(Buffer.from(GLIB_SIGNAL, 'hex'));
  assert.equal(signal.type, MessageType.SIGNAL);
  assert.equal(signal.sender, ':1.3');
  assert.equal(signal.interface, 'org.x.Y');
  assert.equal(signal.signature, 'sa{sv}(so)axtay');
  assert.deepEqual(signal.body, [
    'ünï',
    { k: new Variant('i', -3) },
    [':1.3', '/o'],
    [-9n, 1n << 40n],
    2n ** 64n - 1n,
    Buffer.from([1, 2]),
  ]);
});

test('reads a Cache.GetItems reply of 10,000 items', () => {
  const items = [];
  for (let i = 0; i < 10_000; i++) {
    items.push([
      [':1.3', `/org/a11y/atspi/accessible/${i}`],
      [':1.3', '/org/a11y/atspi/accessible/root'],
      [':1.3', `/org/a11y/atspi/accessible/${i >> 1}`],
      i % 7,
      3,
      ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Component'],
      `Item ${i} ✓`,
      116,
      '',
      [1090519296, 0],
    ]);
  }
  const buffer = wire('a((so)(so)(so)iiassusau)', [items]);
  const { message } = readHeader(buffer);
  assert.equal(message.replySerial, 4);
  assert.equal(message.type, MessageType.METHOD_RETURN);
  assert.deepEqual(read(buffer), [items]);
});

test('signatures: complete types are split, malformed ones refused', () => {
  assert.deepEqual(splitTypes('a((so)(so)(so)iiassusau)'), ['a((so)(so)(so)iiassusau)']);
  assert.deepEqual(splitTypes('sa{sv}as'), ['s', 'a{sv}', 'as']);
  for (const bad of ['a', '(', '()', '(s', 'a{vs}', 'a{s}', 'a{sss}', 'z', '{ss}']) {
    assert.throws(() => splitTypes(bad), WireFormatError, bad);
  }
  assert.throws(() => splitTypes(`${'a'.repeat(70)}s`), WireFormatError);
});

test('malformed bodies are refused, never read past their end', () => {
  const body = (signature: string, bytes: number[]) => {
    const buffer = Buffer.from(bytes);
    return () => readBody(buffer, 0, buffer.length, signature, 0);
  };
  // A string whose length runs past the end, one without its NUL, one with bytes left over.
  assert.throws(body('s', [10, 0, 0, 0, 0x61, 0]), WireFormatError);
  assert.throws(body('s', [1, 0, 0, 0, 0x61, 0x62]), WireFormatError);
  assert.throws(body('s', [1, 0, 0, 0, 0x61, 0, 7]), WireFormatError);
  assert.deepEqual(body('s', [1, 0, 0, 0, 0x61, 0])(), ['a']);
  // Booleans are 0 or 1.
  assert.throws(body('b', [2, 0, 0, 0]), WireFormatError);
  // An array whose length claims more than there is, or that elements do not fill exactly.
  assert.throws(body('au', [16, 0, 0, 0, 1, 0, 0, 0]), WireFormatError);
  assert.throws(body('au', [6, 0, 0, 0, 1, 0, 0, 0, 2, 0]), WireFormatError);
  assert.throws(body('a{su}', [0xff, 0xff, 0xff, 0x7f]), WireFormatError);
  // Non-zero padding, a variant with two types, truncated values.
  assert.throws(body('yu', [1, 9, 0, 0, 5, 0, 0, 0]), WireFormatError);
  assert.throws(body('v', [2, 0x69, 0x69, 0, 1, 0, 0, 0, 2, 0, 0, 0]), WireFormatError);
  assert.throws(body('(ii)', [1, 0, 0, 0, 2, 0]), WireFormatError);
  assert.throws(body('d', [0, 0, 0]), WireFormatError);
  // 64-bit integers are bigints; a truncated one is refused.
  assert.deepEqual(body('x', [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])(), [-2n]);
  assert.throws(body('t', [0, 0, 0, 0, 0, 0, 0]), WireFormatError);
  // Every truncation of a real reply is refused.
  const buffer = wire('a((so)a{sv})', [[[[':1.3', '/a'], { ChildCount: new Variant('i', 2) }]]]);
  const { bodyStart } = readHeader(buffer);
  for (let end = bodyStart; end < buffer.length; end++) {
    assert.throws(() => readBody(buffer, bodyStart, end, 'a((so)a{sv})', 0), WireFormatError, String(end));
  }
});

test('headers: a message whose length does not match its header, or with no byte order mark, is refused', () => {
  const buffer = wire('s', ['hello']);
  assert.throws(() => readHeader(buffer.subarray(0, buffer.length - 1)), WireFormatError);
  assert.throws(() => readHeader(buffer.subarray(0, 12)), WireFormatError);
  const noMark = Buffer.from(buffer);
  noMark[0] = 0x41;
  assert.throws(() => readHeader(noMark), /byte order mark/);
  const version = Buffer.from(buffer);
  version[3] = 2;
  assert.throws(() => readHeader(version), /protocol version 2/);
  const huge = Buffer.from(buffer);
  huge.writeUInt32LE(0x7fffffff, 4);
  assert.throws(() => readHeader(huge), /longer than the 128 MiB/);
  const { message } = readHeader(buffer);
  assert.equal(message.signature, 's');
  assert.equal(message.destination, ':1.20');
});

test('a message missing a required field, of an unknown type or with a mistyped field is refused', () => {
  const buffer = wire('(iiii)', [[1, -2, 300, 40]]);
  const message = decodeMessage(buffer);
  assert.equal(message.type, MessageType.METHOD_RETURN);
  assert.equal(message.replySerial, 4);
  assert.equal(message.serial, 9);
  assert.equal(message.destination, ':1.20');
  assert.deepEqual(message.body, [[1, -2, 300, 40]]);
  const signal = (fields: { path?: string; interface?: string; member?: string }) =>
    marshalMessage({ type: MessageType.SIGNAL, serial: 3, signature: 's', body: ['x'], ...fields });
  const event = decodeMessage(signal({ path: '/a', interface: 'org.a11y.atspi.Event.Object', member: 'StateChanged' }));
  assert.equal(event.member, 'StateChanged');
  assert.deepEqual(event.body, ['x']);
  // A signal needs its interface; a method return its reply serial.
  assert.throws(() => decodeMessage(signal({ path: '/a', member: 'StateChanged' })), /without its interface/);
  assert.throws(
    () => decodeMessage(marshalMessage({ type: MessageType.METHOD_RETURN, serial: 3 })),
    /without its replySerial/,
  );
  const unknownType = Buffer.from(buffer);
  unknownType[1] = 7;
  assert.throws(() => decodeMessage(unknownType), /unknown message type 7/);
  // The path field (code 1) must be an object path: rewrite its type code from 'o' to 's'.
  const mistyped = Buffer.from(signal({ path: '/a', interface: 'org.a11y.atspi.Event.Object', member: 'M' }));
  const at = mistyped.indexOf(Buffer.from([1, 1, 0x6f, 0]), 16);
  assert.ok(at >= 16);
  mistyped[at + 2] = 0x73;
  assert.throws(() => decodeMessage(mistyped), /header field 1 of the wrong type/);
});

test('short strings read before are read again as they are, whatever else shares their slot', () => {
  // More distinct short strings than slots kept, of every length up to where the lookup stops and past it.
  const texts = Array.from({ length: 20_000 }, (_, i) => `${'abcdefghij'.repeat(5).slice(0, i % 45)}${i}`);
  texts.push(':1.3', ':1.30', 'é', 'x\u0000y'.slice(0, 1), '');
  for (let round = 0; round < 3; round++) {
    const shuffled = texts.map((text, i) => texts[(i * 7919 + round) % texts.length] as string);
    assert.deepEqual(read(wire('as', [shuffled])), [shuffled]);
    assert.deepEqual(read(wire('ag', [['s', 'a{sv}', '(so)', '']])), [['s', 'a{sv}', '(so)', '']]);
  }
});
