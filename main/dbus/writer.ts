import { MessageType, Variant, WireFormatError } from './message.js';
import { alignmentOf, splitTypes } from './reader.js';

/**
 * The D-Bus wire format writer of the provider's connection: method calls by the thousand (GetExtents, GetRole,
 * Properties.Get ...) and the few replies it owes the bus. Values are given in the form the reader returns
 * (structs as arrays, `a{..}` as objects, `ay` as a Buffer, `v` as a Variant). A value that does not fit its
 * signature throws a WireFormatError naming the type and where.
 */

const FIELD_PATH = 1;
const FIELD_INTERFACE = 2;
const FIELD_MEMBER = 3;
const FIELD_ERROR_NAME = 4;
const FIELD_REPLY_SERIAL = 5;
const FIELD_DESTINATION = 6;
const FIELD_SENDER = 7;
const FIELD_SIGNATURE = 8;

class Writer {
  buffer: Buffer;
  offset = 0;
  /** Where the message being written starts: alignment counts from there. */
  base = 0;

  constructor(
    size: number,
    readonly le: boolean,
  ) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  ensure(extra: number): void {
    if (this.offset + extra <= this.buffer.length) return;
    // Everything written keeps its place (lengths are patched in later by position).
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + extra));
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }

  align(boundary: number): void {
    const padding = (boundary - ((this.offset - this.base) % boundary)) % boundary;
    if (padding === 0) return;
    this.ensure(padding);
    // At most 7 bytes: a loop costs less than Buffer.fill's checks.
    for (let i = 0; i < padding; i++) this.buffer[this.offset++] = 0;
  }

  byte(value: number): void {
    this.ensure(1);
    this.buffer[this.offset++] = value;
  }

  int16(value: number, signed: boolean): void {
    this.align(2);
    this.ensure(2);
    if (signed)
      this.offset = this.le
        ? this.buffer.writeInt16LE(value, this.offset)
        : this.buffer.writeInt16BE(value, this.offset);
    else
      this.offset = this.le
        ? this.buffer.writeUInt16LE(value, this.offset)
        : this.buffer.writeUInt16BE(value, this.offset);
  }

  uint32(value: number): void {
    this.align(4);
    this.ensure(4);
    this.offset = this.le
      ? this.buffer.writeUInt32LE(value >>> 0, this.offset)
      : this.buffer.writeUInt32BE(value >>> 0, this.offset);
  }

  int32(value: number): void {
    this.align(4);
    this.ensure(4);
    this.offset = this.le
      ? this.buffer.writeInt32LE(value | 0, this.offset)
      : this.buffer.writeInt32BE(value | 0, this.offset);
  }

  int64(value: bigint, signed: boolean): void {
    this.align(8);
    this.ensure(8);
    if (signed)
      this.offset = this.le
        ? this.buffer.writeBigInt64LE(value, this.offset)
        : this.buffer.writeBigInt64BE(value, this.offset);
    else
      this.offset = this.le
        ? this.buffer.writeBigUInt64LE(value, this.offset)
        : this.buffer.writeBigUInt64BE(value, this.offset);
  }

  double(value: number): void {
    this.align(8);
    this.ensure(8);
    this.offset = this.le
      ? this.buffer.writeDoubleLE(value, this.offset)
      : this.buffer.writeDoubleBE(value, this.offset);
  }

  string(value: string): void {
    // Short ASCII strings (object paths, names: tens of thousands per snapshot) are copied byte by byte, without
    // Buffer's encoding calls; anything else is encoded as UTF-8 below.
    if (value.length < 256) {
      this.uint32(value.length);
      this.ensure(value.length + 1);
      const buffer = this.buffer;
      let at = this.offset;
      let i = 0;
      for (; i < value.length; i++) {
        const code = value.charCodeAt(i);
        if (code >= 0x80) break;
        buffer[at++] = code;
      }
      if (i === value.length) {
        buffer[at++] = 0;
        this.offset = at;
        return;
      }
      // Not ASCII: the length written is taken back (its alignment stays right) and written again below.
      this.offset -= 4;
    }
    const length = Buffer.byteLength(value, 'utf8');
    this.uint32(length);
    this.ensure(length + 1);
    this.buffer.write(value, this.offset, 'utf8');
    this.offset += length;
    this.buffer[this.offset++] = 0;
  }

  signature(value: string): void {
    this.ensure(value.length + 2);
    const buffer = this.buffer;
    buffer[this.offset++] = value.length;
    // Type codes are ASCII.
    for (let i = 0; i < value.length; i++) buffer[this.offset++] = value.charCodeAt(i);
    buffer[this.offset++] = 0;
  }

  /** Writes an array: its length (patched afterwards), the padding to its first element, then `items`. */
  array(itemAlign: number, items: () => void): void {
    this.uint32(0);
    const lengthAt = this.offset - 4;
    this.align(itemAlign);
    const start = this.offset;
    items();
    const length = this.offset - start;
    if (this.le) this.buffer.writeUInt32LE(length, lengthAt);
    else this.buffer.writeUInt32BE(length, lengthAt);
  }
}

