import type { UiValue } from '../../shared/model/values.js';

/** The bytes a chunk holds before it is handed on. */
const CHUNK_BYTES = 1 << 20;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const NEWLINE = 0x0a;
const fillBytes = Uint8Array.prototype.fill;

/**
 * UTF-8 text written straight into chunks of about a megabyte, handed on once full (flush() hands on the rest), with
 * JSON's own text for strings, numbers and typed values: the bytes JSON.stringify's text would encode to, without
 * making that text (a snapshot of ten thousand nodes writes tens of megabytes: no string per value, none to join,
 * flatten and encode again).
 */
export class JsonBytes {
  private buffer: Buffer = Buffer.alloc(0);
  private at = 0;

  constructor(private readonly emit: (chunk: Buffer) => void) {}

  /** Hands on what was written since the last chunk. */
  flush(): void {
    if (this.at === 0) return;
    const chunk = this.buffer.subarray(0, this.at);
    this.buffer = Buffer.alloc(0);
    this.at = 0;
    this.emit(chunk);
  }

  /** Makes room for `bytes` more bytes (a full chunk is handed on first). */
  private room(bytes: number): Buffer {
    if (this.at + bytes > this.buffer.length) {
      this.flush();
      this.buffer = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
    }
    return this.buffer;
  }

  /** Text known to be ASCII without anything JSON escapes (punctuation, keys made by ascii-only code). */
  ascii(text: string): void {
    const buffer = this.room(text.length);
    let at = this.at;
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /** Bytes made once (a key's JSON text). */
  bytes(bytes: Uint8Array): void {
    this.room(bytes.length).set(bytes, this.at);
    this.at += bytes.length;
  }

  byte(code: number): void {
    const buffer = this.room(1);
    buffer[this.at++] = code;
  }

  /** A line break and `indent` spaces (nothing for compact output, where the indent is -1). */
  newline(indent: number): void {
    if (indent < 0) return;
    const buffer = this.room(indent + 1);
    let at = this.at;
    buffer[at++] = NEWLINE;
    // Deep trees indent by dozens of spaces: a fill beyond a few (the typed array's own, without Buffer's checks).
    if (indent > 8) {
      fillBytes.call(buffer, SPACE, at, at + indent);
      at += indent;
    } else for (let end = at + indent; at < end;) buffer[at++] = SPACE;
    this.at = at;
  }

  /** JSON.stringify(text), as UTF-8. */
  string(text: string): void {
    const length = text.length;
    // At most three bytes for each UTF-16 unit (four for a pair of two), and the quotes.
    const buffer = this.room(length * 3 + 2);
    const start = this.at;
    let at = start;
    buffer[at++] = QUOTE;
    for (let i = 0; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x80) {
        if (code < SPACE || code === QUOTE || code === BACKSLASH) return this.escaped(text, start);
        buffer[at++] = code;
      } else if (code < 0x800) {
        buffer[at++] = 0xc0 | (code >> 6);
        buffer[at++] = 0x80 | (code & 0x3f);
      } else if (code < 0xd800 || code > 0xdfff) {
        buffer[at++] = 0xe0 | (code >> 12);
        buffer[at++] = 0x80 | ((code >> 6) & 0x3f);
        buffer[at++] = 0x80 | (code & 0x3f);
      } else {
        const low = code < 0xdc00 ? text.charCodeAt(i + 1) : 0;
        // A lone surrogate: JSON.stringify writes it as an escape.
        if (!(low >= 0xdc00 && low <= 0xdfff)) return this.escaped(text, start);
        const point = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        buffer[at++] = 0xf0 | (point >> 18);
        buffer[at++] = 0x80 | ((point >> 12) & 0x3f);
        buffer[at++] = 0x80 | ((point >> 6) & 0x3f);
        buffer[at++] = 0x80 | (point & 0x3f);
        i++;
      }
    }
    buffer[at++] = QUOTE;
    this.at = at;
  }

  /** A string with characters JSON escapes, written from JSON.stringify's text in place of what `string` began. */
  private escaped(text: string, start: number): void {
    this.at = start;
    this.utf8(JSON.stringify(text));
  }

