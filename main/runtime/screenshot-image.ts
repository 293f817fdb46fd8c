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

/** Scales pixels down by averaging the source pixels each target pixel covers (box filter). */
export function scaleDown(shot: Screenshot, width: number, height: number): Screenshot {
  if (width >= shot.width && height >= shot.height) return shot;
  const out = new Uint8Array(width * height * 4);
  const xRatio = shot.width / width;
  const yRatio = shot.height / height;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * yRatio);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * yRatio));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * xRatio);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * xRatio));
      const count = (y1 - y0) * (x1 - x0);
      const target = (y * width + x) * 4;
      for (let channel = 0; channel < 4; channel++) {
        let sum = 0;
        for (let sy = y0; sy < y1; sy++) {
          const row = sy * shot.width;
          for (let sx = x0; sx < x1; sx++) sum += shot.pixels[(row + sx) * 4 + channel]!;
        }
        out[target + channel] = Math.round(sum / count);
      }
    }
  }
  return { width, height, format: shot.format, pixels: out };
}

/** Encodes a screenshot as baseline JPEG (jpeg-js) at a quality from 1 to 100. */
export function encodeJpeg(screenshot: Screenshot, quality: number): Buffer {
  return jpeg.encode({ data: toRgba(screenshot), width: screenshot.width, height: screenshot.height }, quality).data;
}
