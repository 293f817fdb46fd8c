import { InspectorError } from '../../shared/model/errors.js';
import type { Rect } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import { boundsOf } from '../services/bounds.js';
import { topLevelOf } from '../services/windows.js';
import type { McpContext } from './context.js';

/** The largest image ui_screenshot sends, per side (larger captures are scaled down to fit). */
export const MAX_IMAGE_SIDE = 1920;
export const DEFAULT_IMAGE_SIDE = 1280;

export type ScreenshotScope = 'desktop' | 'window' | 'element';

export interface ScreenshotAnswer {
  png: Buffer;
  width: number;
  height: number;
  /** The desktop rectangle captured (before scaling). */
  rect: Rect;
  /** Image pixels per desktop pixel (1 when not scaled down). */
  scale: number;
}

async function regionOf(context: McpContext, scope: ScreenshotScope, node: RuntimeNode | undefined): Promise<Rect> {
  const desktop = context.runtime.desktopInfo.bounds;
  if (scope === 'desktop') return desktop;
  if (!node) throw new InspectorError('invalid-input', `scope "${scope}" needs an id`, { path: 'id' });
  const target = scope === 'window' ? topLevelOf(node) : node;
  const bounds = await boundsOf(target);
  if (!bounds || bounds.width <= 0 || bounds.height <= 0) {
    throw new InspectorError('unsupported', `the ${scope} has no bounds on screen to capture`);
  }
  const x = Math.max(desktop.x, Math.floor(bounds.x));
  const y = Math.max(desktop.y, Math.floor(bounds.y));
  const right = Math.min(desktop.x + desktop.width, Math.ceil(bounds.x + bounds.width));
  const bottom = Math.min(desktop.y + desktop.height, Math.ceil(bounds.y + bounds.height));
  if (right <= x || bottom <= y) throw new InspectorError('unsupported', `the ${scope} lies outside the desktop`);
  return { x, y, width: right - x, height: bottom - y };
}

/** The desktop, a node's window or a node as PNG, scaled down to fit maxSide by maxSide. */
export async function screenshot(
  context: McpContext,
  scope: ScreenshotScope,
  node: RuntimeNode | undefined,
  maxSide: number,
): Promise<ScreenshotAnswer> {
  const device = context.runtime.platform?.screenshot;
  if (!device) throw new InspectorError('unsupported', 'this platform cannot take screenshots');
  const rect = await regionOf(context, scope, node);
  const shot = await device.capture(scope === 'desktop' ? undefined : rect);
  const scale = Math.min(1, maxSide / shot.width, maxSide / shot.height);
  const width = Math.max(1, Math.round(shot.width * scale));
  const height = Math.max(1, Math.round(shot.height * scale));
  // The image codecs load with the first screenshot, not with the server (they held its start back).
  const [{ scaleDown }, { encodePng }] = await Promise.all([
    import('../runtime/screenshot-image.js'),
    import('../runtime/screenshot-png.js'),
  ]);
  const scaled = scaleDown(shot, width, height);
  return { png: encodePng(scaled), width: scaled.width, height: scaled.height, rect, scale };
}
