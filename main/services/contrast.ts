import { estimateContrast, hexColour, isLargeByTextAttributes } from '../../shared/checks/contrast.js';
import { bounds } from '../../shared/checks/facts.js';
import { attachFact, walkCheckTree, type CheckNode } from '../../shared/checks/model.js';
import { ESTIMATED_CONTRAST, isContrastCandidate } from '../../shared/checks/rules/text-contrast.js';
import type { Screenshot, ScreenshotDevice } from '../core/platform.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { Runtime } from '../runtime/runtime.js';
import { uiBool, uiNumber, uiString, type Rect } from '../../shared/model/values.js';

/** At most this many text elements are measured per run (each costs a pass over its pixels). */
export const MAX_CONTRAST_ELEMENTS = 5000;

/** A screenshot of an area of the screen: `x`, `y` is where its top left pixel lies on the screen. */
interface Shot {
  readonly image: Screenshot;
  readonly x: number;
  readonly y: number;
}

/** The part of a screenshot inside a rectangle in screen coordinates (clipped to it), as its own pixel region. */
function crop({ image: shot, x, y }: Shot, rect: Rect) {
  const x0 = Math.max(0, Math.floor(rect.x) - x);
  const y0 = Math.max(0, Math.floor(rect.y) - y);
  const x1 = Math.min(shot.width, Math.ceil(rect.x + rect.width) - x);
  const y1 = Math.min(shot.height, Math.ceil(rect.y + rect.height) - y);
  if (x1 <= x0 || y1 <= y0) return undefined;
  const width = x1 - x0;
  const pixels = new Uint8Array(width * (y1 - y0) * 4);
  for (let y = y0; y < y1; y++) {
    const start = (y * shot.width + x0) * 4;
    pixels.set(shot.pixels.subarray(start, start + width * 4), (y - y0) * width * 4);
  }
  return { width, height: y1 - y0, format: shot.format, pixels };
}

/** Borders and focus rings sit at an element's edges: a few pixels in from them is what it draws inside. */
const EDGE_PIXELS = 3;

function inset(box: Rect): Rect {
  const dx = Math.min(EDGE_PIXELS, Math.floor(box.width / 4));
  const dy = Math.min(EDGE_PIXELS, Math.floor(box.height / 4));
  return { x: box.x + dx, y: box.y + dy, width: box.width - 2 * dx, height: box.height - 2 * dy };
}

function textAttributesOf(node: CheckNode): { [name: string]: string } {
  const value = node.attributes.get('native:Text.Attributes');
  const out: { [name: string]: string } = {};
  if (value?.type === 'Object') {
    for (const [key, item] of Object.entries(value.value)) if (item.type === 'String') out[key] = item.value;
  }
  return out;
}

/**
 * One screenshot of the area the boxes cover (the screen's part right and below of its origin). The screen's top
 * left is its origin: a capture is clipped to the screen at the right and the bottom only, so a box lies wholly on
 * the screen exactly when it lies wholly inside the shot. Undefined when the area lies off the screen.
 */
async function captureCovering(device: ScreenshotDevice, boxes: readonly Rect[]): Promise<Shot | undefined> {
  const x = Math.max(0, Math.floor(Math.min(...boxes.map((box) => box.x))));
  const y = Math.max(0, Math.floor(Math.min(...boxes.map((box) => box.y))));
  const right = Math.ceil(Math.max(...boxes.map((box) => box.x + box.width)));
  const bottom = Math.ceil(Math.max(...boxes.map((box) => box.y + box.height)));
  if (right <= x || bottom <= y) return undefined;
  try {
    return { image: await device.capture({ x, y, width: right - x, height: bottom - y }), x, y };
  } catch (error) {
    if (error instanceof InspectorError && error.code === 'invalid-input') return undefined;
    throw error;
  }
}

/**
 * Measures the contrast of every showing text element below the roots from one screenshot (of the area they cover)
 * and attaches it for the text-contrast rule. Only elements wholly on screen are measured (a covered window shows
 * other pixels: the rule trusts the screen as it is). Returns false when the platform takes no screenshots.
 */
export async function measureContrast(runtime: Runtime, roots: readonly CheckNode[]): Promise<boolean> {
  const device = runtime.platform?.screenshot;
  if (!device) return false;
  const candidates: CheckNode[] = [];
  for (const node of walkCheckTree(roots)) {
    if (candidates.length >= MAX_CONTRAST_ELEMENTS) break;
    const box = bounds(node);
    if (box && box.width > 0 && box.height > 0 && isContrastCandidate(node)) candidates.push(node);
  }
  if (candidates.length === 0) return true;
  const shot = await captureCovering(
    device,
    candidates.map((node) => bounds(node)!),
  );
  if (!shot) return true;
  const { image, x, y } = shot;
  for (const node of candidates) {
    const box = bounds(node)!;
    if (box.x < x || box.y < y || box.x + box.width > x + image.width || box.y + box.height > y + image.height)
      continue;
    const region = crop(shot, inset(box));
    const estimate = region && estimateContrast(region);
    if (!estimate) continue;
    attachFact(node, ESTIMATED_CONTRAST, {
      type: 'Object',
      value: {
        // Rounded down: 4.499 must not pass as 4.5.
        ratio: uiNumber(Math.floor(estimate.ratio * 100) / 100),
        foreground: uiString(hexColour(estimate.foreground)),
        background: uiString(hexColour(estimate.background)),
        large: uiBool(isLargeByTextAttributes(textAttributesOf(node))),
      },
    });
  }
  return true;
}
