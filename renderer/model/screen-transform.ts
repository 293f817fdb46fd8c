/**
 * Coordinates of the Screen panel. A capture maps the desktop to its image (image = desktop × scale + offset, the
 * host's `transform`); the view shows the image at a zoom (CSS pixels per image pixel) from its top-left corner.
 */
import type { Point, Rect } from '../../shared/model/values.js';
import type { ScreenTransform } from '../../shared/api/schema.js';

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 8;
/** One Ctrl+wheel step zooms by this factor. */
export const ZOOM_STEP = 1.25;

/** A desktop point in the view's CSS pixels. */
export function desktopToView(point: Point, transform: ScreenTransform, zoom: number): Point {
  return {
    x: (point.x * transform.scale + transform.x) * zoom,
    y: (point.y * transform.scale + transform.y) * zoom,
  };
}

/** A point in the view's CSS pixels as a whole desktop pixel (what the hit test and the pointer take). */
export function viewToDesktop(point: Point, transform: ScreenTransform, zoom: number): Point {
  return {
    x: Math.floor((point.x / zoom - transform.x) / transform.scale),
    y: Math.floor((point.y / zoom - transform.y) / transform.scale),
  };
}

/** A desktop rectangle (an element's Bounds) in the view's CSS pixels. */
export function rectToView(rect: Rect, transform: ScreenTransform, zoom: number): Rect {
  const origin = desktopToView(rect, transform, zoom);
  const factor = transform.scale * zoom;
  return { x: origin.x, y: origin.y, width: rect.width * factor, height: rect.height * factor };
}

/** The zoom that shows the whole image in the viewport, scaled uniformly. */
export function fitZoom(image: { width: number; height: number }, viewport: { width: number; height: number }): number {
  if (image.width <= 0 || image.height <= 0 || viewport.width <= 0 || viewport.height <= 0) return 1;
  return clampZoom(Math.min(viewport.width / image.width, viewport.height / image.height));
}

export function clampZoom(zoom: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** One Ctrl+wheel step: wheel up (negative deltaY) zooms in. */
export function zoomStep(zoom: number, deltaY: number): number {
  return clampZoom(deltaY < 0 ? zoom * ZOOM_STEP : zoom / ZOOM_STEP);
}

/**
 * The scroll offset that keeps the content point under the pointer in place when the zoom changes from `from` to `to`
 * (`pointer` is relative to the viewport, `scroll` the viewport's scroll offset before).
 */
export function anchoredScroll(scroll: Point, pointer: Point, from: number, to: number): Point {
  const ratio = to / from;
  return {
    x: Math.max(0, (scroll.x + pointer.x) * ratio - pointer.x),
    y: Math.max(0, (scroll.y + pointer.y) * ratio - pointer.y),
  };
}

/** Browser `KeyboardEvent.key` names the platform keyboard knows by another name. */
const KEY_NAMES: { readonly [key: string]: string } = {
  ' ': 'Space',
  Control: 'Ctrl',
  OS: 'Super',
};

const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'OS']);

/**
 * A key press in the view as a keyboard sequence (the CLI `keyboard type` syntax): a character typed without Ctrl,
 * Alt or Meta as literal text, anything else as a chord (`<Ctrl+a>`, `<Enter>`). Undefined for a lone modifier (it
 * rides along with the next key) and for keys the browser cannot name.
 */
export function keySequence(event: {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}): string | undefined {
  const { key } = event;
  if (MODIFIER_KEYS.has(key) || key === 'Unidentified' || key === 'Dead' || key === '') return undefined;
  const printable = [...key].length === 1;
  const chorded = event.ctrlKey || event.altKey || event.metaKey;
  if (printable && !chorded) return key.replace(/[\\<>]/g, (c) => `\\${c}`);
  const modifiers = [event.ctrlKey && 'Ctrl', event.altKey && 'Alt', event.metaKey && 'Super'].filter(Boolean);
  if (!printable && event.shiftKey) modifiers.push('Shift');
  const name =
    KEY_NAMES[key] ??
    (key === '+' ? 'PLUS' : key === '-' ? 'MINUS' : key === '<' ? 'LESS' : key === '>' ? 'GREATER' : key);
  return `<${[...modifiers, name].join('+')}>`;
}
