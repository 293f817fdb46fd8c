import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../../shared/random.js';
import {
  XSettingsFormatError,
  decodeXSettings,
  doubleClickFromSettings,
  encodeXSettings,
  type XSetting,
  type XSettings,
} from '../xsettings.js';

/** Bytes written out by hand: numbers are single bytes, strings their ASCII (or UTF-8) bytes. */
function bytes(...parts: Array<number | string | number[]>): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'number') out.push(part);
    else if (typeof part === 'string') out.push(...new TextEncoder().encode(part));
    else out.push(...part);
  }
  return Uint8Array.from(out);
}

/**
 * Three settings, one of each type, in LSBFirst order: Net/DoubleClickTime = 250 (19-byte name, 1 byte padding),
 * Net/ThemeName = "Grüße" (13-byte name, 3 bytes padding; 7-byte UTF-8 value, 1 byte padding), Net/Tint = a color
 * (8-byte name, no padding).
 */
const LSB = bytes(
  [0, 0, 0, 0], // byte order LSBFirst, unused
  [7, 0, 0, 0], // serial 7
  [3, 0, 0, 0], // 3 settings
  [0, 0, 19, 0],
  'Net/DoubleClickTime',
  [0],
  [5, 0, 0, 0], // last change serial 5
  [250, 0, 0, 0],
  [1, 0, 13, 0],
  'Net/ThemeName',
  [0, 0, 0],
  [6, 0, 0, 0],
  [7, 0, 0, 0],
  'Grüße',
  [0],
  [2, 0, 8, 0],
  'Net/Tint',
  [7, 0, 0, 0],
  [0xff, 0xff, 0x00, 0x80, 0x01, 0x00, 0xff, 0xff], // red ffff, green 8000, blue 0001, alpha ffff
);

/** What LSB holds, for the encoder. */
const sample = {
  byteOrder: 'lsb' as const,
  serial: 7,
  settings: [
    ['Net/DoubleClickTime', { type: 'integer', value: 250, lastChangeSerial: 5 }],
    ['Net/ThemeName', { type: 'string', value: 'Grüße', lastChangeSerial: 6 }],
    ['Net/Tint', { type: 'color', value: { red: 0xffff, green: 0x8000, blue: 1, alpha: 0xffff } }],
  ] as const,
};

