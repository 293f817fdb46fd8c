import { InspectorError } from '../../../shared/model/errors.js';
import type { Rect } from '../../../shared/model/values.js';
import {
  AllPlanes,
  XImageHead,
  ZPixmap,
  copyBytes,
  readStruct,
  type XImageHeadValue,
} from '../../../native/x11/xlib.js';
import type { Screenshot, ScreenshotDevice } from '../../core/platform.js';
import type { X11Connection } from './connection.js';
import type { X11ScreenChanges } from './screen-changes.js';

/** Intersection of two rectangles (integer pixels); undefined when they do not overlap. */
export function intersectRect(a: Rect, b: Rect): Rect | undefined {
  const x1 = Math.max(Math.floor(a.x), Math.floor(b.x));
  const y1 = Math.max(Math.floor(a.y), Math.floor(b.y));
  const x2 = Math.min(Math.ceil(a.x + a.width), Math.ceil(b.x + b.width));
  const y2 = Math.min(Math.ceil(a.y + a.height), Math.ceil(b.y + b.height));
  if (x2 <= x1 || y2 <= y1) return undefined;
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

/**
 * Screenshots with XGetImage on the root window (what is on screen, override-redirect windows included). A region is
 * clipped to the desktop; the pixels come back opaque (see toScreenshot).
 */
export class X11ScreenshotDevice implements ScreenshotDevice {
  constructor(
    private readonly connection: X11Connection,
    private readonly desktopBounds: () => Rect,
    changes?: X11ScreenChanges,
  ) {
    if (changes) this.watchChanges = (listener) => changes.watch(listener);
  }

  readonly watchChanges?: (listener: () => void) => () => void;

  async capture(region?: Rect): Promise<Screenshot> {
    const desktop = this.desktopBounds();
    const area = region ? intersectRect(region, desktop) : desktop;
    if (!area) {
      throw new InspectorError(
        'invalid-input',
        `the region ${region!.x},${region!.y},${region!.width}x${region!.height} lies outside the desktop ` +
          `${desktop.x},${desktop.y},${desktop.width}x${desktop.height}`,
      );
    }
    const c = this.connection;
    const image = c.checkedReply('capturing the screen', () =>
      c.xlib.XGetImage(c.display, c.root, area.x, area.y, area.width, area.height, AllPlanes, ZPixmap),
    );
    if (!image) throw new InspectorError('action-failed', 'XGetImage returned no image');
    try {
      const head = readStruct<XImageHeadValue>(image, XImageHead);
      return toScreenshot(head, copyBytes(head.data!, head.bytes_per_line * head.height));
    } finally {
      c.xlib.XDestroyImage(image);
    }
  }
}

/**
 * Converts a ZPixmap of 16/24/32 bits per pixel (TrueColor masks) into packed pixels: the common little-endian BGRX
 * layout becomes Rgba8 in one pass of 32-bit words (the live Screen view's capture path), others Bgra8 per channel.
 */
export function toScreenshot(head: XImageHeadValue, data: Uint8Array): Screenshot {
  const { width, height } = head;
  const red = Number(head.red_mask);
  const green = Number(head.green_mask);
  const blue = Number(head.blue_mask);
  if (head.bits_per_pixel === 32 && head.byte_order === 0 && red === 0xff0000 && green === 0xff00 && blue === 0xff) {
    const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
    const source = new Uint32Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 4));
    const target = new Uint32Array(width * height);
    const wordsPerLine = head.bytes_per_line / 4;
    for (let y = 0; y < height; y++) {
      let from = y * wordsPerLine;
      let to = y * width;
      for (const end = to + width; to < end; to++, from++) {
        const bgrx = source[from]!;
        // Little-endian words: BGRX reads as 0xXXRRGGBB; opaque RGBA is 0xFFBBGGRR.
        target[to] = 0xff000000 | ((bgrx >>> 16) & 0xff) | (bgrx & 0xff00) | ((bgrx & 0xff) << 16);
      }
    }
    return { width, height, format: 'Rgba8', pixels: new Uint8Array(target.buffer) };
  }
  const pixels = new Uint8Array(width * height * 4);
  if (head.bits_per_pixel !== 32 && head.bits_per_pixel !== 24 && head.bits_per_pixel !== 16) {
    throw new InspectorError('unsupported', `screenshots of ${head.bits_per_pixel}-bit visuals are not supported`);
  }
  const bytes = head.bits_per_pixel / 8;
  const shiftOf = (mask: number) => (mask === 0 ? 0 : 31 - Math.clz32(mask & -mask));
  const widthOf = (mask: number) => (mask === 0 ? 1 : 32 - Math.clz32(mask) - shiftOf(mask));
  const channel = (value: number, mask: number) => {
    const bits = widthOf(mask);
    const raw = ((value & mask) >>> shiftOf(mask)) & ((1 << bits) - 1);
    return Math.round((raw * 255) / ((1 << bits) - 1));
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * head.bytes_per_line + x * bytes;
      let value = 0;
      for (let b = 0; b < bytes; b++) {
        const byte = data[at + b]!;
        value = head.byte_order === 0 ? value | (byte << (8 * b)) : (value << 8) | byte;
      }
      value >>>= 0;
      const out = (y * width + x) * 4;
      pixels[out] = channel(value, blue);
      pixels[out + 1] = channel(value, green);
      pixels[out + 2] = channel(value, red);
      pixels[out + 3] = 255;
    }
  }
  return { width, height, format: 'Bgra8', pixels };
}
