import type { DoubleClickSettings } from '../../core/platform.js';

/**
 * The XSETTINGS protocol (freedesktop.org XSETTINGS specification 0.5): a settings manager owns the selection
 * `_XSETTINGS_S<screen>` with a window whose `_XSETTINGS_SETTINGS` property (format 8, type `_XSETTINGS_SETTINGS`)
 * holds every setting in this layout, each field in the byte order the first byte names:
 *
 *   CARD8 byte-order (0 LSBFirst, 1 MSBFirst), 3 unused, CARD32 serial, CARD32 n-settings, then per setting:
 *   CARD8 type (0 integer, 1 string, 2 color), 1 unused, CARD16 name-len, name, pad to 4, CARD32 last-change-serial,
 *   and the body: integer INT32 | string CARD32 value-len, value, pad to 4 | color CARD16 red, green, blue, alpha.
 *
 * The decoder is strict: every read is bounds-checked and anything the layout does not allow (an unknown byte order
 * or type, an empty or non-ASCII name, a duplicate name, a string that is not UTF-8, bytes left over) is an
 * XSettingsFormatError naming the offset, never a partial result.
 */

export type XSettingValue =
  | { type: 'integer'; value: number }
  | { type: 'string'; value: string }
  | { type: 'color'; value: { red: number; green: number; blue: number; alpha: number } };

export type XSetting = XSettingValue & { lastChangeSerial: number };

export interface XSettings {
  byteOrder: 'lsb' | 'msb';
  serial: number;
  settings: Map<string, XSetting>;
}

