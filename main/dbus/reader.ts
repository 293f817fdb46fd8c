import { type DbusMessage, MAX_MESSAGE_BYTES, MessageType, Variant, WireFormatError } from './message.js';

/**
 * A strict, bounds-checked D-Bus message reader. Each signature is compiled once into a reader that reads values
 * straight into JavaScript (structs as arrays, `a{..}` as objects, `ay` as a Buffer, `v` as a Variant): a 4.5 MB
 * `Cache.GetItems` reply of 10,000 items or 10,000 small `GetExtents` replies cost less than the application takes
 * to answer. Both byte orders; anything that breaks the wire format throws a WireFormatError naming what is wrong.
 */

export { WireFormatError };

type Reader = (state: ReadState) => unknown;

interface ReadState {
  buffer: Buffer;
  /** Position in `buffer`; alignment is relative to `base` (where the message starts). */
  pos: number;
  base: number;
  end: number;
  depth: number;
  /** Little endian (the byte order of the message). */
  le: boolean;
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
  const value = state.le ? state.buffer.readUInt32LE(state.pos) : state.buffer.readUInt32BE(state.pos);
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
    const value = state.le ? state.buffer.readInt16LE(state.pos) : state.buffer.readInt16BE(state.pos);
    state.pos += 2;
    return value;
  },
  q(state) {
    align(state, 2);
    need(state, 2);
    const value = state.le ? state.buffer.readUInt16LE(state.pos) : state.buffer.readUInt16BE(state.pos);
    state.pos += 2;
    return value;
  },
  i(state) {
    align(state, 4);
    need(state, 4);
    const value = state.le ? state.buffer.readInt32LE(state.pos) : state.buffer.readInt32BE(state.pos);
    state.pos += 4;
    return value;
  },
  u: readUint32,
  x(state) {
    align(state, 8);
    need(state, 8);
    const value = state.le ? state.buffer.readBigInt64LE(state.pos) : state.buffer.readBigInt64BE(state.pos);
    state.pos += 8;
    return value;
  },
  t(state) {
    align(state, 8);
    need(state, 8);
    const value = state.le ? state.buffer.readBigUInt64LE(state.pos) : state.buffer.readBigUInt64BE(state.pos);
    state.pos += 8;
    return value;
  },
  // A file descriptor's index: this connection never negotiates descriptor passing, so none can be attached.
  h: readUint32,
  d(state) {
    align(state, 8);
    need(state, 8);
    const value = state.le ? state.buffer.readDoubleLE(state.pos) : state.buffer.readDoubleBE(state.pos);
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
  if (length === 0) return '';
  if (length <= SHORT_STRING)
    return internedAscii(state.buffer, start, stop) ?? state.buffer.toString('utf8', start, stop);
  return state.buffer.toString('utf8', start, stop);
}

/**
 * Short ASCII strings met before, by a hash of their bytes: bus names, signatures, property, action and attribute
 * names and values repeat in every reply (tens of thousands of replies make a few hundred distinct strings), and
 * are taken from here without a new string. A slot holds the last string met with its hash.
 */
const INTERNED_SLOTS = 4096;
const interned: Array<string | undefined> = new Array<string | undefined>(INTERNED_SLOTS).fill(undefined);