function wrong(type: string, value: unknown, where: string): never {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  throw new WireFormatError(`${where}: a value of type "${type}" cannot be written from ${got}`);
}

function isInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

const MAX_DEPTH = 64;
const typeLists = new Map<string, readonly string[]>();

/** The complete types of a signature, split once per signature. */
function typesOf(signature: string): readonly string[] {
  let types = typeLists.get(signature);
  if (!types) {
    types = splitTypes(signature);
    if (typeLists.size < 1000) typeLists.set(signature, types);
  }
  return types;
}

function writeValue(writer: Writer, type: string, value: unknown, where: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new WireFormatError(`${where}: nested too deep`);
  switch (type[0]) {
    case 'y':
      if (!isInteger(value, 0, 255)) wrong(type, value, where);
      writer.byte(value);
      return;
    case 'b':
      if (typeof value !== 'boolean') wrong(type, value, where);
      writer.uint32(value ? 1 : 0);
      return;
    case 'n':
      if (!isInteger(value, -0x8000, 0x7fff)) wrong(type, value, where);
      writer.int16(value, true);
      return;
    case 'q':
      if (!isInteger(value, 0, 0xffff)) wrong(type, value, where);
      writer.int16(value, false);
      return;
    case 'i':
      if (!isInteger(value, -0x80000000, 0x7fffffff)) wrong(type, value, where);
      writer.int32(value);
      return;
    case 'u':
    case 'h':
      if (!isInteger(value, 0, 0xffffffff)) wrong(type, value, where);
      writer.uint32(value);
      return;
    case 'x':
    case 't': {
      const big = typeof value === 'bigint' ? value : isInteger(value, -(2 ** 53), 2 ** 53) ? BigInt(value) : undefined;
      if (big === undefined) wrong(type, value, where);
      const signed = type === 'x';
      if (signed ? big < -(2n ** 63n) || big >= 2n ** 63n : big < 0n || big >= 2n ** 64n) wrong(type, value, where);
      writer.int64(big, signed);
      return;
    }
    case 'd':
      if (typeof value !== 'number') wrong(type, value, where);
      writer.double(value);
      return;
    case 's':
    case 'o':
      if (typeof value !== 'string' || value.includes('\u0000')) wrong(type, value, where);
      writer.string(value);
      return;
    case 'g':
      if (typeof value !== 'string') wrong(type, value, where);
      splitTypes(value);
      writer.signature(value);
      return;
    case 'v': {
      if (!(value instanceof Variant)) wrong(type, value, where);
      if (typesOf(value.signature).length !== 1)
        throw new WireFormatError(`${where}: a variant holds exactly one complete type`);
      writer.signature(value.signature);
      writeValue(writer, value.signature, value.value, `${where} (variant)`, depth + 1);
      return;
    }
    case '(': {
      const fields = typesOf(type.slice(1, -1));
      if (!Array.isArray(value) || value.length !== fields.length) wrong(type, value, where);
      writer.align(8);
      for (let i = 0; i < fields.length; i++) {
        writeValue(writer, fields[i] as string, value[i], `${where}[${i}]`, depth + 1);
      }
      return;
    }
    case 'a': {
      const element = type.slice(1);
      if (element === 'y' && Buffer.isBuffer(value)) {
        writer.array(1, () => {
          writer.ensure(value.length);
          value.copy(writer.buffer, writer.offset);
          writer.offset += value.length;
        });
        return;
      }
      if (element[0] === '{') {
        const [keyType, valueType] = typesOf(element.slice(1, -1)) as [string, string];
        if (!value || typeof value !== 'object' || Array.isArray(value)) wrong(type, value, where);
        const numericKey = 'ybnqiuxtdh'.includes(keyType);
        writer.array(8, () => {
          for (const [key, item] of Object.entries(value)) {
            writer.align(8);
            const keyValue = numericKey ? Number(key) : keyType === 'b' ? key === 'true' : key;
            writeValue(writer, keyType, keyValue, `${where} key ${JSON.stringify(key)}`, depth + 1);
            writeValue(writer, valueType, item, `${where}[${JSON.stringify(key)}]`, depth + 1);
          }
        });
        return;
      }
      if (!Array.isArray(value)) wrong(type, value, where);
      writer.array(alignmentOf(element), () => {
        for (let i = 0; i < value.length; i++) writeValue(writer, element, value[i], `${where}[${i}]`, depth + 1);
      });
      return;
    }
  }
  throw new WireFormatError(`${where}: unknown type "${type}"`);
}