  /** Any text, encoded as UTF-8. */
  utf8(text: string): void {
    const buffer = this.room(text.length * 3);
    this.at += buffer.write(text, this.at, 'utf8');
  }

  /** JSON.stringify(value) of a number (integers digit by digit; -0 is 0, what is not finite null). */
  number(value: number): void {
    if (!Number.isSafeInteger(value)) {
      this.ascii(JSON.stringify(value));
      return;
    }
    let rest = value;
    const buffer = this.room(17);
    let at = this.at;
    if (rest < 0) {
      buffer[at++] = 0x2d;
      rest = -rest;
    }
    let digits = 1;
    for (let power = 10; power <= rest; power *= 10) digits++;
    at += digits;
    for (let i = 1; i <= digits; i++) {
      buffer[at - i] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.at = at;
  }

  /**
   * JSON.stringify of the value's plain JSON form (toJsonValue), indented as JSON.stringify(plain, null, 2) writes it
   * when `indent` (the spaces its first line has) is 0 or more, compact when it is -1.
   */
  value(value: UiValue, indent: number): void {
    const inner = indent < 0 ? -1 : indent + 2;
    switch (value.type) {
      case 'String':
        this.string(value.value);
        return;
      case 'Bool':
        this.ascii(value.value ? 'true' : 'false');
        return;
      case 'Integer':
      case 'Number':
        this.number(value.value);
        return;
      case 'Null':
        this.ascii('null');
        return;
      case 'Rect':
        this.field(KEYS.x, value.value.x, inner, true);
        this.field(KEYS.y, value.value.y, inner, false);
        this.field(KEYS.width, value.value.width, inner, false);
        this.field(KEYS.height, value.value.height, inner, false);
        this.close(0x7d, indent);
        return;
      case 'Point':
        this.field(KEYS.x, value.value.x, inner, true);
        this.field(KEYS.y, value.value.y, inner, false);
        this.close(0x7d, indent);
        return;
      case 'Size':
        this.field(KEYS.width, value.value.width, inner, true);
        this.field(KEYS.height, value.value.height, inner, false);
        this.close(0x7d, indent);
        return;
      case 'Array': {
        const items = value.value;
        if (items.length === 0) {
          this.ascii('[]');
          return;
        }
        this.byte(0x5b);
        for (let i = 0; i < items.length; i++) {
          if (i > 0) this.byte(0x2c);
          this.newline(inner);
          this.value(items[i] as UiValue, inner);
        }
        this.close(0x5d, indent);
        return;
      }
      case 'Object': {
        const object = value.value;
        let first = true;
        // The keys in the order JSON.stringify takes them (index keys first); __proto__ is no own key of the copy.
        for (const key of Object.keys(object)) {
          if (key === '__proto__') continue;
          this.byte(first ? 0x7b : 0x2c);
          first = false;
          this.newline(inner);
          this.string(key);
          this.ascii(inner < 0 ? ':' : ': ');
          this.value(object[key] as UiValue, inner);
        }
        if (first) this.ascii('{}');
        else this.close(0x7d, indent);
      }
    }
  }

  /** The end of an object or array begun on a line indented by `indent` spaces: `}` or `]` on a line of its own. */
  private close(bracket: number, indent: number): void {
    this.newline(indent);
    this.byte(bracket);
  }

  /** One numeric field of a Rect, Point or Size (the first opens the object). */
  private field(key: KeyBytes, value: number, indent: number, first: boolean): void {
    this.byte(first ? 0x7b : 0x2c);
    this.newline(indent);
    this.bytes(indent < 0 ? key.compact : key.pretty);
    this.number(value);
  }
}

/** A key's JSON text with its colon: `"x":` for compact output, `"x": ` for indented. */
export interface KeyBytes {
  readonly compact: Uint8Array;
  readonly pretty: Uint8Array;
}

export function keyBytes(key: string): KeyBytes {
  const json = JSON.stringify(key);
  return { compact: Buffer.from(`${json}:`, 'utf8'), pretty: Buffer.from(`${json}: `, 'utf8') };
}

const KEYS = { x: keyBytes('x'), y: keyBytes('y'), width: keyBytes('width'), height: keyBytes('height') };
