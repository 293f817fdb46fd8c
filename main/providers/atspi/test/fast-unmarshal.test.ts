import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import dbusNext from 'dbus-next';
import { seededRandom } from '../../../../shared/random.js';
import {
  decodeMessage,
  fallbackStats,
  readBody,
  readHeader,
  splitTypes,
  useFastReader,
  WireFormatError,
} from '../fast-unmarshal.js';

// dbus-next writes the messages; its own reader is the reference for what this reader must return.
const require = createRequire(import.meta.url);
const messageModule = require('dbus-next/lib/message.js') as {
  unmarshall(buffer: Buffer): { [key: string]: unknown; body: unknown[] };
};
const compat = require('dbus-next/lib/marshall-compat.js') as {
  messageToJsFmt(message: unknown): { body: unknown[] };
  marshallMessage(message: unknown): [Buffer, unknown[]];
};
const { Message, Variant } = dbusNext;

function wire(signature: string, body: unknown[]): Buffer {
  const message = new Message({
    type: dbusNext.MessageType.METHOD_RETURN,
    serial: 9,
    replySerial: 4,
    destination: ':1.20',
    sender: ':1.3',
    signature,
    body,
  } as unknown as ConstructorParameters<typeof Message>[0]);
  return compat.marshallMessage(message)[0];
}

function reference(buffer: Buffer): unknown[] {
  return compat.messageToJsFmt(messageModule.unmarshall(buffer)).body;
}

function fast(buffer: Buffer): unknown[] {
  const { message, bodyStart } = readHeader(buffer);
  return readBody(buffer, bodyStart, buffer.length, String(message.signature ?? ''), 0);
}

/** Variants compared by signature and value, Buffers by bytes. */
function normalize(value: unknown): unknown {
  if (value instanceof Variant) return { variant: value.signature, value: normalize(value.value) };
  if (Buffer.isBuffer(value)) return { bytes: [...value] };
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const out: { [key: string]: unknown } = {};
    for (const [k, v] of Object.entries(value)) out[k] = normalize(v);
    return out;
  }
  return value;
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
];

test('reads what dbus-next reads, value for value, for the signatures on the accessibility bus', () => {
  for (const signature of SIGNATURES) {
    for (let round = 0; round < 40; round++) {
      const body = splitTypes(signature).map(value);
      const buffer = wire(signature, body);
      assert.deepEqual(normalize(fast(buffer)), normalize(reference(buffer)), signature);
    }
  }
});

test('reads a Cache.GetItems reply of 10,000 items exactly as dbus-next does', () => {
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
  assert.equal(message.sender, ':1.3');
  assert.equal(message.type, dbusNext.MessageType.METHOD_RETURN);
  assert.deepEqual(fast(buffer), reference(buffer));
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
  // Types this reader leaves to dbus-next.
  assert.throws(body('x', [0, 0, 0, 0, 0, 0, 0, 0]), WireFormatError);
  assert.throws(body('h', [0, 0, 0, 0]), WireFormatError);
  // Every truncation of a real reply is refused.
  const buffer = wire('a((so)a{sv})', [[[[':1.3', '/a'], { ChildCount: new Variant('i', 2) }]]]);
  const { bodyStart } = readHeader(buffer);
  for (let end = bodyStart; end < buffer.length; end++) {
    assert.throws(() => readBody(buffer, bodyStart, end, 'a((so)a{sv})', 0), WireFormatError, String(end));
  }
});

test('headers: a message whose length does not match its header, or big-endian, is refused', () => {
  const buffer = wire('s', ['hello']);
  assert.throws(() => readHeader(buffer.subarray(0, buffer.length - 1)), WireFormatError);
  assert.throws(() => readHeader(buffer.subarray(0, 12)), WireFormatError);
  const big = Buffer.from(buffer);
  big[0] = 0x42;
  assert.throws(() => readHeader(big), WireFormatError);
  const { message } = readHeader(buffer);
  assert.equal(message.signature, 's');
  assert.equal(message.destination, ':1.20');
});