export interface OutgoingMessage {
  type: number;
  serial: number;
  flags?: number;
  destination?: string;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  /** Set by the bus on what it delivers (written here for tests that play the bus). */
  sender?: string;
  signature?: string;
  body?: readonly unknown[];
  /** Big endian (for tests of the reader; the provider writes little endian). */
  bigEndian?: boolean;
}

/** The wire form of one message; throws WireFormatError when the body does not fit its signature. */
export function marshalMessage(message: OutgoingMessage): Buffer {
  return encode(message.type, message);
}

const NO_TYPES: readonly string[] = [];

/**
 * Header and body written in one pass into one buffer (the body starts 8-aligned, so its alignment is the same as
 * written on its own); the body length is patched in afterwards.
 */
function encode(type: number, message: Omit<OutgoingMessage, 'type'>): Buffer {
  const signature = message.signature ?? '';
  const body = message.body ?? [];
  const types = signature ? typesOf(signature) : NO_TYPES;
  if (types.length !== body.length) {
    throw new WireFormatError(`signature "${signature}" has ${types.length} types but the body ${body.length} values`);
  }
  const le = !message.bigEndian;
  const writer = new Writer(256, le);
  writer.byte(le ? 0x6c : 0x42);
  writer.byte(type);
  writer.byte(message.flags ?? 0);
  writer.byte(1); // protocol version
  writer.uint32(0); // body length, patched below
  writer.uint32(message.serial);
  writer.uint32(0); // header fields array length, patched below
  const fieldsStart = writer.offset; // 16: already 8-aligned
  field(writer, FIELD_PATH, 'o', message.path);
  field(writer, FIELD_INTERFACE, 's', message.interface);
  field(writer, FIELD_MEMBER, 's', message.member);
  field(writer, FIELD_ERROR_NAME, 's', message.errorName);
  field(writer, FIELD_REPLY_SERIAL, 'u', message.replySerial);
  field(writer, FIELD_DESTINATION, 's', message.destination);
  field(writer, FIELD_SENDER, 's', message.sender);
  if (signature) field(writer, FIELD_SIGNATURE, 'g', signature);
  const fieldsLength = writer.offset - fieldsStart;
  writer.align(8);
  const bodyStart = writer.offset;
  for (let i = 0; i < types.length; i++) writeValue(writer, types[i] as string, body[i], `argument ${i}`, 0);
  const bodyLength = writer.offset - bodyStart;
  if (le) {
    writer.buffer.writeUInt32LE(bodyLength, 4);
    writer.buffer.writeUInt32LE(fieldsLength, 12);
  } else {
    writer.buffer.writeUInt32BE(bodyLength, 4);
    writer.buffer.writeUInt32BE(fieldsLength, 12);
  }
  return writer.buffer.subarray(0, writer.offset);
}

function field(writer: Writer, code: number, type: 'o' | 's' | 'g' | 'u', value: string | number | undefined): void {
  if (value === undefined) return;
  writer.align(8);
  writer.byte(code);
  writer.signature(type);
  if (type === 'u') writer.uint32(value as number);
  else if (type === 'g') writer.signature(value as string);
  else writer.string(value as string);
}

export interface MethodCall {
  serial: number;
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: readonly unknown[];
  flags?: number;
}

/** The wire form of a method call. */
export function marshalMethodCall(call: MethodCall): Buffer {
  return encode(MessageType.METHOD_CALL, call);
}

