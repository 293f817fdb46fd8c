/**
 * A small, fast D-Bus marshaller for the method calls the provider sends by the thousand (GetExtents, GetRole,
 * Properties.Get ...). dbus-next's general marshaller costs tens of microseconds per message, which dominates a
 * pipelined walk; this one writes the little-endian wire format directly for the argument types the provider uses
 * (s, o, u, i, b, d, as) and returns undefined for anything else, so the caller falls back to dbus-next.
 */

const METHOD_CALL = 1;
const FIELD_PATH = 1;
const FIELD_INTERFACE = 2;
const FIELD_MEMBER = 3;
const FIELD_DESTINATION = 6;
const FIELD_SIGNATURE = 8;

class Writer {
  buffer: Buffer;
  offset = 0;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  private ensure(extra: number): void {
    if (this.offset + extra <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + extra));
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }

  align(boundary: number): void {
    const padding = (boundary - (this.offset % boundary)) % boundary;
    if (padding === 0) return;
    this.ensure(padding);
    this.buffer.fill(0, this.offset, this.offset + padding);
    this.offset += padding;
  }

  byte(value: number): void {
    this.ensure(1);
    this.buffer[this.offset++] = value;
  }

  uint32(value: number): void {
    this.align(4);
    this.ensure(4);
    this.buffer.writeUInt32LE(value >>> 0, this.offset);
    this.offset += 4;
  }

  int32(value: number): void {
    this.align(4);
    this.ensure(4);
    this.buffer.writeInt32LE(value | 0, this.offset);
    this.offset += 4;
  }

  double(value: number): void {
    this.align(8);
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.offset);
    this.offset += 8;
  }

  string(value: string): void {
    const length = Buffer.byteLength(value, 'utf8');
    this.uint32(length);
    this.ensure(length + 1);
    this.buffer.write(value, this.offset, 'utf8');
    this.offset += length;
    this.buffer[this.offset++] = 0;
  }

  signature(value: string): void {
    this.ensure(value.length + 2);
    this.buffer[this.offset++] = value.length;
    this.buffer.write(value, this.offset, 'latin1');
    this.offset += value.length;
    this.buffer[this.offset++] = 0;
  }
}

/** Splits a signature into complete types; undefined when it uses a type this marshaller does not write. */
function bodyTypes(signature: string): string[] | undefined {
  const types: string[] = [];
  for (let i = 0; i < signature.length; i++) {
    const c = signature[i] as string;
    if ('souibd'.includes(c)) types.push(c);
    else if (c === 'a' && signature[i + 1] === 's') {
      types.push('as');
      i++;
    } else return undefined;
  }
  return types;
}

function writeValue(writer: Writer, type: string, value: unknown): boolean {
  switch (type) {
    case 's':
    case 'o':
      if (typeof value !== 'string') return false;
      writer.string(value);
      return true;
    case 'u':
      if (typeof value !== 'number') return false;
      writer.uint32(value);
      return true;
    case 'i':
      if (typeof value !== 'number') return false;
      writer.int32(value);
      return true;
    case 'b':
      if (typeof value !== 'boolean') return false;
      writer.uint32(value ? 1 : 0);
      return true;
    case 'd':
      if (typeof value !== 'number') return false;
      writer.double(value);
      return true;
    case 'as': {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return false;
      writer.uint32(0);
      const lengthAt = writer.offset - 4;
      writer.align(4);
      const start = writer.offset;
      for (const item of value as string[]) writer.string(item);
      writer.buffer.writeUInt32LE(writer.offset - start, lengthAt);
      return true;
    }
    default:
      return false;
  }
}

export interface MethodCall {
  serial: number;
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: readonly unknown[];
}

/** The wire form of a method call, or undefined when its arguments need the general marshaller. */
export function marshalMethodCall(call: MethodCall): Buffer | undefined {
  const signature = call.signature ?? '';
  const body = call.body ?? [];
  const types = bodyTypes(signature);
  if (!types || types.length !== body.length) return undefined;

  // Body first (its alignment is relative to an 8-aligned start, so it can be written on its own).
  let bodyBuffer: Buffer | undefined;
  if (types.length > 0) {
    const bodyWriter = new Writer(64);
    for (let i = 0; i < types.length; i++) {
      if (!writeValue(bodyWriter, types[i] as string, body[i])) return undefined;
    }
    bodyBuffer = bodyWriter.buffer.subarray(0, bodyWriter.offset);
  }

  const writer = new Writer(256 + (bodyBuffer?.length ?? 0));
  writer.byte(0x6c); // 'l': little endian
  writer.byte(METHOD_CALL);
  writer.byte(0); // flags
  writer.byte(1); // protocol version
  writer.uint32(bodyBuffer?.length ?? 0);
  writer.uint32(call.serial);
  writer.uint32(0); // header fields array length, patched below
  const fieldsStart = writer.offset; // 16: already 8-aligned
  const field = (code: number, type: 'o' | 's' | 'g', value: string) => {
    writer.align(8);
    writer.byte(code);
    writer.signature(type);
    if (type === 'g') writer.signature(value);
    else writer.string(value);
  };
  field(FIELD_PATH, 'o', call.path);
  field(FIELD_INTERFACE, 's', call.interface);
  field(FIELD_MEMBER, 's', call.member);
  field(FIELD_DESTINATION, 's', call.destination);
  if (signature) field(FIELD_SIGNATURE, 'g', signature);
  writer.buffer.writeUInt32LE(writer.offset - fieldsStart, 12);
  writer.align(8);
  if (!bodyBuffer) return writer.buffer.subarray(0, writer.offset);
  const out = Buffer.allocUnsafe(writer.offset + bodyBuffer.length);
  writer.buffer.copy(out, 0, 0, writer.offset);
  bodyBuffer.copy(out, writer.offset);
  return out;
}
