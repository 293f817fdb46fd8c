/**
 * Text contrast from screen pixels (WCAG 2.2, 1.4.3): the background is the most frequent colour inside a text
 * element's bounds, the foreground the colour, among those covering a real share of the rest, that stands out from it
 * most (anti-aliased edges are blends of the two and stand out less). Colours are grouped by their upper 5 bits per
 * channel, so noise and dithering do not split one colour into many.
 */

export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

export interface ContrastEstimate {
  readonly foreground: Rgb;
  readonly background: Rgb;
  /** The WCAG contrast ratio, 1 to 21. */
  readonly ratio: number;
}

/** Pixels of a region, 4 bytes each, rows top to bottom. */
export interface PixelRegion {
  readonly width: number;
  readonly height: number;
  readonly format: 'Rgba8' | 'Bgra8';
  readonly pixels: Uint8Array;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of an sRGB colour. */
export function relativeLuminance({ r, g, b }: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG's large text: at least 18 pt, or 14 pt and bold. */
export function isLargeText(sizePt: number | undefined, bold: boolean): boolean {
  if (sizePt === undefined) return false;
  return sizePt >= 18 || (bold && sizePt >= 14);
}

/** The minimum ratio WCAG 1.4.3 asks of text: 3:1 for large text, 4.5:1 otherwise. */
export function requiredContrast(large: boolean): number {
  return large ? 3 : 4.5;
}

/** Fewer differing pixels than this is no text at all (an empty or blank region). */
const MIN_FOREGROUND_PIXELS = 4;
/**
 * The text colour is taken at this rank of the differing pixels ordered by how much they stand out: glyph cores
 * stand out most, anti-aliased edges less; a rank below the very top keeps a few stray pixels from deciding.
 */
const FOREGROUND_RANK = 0.95;
/** Pixels this close to the background (ratio) are the background's own shading, not text. */
const SAME_AS_BACKGROUND = 1.1;

/** Linear light of each 8-bit sRGB channel value, so that a pixel's luminance costs three lookups. */
const LINEAR = Float64Array.from({ length: 256 }, (_, value) => channel(value));

/** Estimates the contrast of the text drawn in a region; undefined when the region holds one colour only. */
export function estimateContrast(region: PixelRegion): ContrastEstimate | undefined {
  const { pixels, width, height } = region;
  const [ri, bi] = region.format === 'Rgba8' ? [0, 2] : [2, 0];
  const total = Math.min(width * height, Math.floor(pixels.length / 4));
  if (total === 0) return undefined;
  const counts = new Uint32Array(1 << 15);
  const keys = new Uint16Array(total);
  let backgroundKey = 0;
  for (let i = 0, o = 0; i < total; i++, o += 4) {
    const key = ((pixels[o + ri]! >> 3) << 10) | ((pixels[o + 1]! >> 3) << 5) | (pixels[o + bi]! >> 3);
    keys[i] = key;
    if (++counts[key]! > counts[backgroundKey]!) backgroundKey = key;
  }
  let r = 0;
  let g = 0;
  let b = 0;
  for (let i = 0, o = 0; i < total; i++, o += 4) {
    if (keys[i] !== backgroundKey) continue;
    r += pixels[o + ri]!;
    g += pixels[o + 1]!;
    b += pixels[o + bi]!;
  }
  const count = counts[backgroundKey]!;
  const background = { r: Math.round(r / count), g: Math.round(g / count), b: Math.round(b / count) };
  const backgroundLuminance = relativeLuminance(background);
  const ratios: number[] = [];
  const indices: number[] = [];
  for (let i = 0, o = 0; i < total; i++, o += 4) {
    const luminance =
      0.2126 * LINEAR[pixels[o + ri]!]! + 0.7152 * LINEAR[pixels[o + 1]!]! + 0.0722 * LINEAR[pixels[o + bi]!]!;
    const ratio = (Math.max(luminance, backgroundLuminance) + 0.05) / (Math.min(luminance, backgroundLuminance) + 0.05);
    if (ratio < SAME_AS_BACKGROUND) continue;
    ratios.push(ratio);
    indices.push(o);
  }
  if (ratios.length < MIN_FOREGROUND_PIXELS) return undefined;
  const order = Array.from(ratios.keys()).sort((x, y) => ratios[x]! - ratios[y]!);
  const chosen = order[Math.min(order.length - 1, Math.floor(order.length * FOREGROUND_RANK))]!;
  const o = indices[chosen]!;
  const foreground = { r: pixels[o + ri]!, g: pixels[o + 1]!, b: pixels[o + bi]! };
  return { foreground, background, ratio: ratios[chosen]! };
}

export function hexColour({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Whether text attributes (AT-SPI's `size`/`font-size` and `weight`/`font-weight`) make the text large: sizes in
 * points, or pixels at 96 dpi (`16px` is 12 pt); weights 700 and up, or `bold`.
 */
export function isLargeByTextAttributes(attributes: { readonly [name: string]: string }): boolean {
  const size = attributes['size'] ?? attributes['font-size'];
  const match = size ? /^\s*([\d.]+)\s*(pt|px)?\s*$/i.exec(size) : null;
  const points = match ? Number(match[1]) * (match[2]?.toLowerCase() === 'px' ? 0.75 : 1) : undefined;
  const weight = (attributes['weight'] ?? attributes['font-weight'] ?? '').trim().toLowerCase();
  const bold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 700;
  return isLargeText(points !== undefined && Number.isFinite(points) ? points : undefined, bold);
}