describe('XSETTINGS decoder', () => {
  it('decodes hand-built LSBFirst data with all three setting types', () => {
    const decoded = decodeXSettings(LSB);
    assert.equal(decoded.byteOrder, 'lsb');
    assert.equal(decoded.serial, 7);
    assert.deepEqual(
      [...decoded.settings],
      [
        ['Net/DoubleClickTime', { type: 'integer', value: 250, lastChangeSerial: 5 }],
        ['Net/ThemeName', { type: 'string', value: 'Grüße', lastChangeSerial: 6 }],
        [
          'Net/Tint',
          { type: 'color', value: { red: 0xffff, green: 0x8000, blue: 0x0001, alpha: 0xffff }, lastChangeSerial: 7 },
        ],
      ],
    );
  });

  it('decodes hand-built MSBFirst data: big-endian numbers, a negative integer, an empty string', () => {
    const msb = bytes(
      [1, 0, 0, 0],
      [0, 0, 1, 2], // serial 258
      [0, 0, 0, 3],
      [0, 0, 0, 23],
      'Net/DoubleClickDistance',
      [0],
      [0, 0, 0, 1],
      [0xff, 0xff, 0xff, 0xfe], // -2
      [1, 0, 0, 9],
      'Gtk/Empty',
      [0, 0, 0],
      [0, 0, 1, 0], // last change 256
      [0, 0, 0, 0], // value length 0, no padding
      [2, 0, 0, 5],
      'Color',
      [0, 0, 0],
      [0, 0, 0, 2],
      [0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0],
    );
    const decoded = decodeXSettings(msb);
    assert.equal(decoded.byteOrder, 'msb');
    assert.equal(decoded.serial, 258);
    assert.deepEqual(decoded.settings.get('Net/DoubleClickDistance'), {
      type: 'integer',
      value: -2,
      lastChangeSerial: 1,
    });
    assert.deepEqual(decoded.settings.get('Gtk/Empty'), { type: 'string', value: '', lastChangeSerial: 256 });
    assert.deepEqual(decoded.settings.get('Color'), {
      type: 'color',
      value: { red: 0x1234, green: 0x5678, blue: 0x9abc, alpha: 0xdef0 },
      lastChangeSerial: 2,
    });
  });

  it('an empty settings list is valid', () => {
    const decoded = decodeXSettings(bytes([1, 0, 0, 0], [0, 0, 0, 9], [0, 0, 0, 0]));
    assert.equal(decoded.serial, 9);
    assert.equal(decoded.settings.size, 0);
  });

  it('every truncation of valid data is a format error naming the missing part, never a crash', () => {
    for (let length = 0; length < LSB.length; length++) {
      assert.throws(
        () => decodeXSettings(LSB.subarray(0, length)),
        (error: unknown) =>
          error instanceof XSettingsFormatError &&
          /truncated: .* needs \d+ byte\(s\), \d+ left of \d+|settings announced but only/.test(error.message),
        `prefix of ${length} bytes`,
      );
    }
    assert.throws(() => decodeXSettings(new Uint8Array(0)), /truncated: the byte order needs 1 byte\(s\), 0 left of 0/);
    // Only the first setting (44 bytes), announced as the only one, so the count check lets the truncation through.
    const one = bytes([...LSB.subarray(0, 8)], [1, 0, 0, 0], [...LSB.subarray(12, 44)]);
    assert.equal(decodeXSettings(one).settings.get('Net/DoubleClickTime')?.value, 250);
    assert.throws(
      () => decodeXSettings(one.subarray(0, 35)),
      /truncated: the padding after a setting name .*at byte 35/,
    );
    assert.throws(
      () => decodeXSettings(one.subarray(0, 42)),
      /truncated: an integer value needs 4 byte\(s\), 2 left of 42/,
    );
  });

  it('rejects what the layout does not allow, with the offset', () => {
    const withByte = (offset: number, value: number) => {
      const copy = Uint8Array.from(LSB);
      copy[offset] = value;
      return copy;
    };
    assert.throws(() => decodeXSettings(withByte(0, 2)), /unknown byte order 2 .*at byte 0/);
    assert.throws(() => decodeXSettings(withByte(12, 3)), /setting 1 has unknown type 3 \(at byte 12\)/);
    assert.throws(() => decodeXSettings(withByte(16, 0x7f)), /a setting name with byte 0x7f \(at byte 16\)/);
    // The theme name's first byte of "ü" (0xc3) turned into a lone continuation byte.
    const themeAt = LSB.indexOf(0xc3);
    assert.throws(() => decodeXSettings(withByte(themeAt, 0x80)), /a string value that is not UTF-8/);
    // 1000 settings announced in 80 bytes.
    assert.throws(() => decodeXSettings(withByte(8, 0xe8).map((b, i) => (i === 9 ? 3 : b))), /1000 settings announced/);
    assert.throws(() => decodeXSettings(bytes([...LSB.slice(0, 8)], [0xff, 0xff, 0xff, 0xff])), /4294967295 settings/);
    assert.throws(() => decodeXSettings(bytes([...LSB], [0, 0, 0, 0])), /4 byte\(s\) after the last of 3 settings/);
    assert.throws(
      () =>
        decodeXSettings(
          bytes([0, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]),
        ),
      /a setting with an empty name \(at byte 16\)/,
    );
    const twice = bytes(
      [0, 0, 0, 0],
      [1, 0, 0, 0],
      [2, 0, 0, 0],
      ...[0, 1].map(() => [0, 0, 1, 0, 65, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0]),
    );
    assert.throws(() => decodeXSettings(twice), /setting "A" appears twice \(at byte 28\)/);
  });

  it('random corruption either decodes or is a format error', () => {
    const random = seededRandom(4);
    let rejected = 0;
    let decoded = 0;
    for (let round = 0; round < 2000; round++) {
      const copy = Uint8Array.from(round % 2 ? LSB : encodeXSettings({ ...sample, byteOrder: 'msb' }));
      for (let flips = 1 + Math.floor(random() * 3); flips > 0; flips--) {
        copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
      }
      try {
        decodeXSettings(copy.subarray(0, copy.length - Math.floor(random() * 3)));
        decoded++;
      } catch (error) {
        assert.ok(error instanceof XSettingsFormatError, String(error));
        rejected++;
      }
    }
    assert.ok(rejected > 0 && decoded > 0, `${rejected} rejected, ${decoded} decoded`);
  });

  it('the encoder writes the hand-built bytes and round-trips both orders', () => {
    assert.deepEqual(encodeXSettings(sample), LSB);
    for (const byteOrder of ['lsb', 'msb'] as const) {
      const decoded = decodeXSettings(encodeXSettings({ ...sample, byteOrder }));
      assert.equal(decoded.byteOrder, byteOrder);
      assert.deepEqual(decoded.settings, decodeXSettings(LSB).settings);
    }
  });
});

describe('double-click settings from XSETTINGS', () => {
  const settings = (entries: Array<[string, XSetting]>, serial = 3): XSettings => ({
    byteOrder: 'lsb',
    serial,
    settings: new Map(entries),
  });
  const int = (value: number) => ({ type: 'integer' as const, value, lastChangeSerial: 1 });

  it('reads Net/DoubleClickTime and Net/DoubleClickDistance', () => {
    const read = doubleClickFromSettings(
      settings([
        ['Net/DoubleClickTime', int(650)],
        ['Net/DoubleClickDistance', int(9)],
      ]),
      'manager 0x1',
    );
    assert.deepEqual(read, {
      timeMs: 650,
      timeSource: 'xsettings',
      size: { width: 9, height: 9 },
      sizeSource: 'xsettings',
      detail: 'manager 0x1, serial 3',
    });
  });

  it('each value falls back to its default on its own, saying why', () => {
    const onlyTime = doubleClickFromSettings(settings([['Net/DoubleClickTime', int(300)]]), 'm');
    assert.equal(onlyTime.timeMs, 300);
    assert.equal(onlyTime.timeSource, 'xsettings');
    assert.deepEqual(onlyTime.size, { width: 5, height: 5 });
    assert.equal(onlyTime.sizeSource, 'default');
    assert.equal(onlyTime.detail, 'm, serial 3; Net/DoubleClickDistance not set');

    const unusable = doubleClickFromSettings(
      settings([
        ['Net/DoubleClickTime', { type: 'string', value: '300', lastChangeSerial: 1 }],
        ['Net/DoubleClickDistance', int(-2)],
      ]),
      'm',
    );
    assert.equal(unusable.timeMs, 400);
    assert.equal(unusable.timeSource, 'default');
    assert.equal(unusable.sizeSource, 'default');
    assert.match(
      unusable.detail,
      /Net\/DoubleClickTime is a string, not an integer; Net\/DoubleClickDistance -2 is outside 0\.\.1000 px/,
    );
    assert.equal(doubleClickFromSettings(settings([['Net/DoubleClickTime', int(0)]]), 'm').timeMs, 400);
  });
});
