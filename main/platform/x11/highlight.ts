import type { Rect } from '../../../shared/model/values.js';
import {
  CWBackPixel,
  CWBorderPixel,
  CWOverrideRedirect,
  CWSaveUnder,
  CopyFromParent,
  InputOutput,
  PropModeReplace,
  XA_CARDINAL,
  type XSetWindowAttributesValue,
} from '../../../native/x11/xlib.js';
import { ShapeInput, ShapeSet, Unsorted, type XShape } from '../../../native/x11/xshape.js';
import type { HighlightDevice, HighlightRequest } from '../../core/platform.js';
import type { X11Connection } from './connection.js';
import { intersectRect } from './screenshot.js';
import { digitBars } from './digit-bars.js';

export const HIGHLIGHT_THICKNESS = 3;
export const HIGHLIGHT_COLOR = { red: 0xff, green: 0x30, blue: 0x30 };

/**
 * The four bars of a frame drawn just outside `rect`, clipped to the desktop: the outer rectangle is clamped first,
 * so a rectangle covering the whole screen still shows a frame along the screen's edges.
 */
export function frameBars(rect: Rect, desktop: Rect, thickness = HIGHLIGHT_THICKNESS): Rect[] {
  const inner = intersectRect(rect, desktop);
  if (!inner) return [];
  const outer = intersectRect(
    {
      x: inner.x - thickness,
      y: inner.y - thickness,
      width: inner.width + 2 * thickness,
      height: inner.height + 2 * thickness,
    },
    desktop,
  )!;
  const t = Math.min(thickness, Math.floor(outer.width / 2), Math.floor(outer.height / 2));
  if (t <= 0) return [outer];
  const bars = [
    { x: outer.x, y: outer.y, width: outer.width, height: t },
    { x: outer.x, y: outer.y + outer.height - t, width: outer.width, height: t },
    { x: outer.x, y: outer.y + t, width: t, height: outer.height - 2 * t },
    { x: outer.x + outer.width - t, y: outer.y + t, width: t, height: outer.height - 2 * t },
  ];
  return bars.filter((bar) => bar.width > 0 && bar.height > 0);
}

/**
 * Highlights as native override-redirect windows: each rectangle becomes four thin solid windows the server paints
 * itself (no compositor, no drawing loop). The window manager never sees them, so they take no focus; an empty input
 * shape (SHAPE extension) lets clicks through. One highlight at a time; a duration clears it by itself.
 */
export class X11HighlightDevice implements HighlightDevice {
  private windows: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pixel: number | undefined;
  private generation = 0;

  constructor(
    private readonly connection: X11Connection,
    private readonly shape: XShape | undefined,
    private readonly desktopBounds: () => Rect,
  ) {}

  /** The overlay windows currently shown (the window manager leaves them out of picking). */
  ownWindows(): ReadonlySet<number> {
    return new Set(this.windows);
  }

  async highlight(request: HighlightRequest): Promise<void> {
    this.removeWindows();
    const desktop = this.desktopBounds();
    const bars = [
      ...request.rects.flatMap((rect) => frameBars(rect, desktop)),
      ...(request.labels ?? []).flatMap((label) => digitBars(label.text, label.at, desktop)),
    ];
    const c = this.connection;
    const pixel = this.colorPixel();
    const attributes: XSetWindowAttributesValue = {
      background_pixmap: 0,
      background_pixel: pixel,
      border_pixmap: 0,
      border_pixel: pixel,
      bit_gravity: 0,
      win_gravity: 0,
      backing_store: 0,
      backing_planes: 0,
      backing_pixel: 0,
      save_under: 1,
      event_mask: 0,
      do_not_propagate_mask: 0,
      override_redirect: 1,
      colormap: 0,
      cursor: 0,
    };
    const pid = new Uint8Array(new BigUint64Array([BigInt(process.pid)]).buffer);
    c.checked('drawing the highlight', () => {
      for (const bar of bars) {
        const id = c.xlib.XCreateWindow(
          c.display,
          c.root,
          bar.x,
          bar.y,
          bar.width,
          bar.height,
          0,
          CopyFromParent,
          InputOutput,
          null,
          CWBackPixel | CWBorderPixel | CWOverrideRedirect | CWSaveUnder,
          attributes,
        );
        this.windows.push(id);
        c.xlib.XChangeProperty(c.display, id, c.atom('_NET_WM_PID'), XA_CARDINAL, 32, PropModeReplace, pid, 1);
        this.shape?.XShapeCombineRectangles(c.display, id, ShapeInput, 0, 0, null, 0, ShapeSet, Unsorted);
        c.xlib.XMapRaised(c.display, id);
      }
    });
    const generation = ++this.generation;
    if (request.durationMs !== undefined && request.durationMs >= 0) {
      this.timer = setTimeout(() => {
        if (generation === this.generation) this.removeWindows();
      }, request.durationMs);
    }
  }

  async clear(): Promise<void> {
    this.removeWindows();
  }

  /** True while a highlight is on screen. */
  get isActive(): boolean {
    return this.windows.length > 0;
  }

  private removeWindows(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.generation++;
    if (this.windows.length === 0 || this.connection.isClosed || this.connection.isLost) {
      this.windows = [];
      return;
    }
    const c = this.connection;
    const windows = this.windows;
    this.windows = [];
    c.tolerant(() => {
      for (const id of windows) c.xlib.XDestroyWindow(c.display, id);
    });
  }

  private colorPixel(): number {
    if (this.pixel !== undefined) return this.pixel;
    const c = this.connection;
    const color = {
      pixel: 0,
      red: HIGHLIGHT_COLOR.red * 257,
      green: HIGHLIGHT_COLOR.green * 257,
      blue: HIGHLIGHT_COLOR.blue * 257,
    };
    const ok = c.tolerant(() => c.xlib.XAllocColor(c.display, c.xlib.XDefaultColormap(c.display, c.screen), color));
    this.pixel = ok
      ? Number(color.pixel)
      : (HIGHLIGHT_COLOR.red << 16) | (HIGHLIGHT_COLOR.green << 8) | HIGHLIGHT_COLOR.blue;
    return this.pixel;
  }
}
