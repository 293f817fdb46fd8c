import jpeg from 'jpeg-js';
import type { Screenshot } from '../core/platform.js';

/** The pixels as packed RGBA bytes (opaque where the device gave Bgra8), swapped a 32-bit word at a time. */
export function toRgba(screenshot: Screenshot): Buffer {
  const { pixels } = screenshot;
  if (screenshot.format === 'Rgba8') return Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  const source =
    pixels.byteOffset % 4 === 0
      ? new Uint32Array(pixels.buffer, pixels.byteOffset, pixels.byteLength / 4)
      : new Uint32Array(pixels.slice().buffer);
  const target = new Uint32Array(source.length);
  // Little-endian words: BGRA in memory reads as 0xAARRGGBB; RGBA wants 0xAABBGGRR.
  for (let i = 0; i < source.length; i++) {
    const bgra = source[i]!;
    target[i] = (bgra & 0xff00ff00) | ((bgra >>> 16) & 0xff) | ((bgra & 0xff) << 16);
  }
  return Buffer.from(target.buffer);
}

/**
 * Scales pixels down by averaging the source pixels each target pixel covers (box filter), in one pass over the
 * source rows: each source pixel is added to its target column's sums, a target row is written when its source rows
 * end. (The Screen view scales a 1920x1080 desktop every refresh.)
 */
export function scaleDown(shot: Screenshot, width: number, height: number): Screenshot {
  if (width >= shot.width && height >= shot.height) return shot;
  const { width: sourceWidth, height: sourceHeight, pixels } = shot;
  const out = new Uint8Array(width * height * 4);
  const columnOf = new Uint32Array(sourceWidth);
  const columnSize = new Uint32Array(width);
  for (let x = 0; x < sourceWidth; x++) {
    const column = Math.min(width - 1, Math.floor((x * width) / sourceWidth));
    columnOf[x] = column * 4;
    columnSize[column]!++;
  }
  const sums = new Float64Array(width * 4);
  const flush = (row: number, rows: number) => {
    for (let x = 0; x < width; x++) {
      const count = columnSize[x]! * rows;
      const target = (row * width + x) * 4;
      for (let channel = 0; channel < 4; channel++) {
        out[target + channel] = Math.round(sums[x * 4 + channel]! / count);
      }
    }
    sums.fill(0);
  };
  let row = 0;
  let rows = 0;
  for (let y = 0; y < sourceHeight; y++) {
    const target = Math.min(height - 1, Math.floor((y * height) / sourceHeight));
    if (target !== row) {
      flush(row, rows);
      row = target;
      rows = 0;
    }
    let at = y * sourceWidth * 4;
    for (let x = 0; x < sourceWidth; x++, at += 4) {
      const sum = columnOf[x]!;
      sums[sum] = sums[sum]! + pixels[at]!;
      sums[sum + 1] = sums[sum + 1]! + pixels[at + 1]!;
      sums[sum + 2] = sums[sum + 2]! + pixels[at + 2]!;
      sums[sum + 3] = sums[sum + 3]! + pixels[at + 3]!;
    }
    rows++;
  }
  flush(row, rows);
  return { width, height, format: shot.format, pixels: out };
}

/** Encodes a screenshot as baseline JPEG (jpeg-js) at a quality from 1 to 100. */
export function encodeJpeg(screenshot: Screenshot, quality: number): Buffer {
  return jpeg.encode({ data: toRgba(screenshot), width: screenshot.width, height: screenshot.height }, quality).data;
}
