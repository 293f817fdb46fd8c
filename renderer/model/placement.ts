/** Where an outlined element is, seen from the screens: what the UI says after outlining it. */
import type { Rect } from '../../shared/model/values.js';

/** How long a highlight asked for from the UI stays on screen. */
export const HIGHLIGHT_MS = 3000;

export type Placement = { kind: 'on screen'; rect: Rect } | { kind: 'off screen'; rect: Rect } | { kind: 'no bounds' };

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The first outlined rectangle, on screen when it overlaps a screen; `no bounds` when nothing could be outlined. */
export function placementOf(rects: readonly Rect[], screens: readonly Rect[]): Placement {
  const rect = rects.find((r) => r.width > 0 && r.height > 0) ?? rects[0];
  if (!rect || rect.width <= 0 || rect.height <= 0) return { kind: 'no bounds' };
  return screens.some((screen) => overlaps(rect, screen)) ? { kind: 'on screen', rect } : { kind: 'off screen', rect };
}

export const rectText = (r: Rect) => `${r.x}, ${r.y} · ${r.width}×${r.height}`;

export function placementText(placement: Placement): string {
  switch (placement.kind) {
    case 'on screen':
      return `Outlined at ${rectText(placement.rect)}`;
    case 'off screen':
      return `Off screen: at ${rectText(placement.rect)}, outside every monitor; nothing visible is outlined`;
    case 'no bounds':
      return 'No bounds: this element has no place on screen to outline';
  }
}
