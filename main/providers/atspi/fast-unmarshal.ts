import { createRequire } from 'node:module';
import dbusNext from 'dbus-next';

/**
 * A strict, bounds-checked D-Bus message reader for the provider's own connection. dbus-next reads every value into
 * an intermediate form (type trees next to values) and converts that again into JavaScript; for a 4.5 MB
 * `Cache.GetItems` reply of 10,000 items or 10,000 small `GetExtents` replies that costs more than the application
 * takes to answer. This reader compiles each signature once and reads values straight into the form dbus-next gives
 * (structs as arrays, `a{..}` as objects, `ay` as a Buffer, `v` as a Variant), so the rest of the code cannot tell
 * the difference. Anything it does not read (64-bit integers, file descriptors, big-endian bodies) or that breaks the
 * wire format is handed to dbus-next's own reader for that message.
 */

const { Message, Variant } = dbusNext;
type DbusMessage = InstanceType<typeof Message>;

/** Thrown for input that is not a well-formed value of the signature (or a type this reader leaves to dbus-next). */
export class WireFormatError extends Error {}

type Reader = (state: ReadState) => unknown;

interface ReadState {
  buffer: Buffer;
  /** Position in `buffer`; alignment is relative to `base` (where the message starts). */
  pos: number;
  base: number;
  end: number;
  depth: number;
}

const MAX_ARRAY_BYTES = 64 * 1024 * 1024;
/** The specification's limits: 32 nested arrays plus 32 nested structs. */
const MAX_DEPTH = 64;
const MAX_SIGNATURE_LENGTH = 255;

function fail(message: string): never {
  throw new WireFormatError(message);
}

function align(state: ReadState, boundary: number): void {
  const offset = (state.pos - state.base) % boundary;
  if (offset === 0) return;
  const next = state.pos + boundary - offset;
  if (next > state.end) fail('padding runs past the end');
  for (let i = state.pos; i < next; i++) if (state.buffer[i] !== 0) fail('non-zero padding');
  state.pos = next;
}

function need(state: ReadState, bytes: number): void {
  if (state.pos + bytes > state.end) fail('value runs past the end');
}

function readUint32(state: ReadState): number {
  align(state, 4);
  need(state, 4);
  const value = state.buffer.readUInt32LE(state.pos);
  state.pos += 4;
  return value;
}

const readers: { [type: string]: Reader } = {
  y(state) {
    need(state, 1);
    return state.buffer[state.pos++];
  },
  b(state) {
    const value = readUint32(state);
    if (value > 1) fail('boolean is neither 0 nor 1');
    return value === 1;
  },
  n(state) {
    align(state, 2);
    need(state, 2);
    const value = state.buffer.readInt16LE(state.pos);
    state.pos += 2;
    return value;
  },
  q(state) {
    align(state, 2);
    need(state, 2);
    const value = state.buffer.readUInt16LE(state.pos);
    state.pos += 2;
    return value;
  },
  i(state) {
    align(state, 4);
    need(state, 4);
    const value = state.buffer.readInt32LE(state.pos);
    state.pos += 4;
    return value;
  },
  u: readUint32,
  d(state) {
    align(state, 8);
    need(state, 8);
    const value = state.buffer.readDoubleLE(state.pos);
    state.pos += 8;
    return value;
  },
  s: readString,
  o: readString,
  g: readSignatureValue,
  v(state) {
    const signature = readSignatureValue(state);
    let reader = variantReaders.get(signature);
    if (!reader) {
      if (splitTypes(signature).length !== 1) fail('a variant holds exactly one complete type');
      reader = compile(signature);
      if (variantReaders.size < 1000) variantReaders.set(signature, reader);
    }
    if (++state.depth > MAX_DEPTH) fail('nested too deep');
    const value = reader(state);
    state.depth--;
    return new Variant(signature, value);
  },
};

function readString(state: ReadState): string {
  const length = readUint32(state);
  const start = state.pos;
  if (length > state.end - start - 1) fail('string runs past the end');
  const stop = start + length;
  if (state.buffer[stop] !== 0) fail('string is not NUL-terminated');
  state.pos = stop + 1;
  return length === 0 ? '' : state.buffer.toString('utf8', start, stop);
}

function readSignatureValue(state: ReadState): string {
  need(state, 1);
  const length = state.buffer[state.pos] as number;
  const start = state.pos + 1;
  if (start + length + 1 > state.end) fail('signature runs past the end');
  if (state.buffer[start + length] !== 0) fail('signature is not NUL-terminated');
  state.pos = start + length + 1;
  return state.buffer.toString('latin1', start, start + length);
}