export class XSettingsFormatError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at byte ${offset})`);
    this.name = 'XSettingsFormatError';
  }
}

const typeNames = ['integer', 'string', 'color'] as const;
const pad4 = (n: number) => (4 - (n % 4)) % 4;
/** The smallest setting: 4 header bytes, a 1-byte name padded to 4, the serial and a 4-byte body. */
const MIN_SETTING_BYTES = 16;

class Reader {
  private position = 0;
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    private littleEndian = true,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.position;
  }

  get remaining(): number {
    return this.bytes.length - this.position;
  }

  setLittleEndian(value: boolean): void {
    this.littleEndian = value;
  }

  private need(count: number, what: string): number {
    if (count > this.remaining) {
      throw new XSettingsFormatError(
        `truncated: ${what} needs ${count} byte(s), ${this.remaining} left of ${this.bytes.length}`,
        this.position,
      );
    }
    const at = this.position;
    this.position += count;
    return at;
  }

  card8(what: string): number {
    return this.view.getUint8(this.need(1, what));
  }

  card16(what: string): number {
    return this.view.getUint16(this.need(2, what), this.littleEndian);
  }

  card32(what: string): number {
    return this.view.getUint32(this.need(4, what), this.littleEndian);
  }

  int32(what: string): number {
    return this.view.getInt32(this.need(4, what), this.littleEndian);
  }

  skip(count: number, what: string): void {
    this.need(count, what);
  }

  bytesOf(count: number, what: string): Uint8Array {
    const at = this.need(count, what);
    return this.bytes.subarray(at, at + count);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function readName(reader: Reader, length: number): string {
  const at = reader.offset;
  if (length === 0) throw new XSettingsFormatError('a setting with an empty name', at);
  const bytes = reader.bytesOf(length, 'a setting name');
  for (const byte of bytes) {
    if (byte < 0x21 || byte > 0x7e) throw new XSettingsFormatError(`a setting name with byte 0x${hex(byte)}`, at);
  }
  reader.skip(pad4(length), 'the padding after a setting name');
  return String.fromCharCode(...bytes);
}

const hex = (n: number) => n.toString(16).padStart(2, '0');

function readValue(reader: Reader, type: XSetting['type']): XSettingValue {
  if (type === 'integer') return { type, value: reader.int32('an integer value') };
  if (type === 'color') {
    const red = reader.card16('a color');
    const green = reader.card16('a color');
    const blue = reader.card16('a color');
    const alpha = reader.card16('a color');
    return { type, value: { red, green, blue, alpha } };
  }
  const length = reader.card32('a string length');
  const at = reader.offset;
  const bytes = reader.bytesOf(length, 'a string value');
  reader.skip(pad4(length), 'the padding after a string value');
  try {
    return { type, value: utf8.decode(bytes) };
  } catch {
    throw new XSettingsFormatError('a string value that is not UTF-8', at);
  }
}

/** Decodes the contents of an `_XSETTINGS_SETTINGS` property; throws XSettingsFormatError on any malformed input. */
export function decodeXSettings(bytes: Uint8Array): XSettings {
  const reader = new Reader(bytes);
  const order = reader.card8('the byte order');
  if (order !== 0 && order !== 1) {
    throw new XSettingsFormatError(`unknown byte order ${order} (0 is LSBFirst, 1 is MSBFirst)`, 0);
  }
  reader.setLittleEndian(order === 0);
  reader.skip(3, 'the header');
  const serial = reader.card32('the serial');
  const countAt = reader.offset;
  const count = reader.card32('the number of settings');
  if (count * MIN_SETTING_BYTES > reader.remaining) {
    throw new XSettingsFormatError(
      `${count} settings announced but only ${reader.remaining} bytes follow (each needs at least ${MIN_SETTING_BYTES})`,
      countAt,
    );
  }
  const settings = new Map<string, XSetting>();
  for (let i = 0; i < count; i++) {
    const at = reader.offset;
    const code = reader.card8('a setting type');
    const type = typeNames[code];
    if (!type) throw new XSettingsFormatError(`setting ${i + 1} has unknown type ${code}`, at);
    reader.skip(1, 'a setting header');
    const name = readName(reader, reader.card16('a setting name length'));
    if (settings.has(name)) throw new XSettingsFormatError(`setting "${name}" appears twice`, at);
    const lastChangeSerial = reader.card32('a last-change serial');
    settings.set(name, { ...readValue(reader, type), lastChangeSerial });
  }
  if (reader.remaining > 0) {
    throw new XSettingsFormatError(`${reader.remaining} byte(s) after the last of ${count} settings`, reader.offset);
  }
  return { byteOrder: order === 0 ? 'lsb' : 'msb', serial, settings };
}

/** Encodes settings in the XSETTINGS layout (what a settings manager writes; the tests' own manager uses it). */
export function encodeXSettings(input: {
  byteOrder: 'lsb' | 'msb';
  serial: number;
  settings: ReadonlyArray<readonly [string, XSettingValue & { lastChangeSerial?: number }]>;
}): Uint8Array {
  const little = input.byteOrder === 'lsb';
  const parts: number[] = [];
  const view = new DataView(new ArrayBuffer(4));
  const push = (size: 1 | 2 | 4, value: number, signed = false) => {
    if (size === 1) view.setUint8(0, value);
    else if (size === 2) view.setUint16(0, value, little);
    else if (signed) view.setInt32(0, value, little);
    else view.setUint32(0, value, little);
    for (let i = 0; i < size; i++) parts.push(view.getUint8(i));
  };
  const pushBytes = (bytes: Uint8Array) => {
    parts.push(...bytes);
    for (let i = 0; i < pad4(bytes.length); i++) parts.push(0);
  };
  push(1, little ? 0 : 1);
  parts.push(0, 0, 0);
  push(4, input.serial);
  push(4, input.settings.length);
  for (const [name, setting] of input.settings) {
    push(1, typeNames.indexOf(setting.type));
    parts.push(0);
    const nameBytes = new TextEncoder().encode(name);
    push(2, nameBytes.length);
    pushBytes(nameBytes);
    push(4, setting.lastChangeSerial ?? input.serial);
    if (setting.type === 'integer') push(4, setting.value, true);
    else if (setting.type === 'string') {
      const value = new TextEncoder().encode(setting.value);
      push(4, value.length);
      pushBytes(value);
    } else {
      for (const channel of [setting.value.red, setting.value.green, setting.value.blue, setting.value.alpha]) {
        push(2, channel);
      }
    }
  }
  return Uint8Array.from(parts);
}

export const XSETTINGS_DOUBLE_CLICK_TIME = 'Net/DoubleClickTime';
export const XSETTINGS_DOUBLE_CLICK_DISTANCE = 'Net/DoubleClickDistance';

/** X11 has no server-side double-click setting; without a manager these are GTK's and Qt's defaults. */
export const DEFAULT_DOUBLE_CLICK_TIME_MS = 400;
export const DEFAULT_DOUBLE_CLICK_DISTANCE_PX = 5;

export type SettingSource = 'xsettings' | 'default';

interface Limits {
  min: number;
  max: number;
  unit: string;
}

function pick(
  settings: XSettings,
  name: string,
  limits: Limits,
  fallback: number,
  notes: string[],
): { value: number; source: SettingSource } {
  const setting = settings.settings.get(name);
  if (!setting) {
    notes.push(`${name} not set`);
    return { value: fallback, source: 'default' };
  }
  if (setting.type !== 'integer') {
    notes.push(`${name} is a ${setting.type}, not an integer`);
    return { value: fallback, source: 'default' };
  }
  if (setting.value < limits.min || setting.value > limits.max) {
    notes.push(`${name} ${setting.value} is outside ${limits.min}..${limits.max} ${limits.unit}`);
    return { value: fallback, source: 'default' };
  }
  return { value: setting.value, source: 'xsettings' };
}

const TIME_LIMITS: Limits = { min: 1, max: 60_000, unit: 'ms' };
const DISTANCE_LIMITS: Limits = { min: 0, max: 1000, unit: 'px' };

/** The defaults, with the reason they apply. */
export function defaultDoubleClick(reason: string): DoubleClickSettings {
  const d = DEFAULT_DOUBLE_CLICK_DISTANCE_PX;
  return {
    timeMs: DEFAULT_DOUBLE_CLICK_TIME_MS,
    timeSource: 'default',
    size: { width: d, height: d },
    sizeSource: 'default',
    detail: reason,
  };
}

/**
 * The double-click time and distance from decoded settings (`Net/DoubleClickTime` in ms, `Net/DoubleClickDistance`
 * in px, the names GTK and Qt read), each falling back to the default on its own when absent or unusable.
 */
export function doubleClickFromSettings(settings: XSettings, where: string): DoubleClickSettings {
  const notes: string[] = [];
  const time = pick(settings, XSETTINGS_DOUBLE_CLICK_TIME, TIME_LIMITS, DEFAULT_DOUBLE_CLICK_TIME_MS, notes);
  const distance = pick(
    settings,
    XSETTINGS_DOUBLE_CLICK_DISTANCE,
    DISTANCE_LIMITS,
    DEFAULT_DOUBLE_CLICK_DISTANCE_PX,
    notes,
  );
  return {
    timeMs: time.value,
    timeSource: time.source,
    size: { width: distance.value, height: distance.value },
    sizeSource: distance.source,
    detail: `${where}, serial ${settings.serial}${notes.length ? `; ${notes.join('; ')}` : ''}`,
  };
}
