import type { Params, Result } from '../../shared/api/schema.js';
import type { Runtime } from '../runtime/runtime.js';
import { boundsOf } from './bounds.js';
import { captureScreen, elementsAt } from './screen.js';
import { clickAt, scrollAt, typeKeys } from './screen-input.js';
import type { TreeView } from './tree-view.js';

/** The Screen panel's requests (`screen.*`) as the protocol asks and answers them. */

/** A view whose screen can be captured: its tree and the `maxScreenPixels` limit in force. */
export interface ScreenView extends TreeView {
  readonly limits: { readonly maxScreenPixels: number };
}

/** A capture of the desktop or a region, the image in base64 (left out when unchanged since `ifChanged`). */
export async function screenCapture(
  view: ScreenView,
  { region, scale, format, quality, ifChanged, waitMs }: Params<'screen.capture'>,
): Promise<Result<'screen.capture'>> {
  const { image, ...capture } = await captureScreen(
    view.runtime,
    { ...(region ? { region } : {}), scale, format, quality, waitMs, ...(ifChanged ? { ifChanged } : {}) },
    view.limits.maxScreenPixels,
  );
  return { ...capture, ...(image ? { data: image.toString('base64') } : {}) };
}

/** The elements at a desktop point, deepest first, summarized with their bounds (null without). */
export async function screenElementAt(
  view: TreeView,
  point: Params<'screen.elementAt'>,
): Promise<Result<'screen.elementAt'>> {
  return {
    stack: (await elementsAt(view.runtime, point)).map(({ node, bounds }) => ({
      node: view.summarize(node),
      bounds: bounds ?? null,
    })),
  };
}

/** The Bounds of nodes, in order: null for a node without Bounds or one no longer known. */
export async function screenBounds(
  runtime: Runtime,
  { runtimeIds }: Params<'screen.bounds'>,
): Promise<Result<'screen.bounds'>> {
  return {
    rects: await Promise.all(
      runtimeIds.map(async (id) => {
        const node = runtime.node(id);
        return (node && (await boundsOf(node))) ?? null;
      }),
    ),
  };
}

export async function screenClick(
  runtime: Runtime,
  { x, y, button, count }: Params<'screen.click'>,
): Promise<Result<'screen.click'>> {
  await clickAt(runtime, { x, y }, button, count);
  return { done: true };
}

export async function screenScroll(
  runtime: Runtime,
  { x, y, deltaX, deltaY }: Params<'screen.scroll'>,
): Promise<Result<'screen.scroll'>> {
  await scrollAt(runtime, { x, y }, deltaX, deltaY);
  return { done: true };
}

export async function screenType(runtime: Runtime, { keys }: Params<'screen.type'>): Promise<Result<'screen.type'>> {
  await typeKeys(runtime, keys);
  return { done: true };
}