/** Splits a signature into its complete types; throws on a malformed one. */
export function splitTypes(signature: string): string[] {
  if (signature.length > MAX_SIGNATURE_LENGTH) fail('signature too long');
  const out: string[] = [];
  let i = 0;
  const one = (depth: number): void => {
    if (depth > MAX_DEPTH) fail('signature nested too deep');
    const c = signature[i++];
    if (c === undefined) fail('signature ends inside a type');
    if ('ybnqiuxtdsogvh'.includes(c)) return;
    if (c === 'a') {
      if (signature[i] === '{') {
        i++;
        const key = signature[i];
        if (key === undefined || !'ybnqiuxtdsog'.includes(key)) fail('dict key is not a basic type');
        i++;
        one(depth + 1);
        if (signature[i++] !== '}') fail('dict entry holds exactly two types');
        return;
      }
      one(depth + 1);
      return;
    }
    if (c === '(') {
      if (signature[i] === ')') fail('empty struct');
      while (signature[i] !== ')') {
        if (i >= signature.length) fail('struct not closed');
        one(depth + 1);
      }
      i++;
      return;
    }
    fail(`unknown type code "${c}"`);
  };
  while (i < signature.length) {
    const start = i;
    one(0);
    out.push(signature.slice(start, i));
  }
  return out;
}

const compiled = new Map<string, Reader>();
/** Readers of variant contents, by signature, once the signature was checked to be one complete type. */
const variantReaders = new Map<string, Reader>();

/** The reader of one complete type (cached per signature). */
function compile(type: string): Reader {
  let reader = compiled.get(type);
  if (reader) return reader;
  reader = build(type);
  if (compiled.size < 1000) compiled.set(type, reader);
  return reader;
}

function build(type: string): Reader {
  const c = type[0] as string;
  const simple = readers[c];
  if (simple && type.length === 1) return simple;
  if (c === 'x' || c === 't' || c === 'h') fail(`type "${c}" is left to dbus-next`);
  if (c === '(') {
    const fields = splitTypes(type.slice(1, -1)).map(compile);
    return (state) => {
      align(state, 8);
      if (++state.depth > MAX_DEPTH) fail('nested too deep');
      const out: unknown[] = new Array(fields.length);
      for (let i = 0; i < fields.length; i++) out[i] = (fields[i] as Reader)(state);
      state.depth--;
      return out;
    };
  }
  if (c === 'a') {
    const element = type.slice(1);
    if (element[0] === '{') {
      const [keyType, valueType] = splitTypes(element.slice(1, -1)) as [string, string];
      const key = compile(keyType);
      const value = compile(valueType);
      return (state) => {
        const end = arrayEnd(state, 8);
        const out: { [key: string]: unknown } = {};
        while (state.pos < end) {
          align(state, 8);
          const k = key(state);
          out[String(k)] = value(state);
        }
        finishArray(state, end);
        return out;
      };
    }
    if (element === 'y') {
      return (state) => {
        const length = readUint32(state);
        if (length > MAX_ARRAY_BYTES || length > state.end - state.pos) fail('array runs past the end');
        const out = state.buffer.subarray(state.pos, state.pos + length);
        state.pos += length;
        return out;
      };
    }
    const item = compile(element);
    const itemAlign = alignmentOf(element);
    return (state) => {
      const end = arrayEnd(state, itemAlign);
      const out: unknown[] = [];
      while (state.pos < end) out.push(item(state));
      finishArray(state, end);
      return out;
    };
  }
  fail(`unknown type "${type}"`);
}

function alignmentOf(type: string): number {
  switch (type[0]) {
    case 'y':
    case 'g':
    case 'v':
      return 1;
    case 'n':
    case 'q':
      return 2;
    case 'x':
    case 't':
    case 'd':
    case '(':
    case '{':
      return 8;
    default:
      return 4;
  }
}

/** Reads an array's byte length, aligns to its first element and returns where the array ends. */
function arrayEnd(state: ReadState, itemAlign: number): number {
  const length = readUint32(state);
  if (length > MAX_ARRAY_BYTES) fail('array longer than 64 MiB');
  align(state, itemAlign);
  const end = state.pos + length;
  if (end > state.end) fail('array runs past the end');
  if (++state.depth > MAX_DEPTH) fail('nested too deep');
  return end;
}

function finishArray(state: ReadState, end: number): void {
  if (state.pos !== end) fail('array elements do not fill the array');
  state.depth--;
}

/**
 * Reads a message body of `signature` from `buffer[start, end)` (little endian; alignment relative to
 * `messageStart`). Throws WireFormatError unless the body is exactly one well-formed value per type.
 */
