import { crc32 } from 'node:zlib';
import { InspectorError } from '../../shared/model/errors.js';
import type { Point, Rect } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import { encodeJpeg, scaleDown } from '../runtime/screenshot-image.js';
import { encodePngFast } from '../runtime/screenshot-png.js';
import type { ScreenshotDevice } from '../core/platform.js';
import { boundsOf } from './bounds.js';
import { ScreenChangeTracker } from './screen-changes.js';
import { elementStacksAtPoint } from './hit-test.js';

/**
 * The screen as the Screen panel sees it: captures of the desktop (or a region) at a scale with the transform from
 * desktop to image coordinates, and the elements under a desktop point through the one hit test.
 */

export type ScreenImageFormat = 'png' | 'jpeg';

export interface ScreenCaptureRequest {
  region?: Rect;
  /** Image pixels per desktop pixel, at most 1. */
  scale: number;
  format: ScreenImageFormat;
  /** JPEG quality, 1 to 100. */
  quality: number;
  /** The digest of an earlier capture: when the screen still looks the same, no image is encoded. */
  ifChanged?: string;
  /**
   * With `ifChanged`, and where the platform reports screen changes: wait up to this long for the screen to change
   * since that capture before capturing (a long poll; 0 captures at once).
   */
  waitMs?: number;
}

export interface ScreenCapture {
  changed: boolean;
  /** Names the pixels, the size and the format (the same digest means the same image). */
  digest: string;
  region: Rect;
  width: number;
  height: number;
  /** image = desktop × scale + (x, y) */
  transform: { scale: number; x: number; y: number };
  mimeType: string;
  /** The encoded image; absent when unchanged. */
  image?: Buffer;
  /** The platform reports screen changes: a client may long-poll with `waitMs` instead of polling. */
  changeEvents: boolean;
  /** How long the capture waited for a change (`waitMs`) before it started. */
  waitedMs: number;
}

/** The region in whole desktop pixels, clipped to the desktop; invalid-input when nothing of it is on the desktop. */
export function clipRegion(region: Rect | undefined, desktop: Rect): Rect {
  if (!region) return desktop;
  const x = Math.max(Math.floor(region.x), desktop.x);
  const y = Math.max(Math.floor(region.y), desktop.y);
  const right = Math.min(Math.ceil(region.x + region.width), desktop.x + desktop.width);
  const bottom = Math.min(Math.ceil(region.y + region.height), desktop.y + desktop.height);
  if (right <= x || bottom <= y) {
    throw new InspectorError(
      'invalid-input',
      `region ${region.x},${region.y},${region.width}x${region.height} lies outside the desktop ` +
        `${desktop.x},${desktop.y},${desktop.width}x${desktop.height}`,
      { path: 'params.region' },
    );
  }
  return { x, y, width: right - x, height: bottom - y };
}

/** The image's size at a scale; limit-exceeded, naming the largest scale that fits, past `maxPixels`. */
export function imageSize(region: Rect, scale: number, maxPixels: number): { width: number; height: number } {
  const width = Math.max(1, Math.round(region.width * scale));
  const height = Math.max(1, Math.round(region.height * scale));
  if (width * height > maxPixels) {
    const fits = Math.floor(Math.sqrt(maxPixels / (region.width * region.height)) * 100) / 100;
    throw new InspectorError(
      'limit-exceeded',
      `a ${width}x${height} image has more than ${maxPixels} pixels (limits.maxScreenPixels); ask for scale ${fits} or less`,
      { path: 'params.scale' },
    );
  }
  return { width, height };
}

/** One capture at a time per runtime: a client polling fast waits instead of piling captures up. */
const captureQueues = new WeakMap<Runtime, Promise<unknown>>();
const trackers = new WeakMap<ScreenshotDevice, ScreenChangeTracker>();

function trackerOf(device: ScreenshotDevice | undefined): ScreenChangeTracker | undefined {
  if (!device?.watchChanges) return undefined;
  let tracker = trackers.get(device);
  if (!tracker) trackers.set(device, (tracker = new ScreenChangeTracker(device)));
  return tracker;
}

export async function captureScreen(
  runtime: Runtime,
  request: ScreenCaptureRequest,
  maxPixels: number,
): Promise<ScreenCapture> {
  const tracker = trackerOf(runtime.platform?.screenshot);
  const waitStart = performance.now();
  if (tracker && request.ifChanged !== undefined && request.waitMs) {
    await tracker.changeSince(request.ifChanged, request.waitMs);
  }
  const waitedMs = Math.round(performance.now() - waitStart);
  const previous = captureQueues.get(runtime) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => ({ ...(await capture(runtime, request, maxPixels, tracker)), waitedMs }));
  captureQueues.set(runtime, next);
  return next;
}

async function capture(
  runtime: Runtime,
  request: ScreenCaptureRequest,
  maxPixels: number,
  tracker: ScreenChangeTracker | undefined,
): Promise<Omit<ScreenCapture, 'waitedMs'>> {
  const device = runtime.platform?.screenshot;
  if (!device) throw new InspectorError('unsupported', 'this platform cannot take screenshots');
  const generation = tracker?.captureStarts();
  const desktop = runtime.desktopInfo.bounds;
  const region = clipRegion(request.region, desktop);
  const { width, height } = imageSize(region, request.scale, maxPixels);
  const shot = await device.capture(request.region ? region : undefined);
  const mimeType = request.format === 'png' ? 'image/png' : 'image/jpeg';
  const quality = request.format === 'jpeg' ? `-q${request.quality}` : '';
  const digest =
    `${crc32(shot.pixels).toString(16)}-${region.x},${region.y},${region.width}x${region.height}` +
    `-${width}x${height}-${request.format}${quality}`;
  const scale = width / region.width;
  const answer = {
    digest,
    region,
    width,
    height,
    transform: { scale, x: -region.x * scale, y: -region.y * scale },
    mimeType,
    changeEvents: tracker !== undefined,
  };
  if (generation !== undefined) tracker!.captured(digest, generation);
  if (request.ifChanged === digest) return { ...answer, changed: false };
  const scaled = scaleDown(shot, width, height);
  const image = request.format === 'png' ? encodePngFast(scaled) : encodeJpeg(scaled, request.quality);
  return { ...answer, changed: true, image };
}

export interface ScreenHitNode {
  node: RuntimeNode;
  bounds: Rect | undefined;
}

/** The elements at a desktop point, deepest first, through the one hit test (`pick`); empty when nothing is there. */
export async function elementsAt(runtime: Runtime, point: Point): Promise<ScreenHitNode[]> {
  const [stack] = await elementStacksAtPoint(runtime, point);
  return Promise.all((stack ?? []).map(async (node) => ({ node, bounds: await boundsOf(node) })));
}