test('whole messages become dbus-next Messages; a message missing a required field or with a mistyped field is refused', () => {
  const buffer = wire('(iiii)', [[1, -2, 300, 40]]);
  const message = decodeMessage(buffer);
  assert.ok(message instanceof Message);
  assert.equal(message.type, dbusNext.MessageType.METHOD_RETURN);
  assert.equal(message.replySerial, 4);
  assert.equal(message.serial, 9);
  assert.equal(message.sender, ':1.3');
  assert.equal(message.destination, ':1.20');
  assert.deepEqual(message.body, [[1, -2, 300, 40]]);
  const signal = (fields: { [key: string]: unknown }) =>
    compat.marshallMessage({ type: dbusNext.MessageType.SIGNAL, serial: 3, signature: 's', body: ['x'], ...fields })[0];
  const event = decodeMessage(signal({ path: '/a', interface: 'org.a11y.atspi.Event.Object', member: 'StateChanged' }));
  assert.equal(event.member, 'StateChanged');
  assert.deepEqual(event.body, ['x']);
  // A signal needs its interface; a method return its reply serial.
  assert.throws(() => decodeMessage(signal({ path: '/a', member: 'StateChanged' })), WireFormatError);
  const noReply = Buffer.from(buffer);
  noReply[1] = 7; // an unknown message type
  assert.throws(() => decodeMessage(noReply), WireFormatError);
  // The path field (code 1) must be an object path: rewrite its type code from 'o' to 's'.
  const mistyped = Buffer.from(signal({ path: '/a', interface: 'org.a11y.atspi.Event.Object', member: 'M' }));
  const at = mistyped.indexOf(Buffer.from([1, 1, 0x6f, 0]), 16);
  assert.ok(at >= 16);
  mistyped[at + 2] = 0x73;
  assert.throws(() => decodeMessage(mistyped), WireFormatError);
});

test('the message loop: messages split across reads arrive whole and in order; what it leaves goes to dbus-next', async () => {
  const stream = new PassThrough();
  const connection = new EventEmitter();
  assert.equal(useFastReader({ _connection: Object.assign(connection, { stream }) }), true);
  const received: Array<InstanceType<typeof Message>> = [];
  connection.on('message', (message: InstanceType<typeof Message>) => received.push(message));
  const legacy: Array<{ [key: string]: unknown }> = [];
  // dbus-next calls its (now wrapped) parser after the handshake, with its own callback for raw messages.
  const parser = require('dbus-next/lib/message.js') as {
    unmarshalMessages(stream: unknown, onMessage: (m: { [key: string]: unknown }) => void, opts: unknown): void;
  };
  parser.unmarshalMessages(stream, (message) => legacy.push(message), {});
  const before = fallbackStats.messages;
  const first = wire('s', ['first']);
  const big = wire('a(so)', [Array.from({ length: 2000 }, (_, i) => [':1.3', `/org/a11y/atspi/accessible/${i}`])]);
  const int64 = wire('x', [BigInt(-5)]);
  const all = Buffer.concat([first, big, int64, wire('u', [7])]);
  // Written in odd-sized pieces, so headers and bodies are split between reads.
  for (let at = 0; at < all.length; at += 777) stream.write(all.subarray(at, at + 777));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(
    received.map((message) => message.body),
    [['first'], reference(big), [7]],
  );
  // A 64-bit integer is left to dbus-next's reader (in its own raw form, which its callback converts).
  assert.equal(fallbackStats.messages, before + 1);
  assert.equal(legacy.length, 1);
  assert.equal(legacy[0]?.signature, 'x');
  // Other streams keep dbus-next's own parser.
  const other = new PassThrough();
  const otherMessages: unknown[] = [];
  parser.unmarshalMessages(other, (message) => otherMessages.push(message), {});
  other.write(wire('s', ['plain']));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(otherMessages.length, 1);
});
