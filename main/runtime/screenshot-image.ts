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
 * Scales pixels down: each target pixel averages up to 2x2 source pixels spread over the box it covers (at a
 * quarter and three quarters of it; the whole box when it is at most 2 pixels a side). Reading every source pixel
 * (a full box filter) cost 200-350 ms per 1920x1080 frame on the loaded test machine, this a tenth of it; a view
 * scaled down to fit loses little.
 */
export function scaleDown(shot: Screenshot, width: number, height: number): Screenshot {
  if (width >= shot.width && height >= shot.height) return shot;
  const { width: sourceWidth, height: sourceHeight, pixels } = shot;
  const out = new Uint8Array(width * height * 4);
  const samplesOf = (target: number, size: number, sourceSize: number): number[] => {
    const start = (target * sourceSize) / size;
    const end = ((target + 1) * sourceSize) / size;
    const first = Math.min(sourceSize - 1, Math.floor(start + (end - start) / 4));
    const second = Math.min(sourceSize - 1, Math.max(first, Math.floor(start + ((end - start) * 3) / 4)));
    return first === second ? [first] : [first, second];
  };
  const columns = Array.from({ length: width }, (_, x) => samplesOf(x, width, sourceWidth));
  for (let y = 0; y < height; y++) {
    const rows = samplesOf(y, height, sourceHeight);
    for (let x = 0; x < width; x++) {
      const xs = columns[x]!;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const sy of rows) {
        for (const sx of xs) {
          const at = (sy * sourceWidth + sx) * 4;
          r += pixels[at]!;
          g += pixels[at + 1]!;
          b += pixels[at + 2]!;
          a += pixels[at + 3]!;
        }
      }
      const count = rows.length * xs.length;
      const target = (y * width + x) * 4;
      out[target] = Math.round(r / count);
      out[target + 1] = Math.round(g / count);
      out[target + 2] = Math.round(b / count);
      out[target + 3] = Math.round(a / count);
    }
  }
  return { width, height, format: shot.format, pixels: out };
}

/** Encodes a screenshot as baseline JPEG (jpeg-js) at a quality from 1 to 100. */
export function encodeJpeg(screenshot: Screenshot, quality: number): Buffer {
  return jpeg.encode({ data: toRgba(screenshot), width: screenshot.width, height: screenshot.height }, quality).data;
}