/** The ASCII string of `buffer[start, stop)`; undefined when it is not ASCII. */
function internedAscii(buffer: Buffer, start: number, stop: number): string | undefined {
  let hash = 0x811c9dc5;
  for (let i = start; i < stop; i++) {
    const code = buffer[i] as number;
    if (code >= 0x80) return undefined;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  const slot = (hash ^ (hash >>> 16)) & (INTERNED_SLOTS - 1);
  const known = interned[slot];
  const length = stop - start;
  if (known !== undefined && known.length === length) {
    let i = 0;
    while (i < length && known.charCodeAt(i) === buffer[start + i]) i++;
    if (i === length) return known;
  }
  const text = buffer.toString('latin1', start, stop);
  interned[slot] = text;
  return text;
}

/** Up to this length an ASCII string is looked up among those met before (internedAscii). */
const SHORT_STRING = 40;

function readSignatureValue(state: ReadState): string {
  need(state, 1);
  const length = state.buffer[state.pos] as number;
  const start = state.pos + 1;
  if (start + length + 1 > state.end) fail('signature runs past the end');
  if (state.buffer[start + length] !== 0) fail('signature is not NUL-terminated');
  state.pos = start + length + 1;
  if (length === 0) return '';
  return internedAscii(state.buffer, start, start + length) ?? state.buffer.toString('latin1', start, start + length);
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
        // A copy: the message's bytes are a socket read's buffer, used again for the next read.
        const out = Buffer.from(state.buffer.subarray(state.pos, state.pos + length));
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

/** The alignment of a complete type's values on the wire. */
export function alignmentOf(type: string): number {
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
 * Reads a message body of `signature` from `buffer[start, end)` (alignment relative to `messageStart`; little
 * endian unless `le` is false). Throws WireFormatError unless the body is exactly one well-formed value per type.
 */
export function readBody(
  buffer: Buffer,
  start: number,
  end: number,
  signature: string,
  messageStart: number,
  le = true,
): unknown[] {
  const readers = bodyReaders(signature);
  const state = bodyState;
  state.buffer = buffer;
  state.pos = start;
  state.base = messageStart;
  state.end = end;
  state.depth = 0;
  state.le = le;
  const out = new Array<unknown>(readers.length);
  try {
    for (let i = 0; i < readers.length; i++) out[i] = (readers[i] as Reader)(state);
    if (state.pos !== end) fail('bytes left after the body');
  } finally {
    // The shared state holds no message after the read.
    state.buffer = EMPTY;
  }
  return out;
}

const EMPTY = Buffer.alloc(0);
/** The state of every body read (reads do not nest: a reader never calls out). */
const bodyState: ReadState = { buffer: EMPTY, pos: 0, base: 0, end: 0, depth: 0, le: true };
const bodyReaderLists = new Map<string, readonly Reader[]>();

/** The readers of a body's complete types (made once per signature). */
function bodyReaders(signature: string): readonly Reader[] {
  let readers = bodyReaderLists.get(signature);
  if (!readers) {
    readers = splitTypes(signature).map(compile);
    if (bodyReaderLists.size < 1000) bodyReaderLists.set(signature, readers);
  }
  return readers;
}

// ---------------------------------------------------------------------------------------------------------------
// Whole messages.

/** The type code (o, s, g, u) each known header field has. */
const FIELD_TYPES = [0, 0x6f, 0x73, 0x73, 0x73, 0x75, 0x73, 0x73, 0x67, 0x75];

/** A message's header fields as read (undefined where the message has none); its body is read apart. */
export interface MessageHeader {
  serial: number;
  type: number;
  flags: number;
  path: string | undefined;
  interface: string | undefined;
  member: string | undefined;
  errorName: string | undefined;
  replySerial: number | undefined;
  destination: string | undefined;
  sender: string | undefined;
  signature: string | undefined;
  unixFds: number | undefined;
}

/**
 * The length of the message starting at `buffer[at]` from its fixed 16-byte header, or undefined when fewer than 16
 * bytes are there. Throws WireFormatError when the fixed header is not a D-Bus message header or claims more than
 * the specification allows: the byte stream cannot be read on after that.
 */
export function messageLength(buffer: Buffer, at: number): number | undefined {
  if (buffer.length - at < 16) return undefined;
  const endian = buffer[at];
  if (endian !== 0x6c && endian !== 0x42) fail(`not a D-Bus message (byte order mark 0x${endian?.toString(16)})`);
  if (buffer[at + 3] !== 1) fail(`unknown D-Bus protocol version ${buffer[at + 3]}`);
  const le = endian === 0x6c;
  const bodyLength = le ? buffer.readUInt32LE(at + 4) : buffer.readUInt32BE(at + 4);
  const fieldsLength = le ? buffer.readUInt32LE(at + 12) : buffer.readUInt32BE(at + 12);
  const total = 16 + (((fieldsLength + 7) >>> 3) << 3) + bodyLength;
  if (fieldsLength > MAX_MESSAGE_BYTES || bodyLength > MAX_MESSAGE_BYTES || total > MAX_MESSAGE_BYTES) {
    fail(`message of ${total} bytes is longer than the 128 MiB D-Bus allows`);
  }
  return total;
}

/** Header of one whole message (either byte order): fixed part and fields; throws WireFormatError when malformed. */
export function readHeader(buffer: Buffer): { message: MessageHeader; bodyStart: number; bodyLength: number } {
  const total = messageLength(buffer, 0);
  if (total === undefined) fail('message shorter than its fixed header');
  const le = buffer[0] === 0x6c;
  const bodyLength = le ? buffer.readUInt32LE(4) : buffer.readUInt32BE(4);
  const fieldsLength = le ? buffer.readUInt32LE(12) : buffer.readUInt32BE(12);
  const bodyStart = 16 + (((fieldsLength + 7) >> 3) << 3);
  if (total !== buffer.length) fail('message length does not match its header');
  const end = 16 + fieldsLength;
  const state = headerState;
  state.buffer = buffer;
  state.pos = 16;
  state.end = end;
  state.le = le;
  const serial = le ? buffer.readUInt32LE(8) : buffer.readUInt32BE(8);
  if (serial === 0) fail('message with serial 0');
  const message: MessageHeader = {
    serial,
    type: buffer[1] as number,
    flags: buffer[2] as number,
    path: undefined,
    interface: undefined,
    member: undefined,
    errorName: undefined,
    replySerial: undefined,
    destination: undefined,
    sender: undefined,
    signature: undefined,
    unixFds: undefined,
  };
  try {
    readFields(state, message);
  } finally {
    state.buffer = EMPTY;
  }
  for (let i = end; i < bodyStart; i++) if (buffer[i] !== 0) fail('non-zero padding');
  checkRequiredFields(message);
  if (message.unixFds !== undefined && message.unixFds > 0) fail('message with file descriptors attached');
  if (bodyLength > 0 && !message.signature) fail('message with a body but no signature');
  return { message, bodyStart, bodyLength };
}

/** The state of every header read (reads do not nest). */
const headerState: ReadState = { buffer: EMPTY, pos: 0, base: 0, end: 0, depth: 0, le: true };

/** The fields a(yv), read without the general variant reader: each is a code, a one-type signature and a value. */
function readFields(state: ReadState, message: MessageHeader): void {
  const buffer = state.buffer;
  const end = state.end;
  while (state.pos < end) {
    align(state, 8);
    need(state, 4);
    const code = buffer[state.pos] as number;
    const signatureLength = buffer[state.pos + 1];
    const type = buffer[state.pos + 2];
    if (signatureLength !== 1 || buffer[state.pos + 3] !== 0) fail('header field with a complex type');
    state.pos += 4;
    const expected = FIELD_TYPES[code];
    if (expected !== undefined && expected !== 0 && expected !== type) fail(`header field ${code} of the wrong type`);
    if (type === 0x75) {
      const value = readUint32(state); // u
      if (code === 5) message.replySerial = value;
      else if (code === 9) message.unixFds = value;
      continue;
    }
    let value: string;
    if (type === 0x73 || type === 0x6f)
      value = readString(state); // s, o
    else if (type === 0x67)
      value = readSignatureValue(state); // g
    else fail(`header field ${code} of an unexpected type`);
    switch (code) {
      case 1:
        message.path = value;
        break;
      case 2:
        message.interface = value;
        break;
      case 3:
        message.member = value;
        break;
      case 4:
        message.errorName = value;
        break;
      case 6:
        message.destination = value;
        break;
      case 7:
        message.sender = value;
        break;
      case 8:
        message.signature = value;
        break;
    }
  }
  if (state.pos !== end) fail('header fields do not fill their array');
}

/** The header fields each message type must have (method call, method return, error, signal). */
const REQUIRED_FIELDS: { readonly [type: number]: ReadonlyArray<keyof MessageHeader> } = {
  [MessageType.METHOD_CALL]: ['path', 'member'],
  [MessageType.METHOD_RETURN]: ['replySerial'],
  [MessageType.ERROR]: ['errorName', 'replySerial'],
  [MessageType.SIGNAL]: ['path', 'member', 'interface'],
};

function checkRequiredFields(message: MessageHeader): void {
  const required = REQUIRED_FIELDS[message.type];
  if (!required) fail(`unknown message type ${message.type}`);
  for (const field of required) if (message[field] === undefined) fail(`message without its ${field} field`);
}

/** Reads the body of a message whose header `readHeader` returned. */
export function readMessageBody(buffer: Buffer, header: MessageHeader, bodyStart: number): DbusMessage {
  const signature = header.signature ?? '';
  const body = signature ? readBody(buffer, bodyStart, buffer.length, signature, 0, buffer[0] === 0x6c) : [];
  return {
    type: header.type,
    serial: header.serial,
    flags: header.flags,
    path: header.path,
    interface: header.interface,
    member: header.member,
    errorName: header.errorName,
    replySerial: header.replySerial,
    destination: header.destination,
    sender: header.sender,
    signature,
    body,
  };
}

/** One whole message (either byte order); throws WireFormatError when malformed. */
export function decodeMessage(whole: Buffer): DbusMessage {
  const { message, bodyStart } = readHeader(whole);
  return readMessageBody(whole, message, bodyStart);
}
