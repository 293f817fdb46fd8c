import { PNG } from 'pngjs';
import type { Screenshot } from '../core/platform.js';

/** Encodes a screenshot (Rgba8 or Bgra8) as PNG with pngjs; the devices stop at raw pixels (PlatynUI §8). */
export function encodePng(screenshot: Screenshot): Buffer {
  const png = new PNG({ width: screenshot.width, height: screenshot.height, colorType: 6 });
  const { pixels } = screenshot;
  if (screenshot.format === 'Rgba8') {
    png.data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  } else {
    const data = Buffer.alloc(pixels.length);
    for (let i = 0; i < pixels.length; i += 4) {
      data[i] = pixels[i + 2]!;
      data[i + 1] = pixels[i + 1]!;
      data[i + 2] = pixels[i]!;
      data[i + 3] = pixels[i + 3]!;
    }
    png.data = data;
  }
  return PNG.sync.write(png);
}

/** Reads a PNG back into Rgba8 pixels. */
export function decodePng(data: Buffer): Screenshot {
  const png = PNG.sync.read(data);
  return { width: png.width, height: png.height, format: 'Rgba8', pixels: new Uint8Array(png.data) };
}