/** The header fields of a method call after its path, as bytes (they start 8-aligned, so they are the same anywhere). */
interface CallTemplate {
  destination: string;
  interface: string;
  signature: string;
  types: readonly string[];
  fields: Buffer;
}

/** Bytes kept for the calls of a few ticks; a batch is a slice of it, handed on whole and never written again. */
const POOL_BYTES = 256 * 1024;
/** A new pool is taken when less than this is left of the current one at the start of a batch. */
const POOL_RESERVE = 8 * 1024;

/**
 * Method calls written one after the other into one buffer (a tick's calls go out in one socket write), each header
 * from a template of its fields after the path (made once per destination, interface, member and signature): the
 * bytes marshalMethodCall writes, without a buffer, writer and copy per call.
 */
export class CallBatch {
  private readonly writer = new Writer(POOL_BYTES, true);
  private start = 0;
  private readonly templates = new Map<string, CallTemplate[]>();
  private templateCount = 0;

  /** True when no call was added since the last take(). */
  get empty(): boolean {
    return this.writer.offset === this.start;
  }

  /** Adds a call; throws WireFormatError (adding nothing) when its body does not fit its signature. */
  add(serial: number, call: Omit<MethodCall, 'serial'>): void {
    const writer = this.writer;
    if (this.empty && writer.buffer.length - writer.offset < POOL_RESERVE) {
      writer.buffer = Buffer.allocUnsafe(POOL_BYTES);
      writer.offset = this.start = 0;
    }
    const template = this.template(call);
    const body = call.body ?? [];
    const types = template.types;
    if (types.length !== body.length) {
      throw new WireFormatError(
        `signature "${template.signature}" has ${types.length} types but the body ${body.length} values`,
      );
    }
    const at = writer.offset;
    writer.base = at;
    try {
      writer.ensure(32 + call.path.length + template.fields.length);
      const buffer = writer.buffer;
      buffer[at] = 0x6c;
      buffer[at + 1] = MessageType.METHOD_CALL;
      buffer[at + 2] = call.flags ?? 0;
      buffer[at + 3] = 1;
      buffer.writeUInt32LE(serial, at + 8);
      writer.offset = at + 16;
      field(writer, FIELD_PATH, 'o', call.path);
      if (template.fields.length > 0) {
        writer.align(8);
        writer.ensure(template.fields.length);
        template.fields.copy(writer.buffer, writer.offset);
        writer.offset += template.fields.length;
      }
      const fieldsLength = writer.offset - at - 16;
      writer.align(8);
      const bodyStart = writer.offset;
      for (let i = 0; i < types.length; i++) writeValue(writer, types[i] as string, body[i], `argument ${i}`, 0);
      writer.buffer.writeUInt32LE(writer.offset - bodyStart, at + 4);
      writer.buffer.writeUInt32LE(fieldsLength, at + 12);
    } catch (error) {
      writer.offset = at;
      throw error;
    }
  }

  /** The calls added since the last take, as one buffer; undefined when there are none. */
  take(): Buffer | undefined {
    if (this.empty) return undefined;
    const batch = this.writer.buffer.subarray(this.start, this.writer.offset);
    this.start = this.writer.offset;
    return batch;
  }

  private template(call: Omit<MethodCall, 'serial'>): CallTemplate {
    const signature = call.signature ?? '';
    let list = this.templates.get(call.member);
    if (list) {
      for (const t of list) {
        if (t.destination === call.destination && t.interface === call.interface && t.signature === signature) return t;
      }
    }
    const writer = new Writer(128, true);
    field(writer, FIELD_INTERFACE, 's', call.interface);
    field(writer, FIELD_MEMBER, 's', call.member);
    field(writer, FIELD_DESTINATION, 's', call.destination);
    if (signature) field(writer, FIELD_SIGNATURE, 'g', signature);
    const template: CallTemplate = {
      destination: call.destination,
      interface: call.interface,
      signature,
      types: signature ? typesOf(signature) : NO_TYPES,
      fields: Buffer.from(writer.buffer.subarray(0, writer.offset)),
    };
    // Destinations, interfaces and members are a closed set in practice; an open-ended one is not kept forever.
    if (this.templateCount < 1000) {
      if (!list) this.templates.set(call.member, (list = []));
      list.push(template);
      this.templateCount++;
    }
    return template;
  }
}
