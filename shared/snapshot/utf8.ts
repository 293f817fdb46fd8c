import { InspectorError, positionAt } from '../model/errors.js';

/**
 * Decodes a snapshot file. Snapshot files are UTF-8: a byte sequence that is not UTF-8 is an error naming its line,
 * column and byte offset (never replaced by U+FFFD, which would change names silently). A byte order mark is
 * dropped.
 */
export function decodeSnapshotBytes(bytes: Uint8Array, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
    const position = positionAt(before, before.length);
    const byte = bytes[bad]?.toString(16).padStart(2, '0') ?? 'end of file';
    throw new InspectorError(
      'invalid-input',
      `${source}:${position.line}:${position.column}: not UTF-8 (byte 0x${byte} at byte offset ${bad}); snapshot files are UTF-8`,
      { position },
    );
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence (bytes.length if none). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      length = 2;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      min = 0x10000;
    } else return i;
    if (i + length > bytes.length) return i;
    let code = b & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k]!;
      if ((next & 0xc0) !== 0x80) return i;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += length;
  }
  return bytes.length;
}