export function readBody(
  buffer: Buffer,
  start: number,
  end: number,
  signature: string,
  messageStart: number,
): unknown[] {
  const state: ReadState = { buffer, pos: start, base: messageStart, end, depth: 0 };
  const out: unknown[] = [];
  for (const type of splitTypes(signature)) out.push(compile(type)(state));
  if (state.pos !== end) fail('bytes left after the body');
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The message loop for the provider's connection.

const HEADER_NAMES = [
  undefined,
  'path',
  'interface',
  'member',
  'errorName',
  'replySerial',
  'destination',
  'sender',
  'signature',
  'unixFd',
] as const;

interface RawMessage {
  [key: string]: unknown;
  serial: number;
  type: number;
  flags: number;
}

/** Header of a little-endian message: fixed part and fields; throws WireFormatError when malformed. */
export function readHeader(buffer: Buffer): { message: RawMessage; bodyStart: number; bodyLength: number } {
  if (buffer.length < 16) fail('message shorter than its fixed header');
  if (buffer[0] !== 0x6c) fail('not a little-endian message');
  if (buffer[3] !== 1) fail('unknown protocol version');
  const bodyLength = buffer.readUInt32LE(4);
  const fieldsLength = buffer.readUInt32LE(12);
  const bodyStart = 16 + (((fieldsLength + 7) >> 3) << 3);
  if (bodyStart + bodyLength !== buffer.length) fail('message length does not match its header');
  const end = 16 + fieldsLength;
  if (end > buffer.length) fail('header fields run past the end');
  const state: ReadState = { buffer, pos: 16, base: 0, end, depth: 0 };
  const message: RawMessage = { serial: buffer.readUInt32LE(8), type: buffer[1] as number, flags: buffer[2] as number };
  // The fields a(yv), read without the general variant reader: each is a code, a one-type signature and a value.
  while (state.pos < end) {
    align(state, 8);
    need(state, 4);
    const code = buffer[state.pos] as number;
    const signatureLength = buffer[state.pos + 1];
    const type = buffer[state.pos + 2];
    if (signatureLength !== 1 || buffer[state.pos + 3] !== 0) fail('header field with a complex type');
    state.pos += 4;
    const expected = FIELD_TYPES[code];
    if (expected !== undefined && expected !== 0 && expected !== type) fail('header field of the wrong type');
    let value: unknown;
    if (type === 0x73 || type === 0x6f)
      value = readString(state); // s, o
    else if (type === 0x67)
      value = readSignatureValue(state); // g
    else if (type === 0x75)
      value = readUint32(state); // u
    else fail('header field of an unexpected type');
    const name = HEADER_NAMES[code];
    if (name) message[name] = value;
  }
  if (state.pos !== end) fail('header fields do not fill their array');
  for (let i = 16 + fieldsLength; i < bodyStart; i++) if (buffer[i] !== 0) fail('non-zero padding');
  return { message, bodyStart, bodyLength };
}

/**
 * A received message as a dbus-next Message, without the name checks its constructor runs for messages about to be
 * sent (the bus daemon checked the names of what it delivers; tens of thousands of replies pay for nothing).
 */
function incoming(raw: RawMessage): DbusMessage {
  const required = REQUIRED_FIELDS[raw.type];
  if (!required) fail('unknown message type');
  for (const field of required) if (raw[field] === undefined) fail(`message without its ${field}`);
  const message = Object.create(Message.prototype) as { [key: string]: unknown };
  message.type = raw.type;
  message._sent = false;
  message._serial = raw.serial;
  message.path = raw.path;
  message.interface = raw.interface;
  message.member = raw.member;
  message.errorName = raw.errorName;
  message.replySerial = raw.replySerial;
  message.destination = raw.destination;
  message.sender = raw.sender;
  message.signature = (raw.signature as string) || '';
  message.body = (raw.body as unknown[]) ?? [];
  message.flags = raw.flags || 0;
  return message as unknown as DbusMessage;
}

/** The header fields each message type must have (method call, method return, error, signal). */
const REQUIRED_FIELDS: { [type: number]: readonly string[] } = {
  1: ['path', 'member'],
  2: ['replySerial'],
  3: ['errorName', 'replySerial'],
  4: ['path', 'member', 'interface'],
};

/** The type code (s, o, g, u) each known header field has. */
const FIELD_TYPES = [0, 0x6f, 0x73, 0x73, 0x73, 0x75, 0x73, 0x73, 0x67, 0x75];

interface Connection {
  emit(event: string, ...args: unknown[]): boolean;
}

interface Stream {
  on(event: 'readable', listener: () => void): void;
  read(size: number): Buffer | null;
}

type Parser = (stream: Stream, onMessage: (message: unknown) => void, opts: unknown) => void;

const requireCjs = createRequire(import.meta.url);
const messageModule = requireCjs('dbus-next/lib/message.js') as { unmarshalMessages: Parser };
const DBusBuffer = requireCjs('dbus-next/lib/dbus-buffer.js') as new (
  buffer: Buffer,
  start: number,
  endian: number,
  fds: unknown,
  opts: unknown,
) => { read(signature: string): unknown[] };
const originalParser = messageModule.unmarshalMessages;
const fastStreams = new WeakMap<object, Connection>();
let installed = false;

/** Messages this reader handed to dbus-next's reader (a type it leaves to it, or a malformed body), for tests. */
export const fallbackStats = { messages: 0 };

/**
 * Reads the messages of `connection`'s stream with this reader. Must be called right after the bus is created
 * (before its handshake completes); other dbus-next connections are untouched.
 */
export function useFastReader(bus: unknown): boolean {
  const connection = (bus as { _connection?: Connection & { stream?: object } })._connection;
  if (!connection?.stream) return false;
  if (!installed) {
    installed = true;
    messageModule.unmarshalMessages = function (stream, onMessage, opts) {
      const target = fastStreams.get(stream);
      if (!target) return originalParser(stream, onMessage, opts);
      return fastParser(stream, target, onMessage, opts);
    };
  }
  fastStreams.set(connection.stream, connection);
  return true;
}

function fastParser(stream: Stream, connection: Connection, onMessage: (m: unknown) => void, opts: unknown): void {
  let header: Buffer | null = null;
  let rest = 0;
  stream.on('readable', () => {
    for (;;) {
      if (!header) {
        header = stream.read(16);
        if (!header) return;
        const fieldsLength = header[0] === 0x6c ? header.readUInt32LE(12) : header.readUInt32BE(12);
        const bodyLength = header[0] === 0x6c ? header.readUInt32LE(4) : header.readUInt32BE(4);
        rest = (((fieldsLength + 7) >> 3) << 3) + bodyLength;
      }
      const tail = rest > 0 ? stream.read(rest) : Buffer.alloc(0);
      if (!tail) return;
      const whole = Buffer.concat([header, tail]);
      header = null;
      deliver(whole, connection, onMessage, opts);
    }
  });
}

/** One whole little-endian message as dbus-next's Message; throws WireFormatError when malformed. */
export function decodeMessage(whole: Buffer): DbusMessage {
  const { message: raw, bodyStart } = readHeader(whole);
  const signature = typeof raw.signature === 'string' ? raw.signature : '';
  raw.body = signature ? readBody(whole, bodyStart, whole.length, signature, 0) : [];
  raw.signature = signature;
  return incoming(raw);
}

function deliver(whole: Buffer, connection: Connection, onMessage: (m: unknown) => void, opts: unknown): void {
  let message: DbusMessage | undefined;
  try {
    message = decodeMessage(whole);
  } catch (error) {
    if (!(error instanceof WireFormatError)) throw error;
  }
  if (message) {
    connection.emit('message', message);
    return;
  }
  // dbus-next's own reader for what this one leaves to it (it reports what it cannot read itself).
  fallbackStats.messages++;
  legacyDeliver(whole, onMessage, opts);
}

function legacyDeliver(whole: Buffer, onMessage: (m: unknown) => void, opts: unknown): void {
  const endian = whole[0] as number;
  const le = endian === 0x6c;
  const fieldsLength = le ? whole.readUInt32LE(12) : whole.readUInt32BE(12);
  const bodyLength = le ? whole.readUInt32LE(4) : whole.readUInt32BE(4);
  const fieldsAndBody = whole.subarray(16);
  const reader = new DBusBuffer(fieldsAndBody, 0, endian, undefined, opts) as unknown as {
    readArray(type: unknown, length: number): Array<[number, [unknown, [unknown]]]>;
    align(power: number): void;
    read(signature: string): unknown[];
  };
  const headerSignature = requireCjs('dbus-next/lib/header-signature.json') as Array<{ child: unknown[] }>;
  const fields = reader.readArray((headerSignature[0] as { child: unknown[] }).child[0], fieldsLength);
  reader.align(3);
  const message: RawMessage = {
    serial: le ? whole.readUInt32LE(8) : whole.readUInt32BE(8),
    type: whole[1] as number,
    flags: whole[2] as number,
  };
  for (const [code, variant] of fields) {
    const name = HEADER_NAMES[code];
    if (name) message[name] = variant[1][0];
  }
  if (bodyLength > 0 && typeof message.signature === 'string') message.body = reader.read(message.signature);
  onMessage(message);
}
