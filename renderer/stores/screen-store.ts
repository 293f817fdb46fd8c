/**
 * The Screen panel: the live desktop image (refreshed while the panel is visible: a long poll that the host answers
 * when the screen changed, X DAMAGE; where the host cannot tell, every REFRESH_MS a capture that it answers without
 * an image when nothing changed), what is under the pointer (the host's one hit test, the
 * same as `pick`), boxes for the selected node, the hovered tree row, the XPath matches and the last "Highlight all",
 * and interact mode's clicks, wheel and keys, sent in order.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../../shared/api/client.js';
import type { ScreenHit, ScreenTransform } from '../../shared/api/schema.js';
import type { Point, Rect } from '../../shared/model/values.js';
import { errorOf } from '../model/errors.js';

/** How often a visible panel asks for the screen where the host is not told of changes (at most 1 s behind). */
export const REFRESH_MS = 500;
/** Where the host is told of changes: each request waits on the host up to this long for the next one. */
export const CHANGE_WAIT_MS = 1000;
/** The least time between two captures while the screen keeps changing (an animation): frames stay quick. */
export const MIN_GAP_MS = 200;
/** The panel asks for at most this many pixels (a larger desktop comes scaled down; the default host limit is 4K). */
export const PANEL_PIXELS = 1920 * 1080 * 2;
/** XPath matches drawn at most (their Bounds come in one request). */
export const MAX_MATCH_BOXES = 2000;

export interface ScreenImage {
  /** An object URL of the encoded image. */
  url: string;
  width: number;
  height: number;
  transform: ScreenTransform;
  region: Rect;
  digest: string;
  /** performance.now() when the capture was asked for (the frame's time is measured from it to the decoded image). */
  requestedAt: number;
}

export interface ScreenBoxes {
  selected: Rect | undefined;
  hovered: Rect | undefined;
  matches: Rect[];
  /** What the last "Highlight all" (or Highlight) drew on the real screen. */
  highlighted: Rect[];
  /** The tab order's numbered stops (the Checks panel's "Tab order"), until cleared. */
  tabOrder: TabMarker[];
}

/** A tab stop on the screen view: its bounds and its position in the tab order (1 = where the walk began). */
export interface TabMarker {
  rect: Rect;
  number: number;
}

export interface ScreenState {
  visible: boolean;
  image: ScreenImage | undefined;
  /** 'fit' follows the viewport; a number is CSS pixels per desktop pixel. */
  zoom: 'fit' | number;
  interact: boolean;
  /** The elements under the pointer, deepest first, and which of them is chosen (the wheel moves it). */
  hover: { point: Point; stack: ScreenHit[]; depth: number } | undefined;
  boxes: ScreenBoxes;
  error: string | undefined;
}

export interface ScreenActions {
  setVisible(visible: boolean): void;
  /** Asks for the screen now (once; the refresh goes on while visible). */
  refresh(): Promise<void>;
  /** 'fit', or CSS pixels per desktop pixel. */
  setZoom(zoom: 'fit' | number): void;
  /**
   * The view shows this many CSS (device) pixels per desktop pixel: captures come at the scale that covers it (in
   * steps of a quarter, at most 1), so a panel showing a quarter of the desktop's pixels is sent a quarter.
   */
  showAtScale(desktopToDevice: number): void;
  setInteract(interact: boolean): void;
  /** The pointer is over this desktop point (hit-tested, the newest point wins). */
  hoverAt(point: Point): Promise<void>;
  leave(): void;
  /** Moves the chosen element of the hover stack: +1 towards the window, -1 deeper. */
  cycle(delta: number): void;
  /** The element chosen at the point (the hover stack's when it is for that point). */
  elementAt(point: Point): Promise<ScreenHit | undefined>;
  click(point: Point, button: 'left' | 'middle' | 'right'): Promise<void>;
  scroll(point: Point, deltaX: number, deltaY: number): Promise<void>;
  type(keys: string): Promise<void>;
  /** Shows Bounds: the selected node, the hovered tree row, the XPath matches. */
  showSelected(runtimeId: string | undefined): Promise<void>;
  showHoveredRow(runtimeId: string | undefined): Promise<void>;
  showMatches(runtimeIds: string[]): Promise<void>;
  /** Boxes for what "Highlight all" (or Highlight) drew on the real screen, for as long as it stays there. */
  showHighlighted(rects: Rect[], durationMs: number): void;
  /** Numbers the tab order's stops on the view (an empty list clears them). */
  showTabOrder(markers: TabMarker[]): void;
  dispose(): void;
}

export type ScreenStore = StoreApi<ScreenState & ScreenActions>;

function decodeBase64(data: string): Uint8Array<ArrayBuffer> {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

const samePoint = (a: Point | undefined, b: Point) => a !== undefined && a.x === b.x && a.y === b.y;

export function createScreenStore(client: InspectorClient, options: { refreshMs?: number } = {}): ScreenStore {
  const refreshMs = options.refreshMs ?? REFRESH_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let highlightTimer: ReturnType<typeof setTimeout> | undefined;
  let capturing: Promise<void> | undefined;
  let hoverBusy: Promise<void> | undefined;
  let nextHover: Point | undefined;
  let input: Promise<unknown> = Promise.resolve();
  let scale: number | undefined;
  let largest: number | undefined;
  /** The host said it is told of screen changes: refreshes are long polls. */
  let changeEvents = false;
  const tickets = { selected: 0, hovered: 0, matches: 0 };

  const store = createStore<ScreenState & ScreenActions>()((set, get) => {
    /** The refresh loop: one request at a time, a long poll where the host is told of changes. */
    let looping = false;
    const schedule = (delayMs: number) => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!get().visible || looping) return;
      timer = setTimeout(() => {
        timer = undefined;
        looping = true;
        void capture(true).finally(() => {
          looping = false;
          schedule(changeEvents && !get().error ? MIN_GAP_MS : refreshMs);
        });
      }, delayMs);
    };

    /** Captures are numbered; an answer older than the image shown (a long poll overtaken by a refresh) is dropped. */
    let captureCount = 0;
    let shownCount = 0;
    const capture = async (mayWait: boolean) => {
      const count = ++captureCount;
      const requestedAt = performance.now();
      const previous = get().image;
      try {
        if (largest === undefined) {
          const { width, height } = (await client.desktop()).bounds;
          largest = Math.max(0.01, Math.min(1, Math.floor(Math.sqrt(PANEL_PIXELS / (width * height)) * 100) / 100));
        }
        const wanted = Math.min(scale ?? 1, largest);
        const current = previous && previous.transform.scale === wanted;
        const waitMs = mayWait && changeEvents ? CHANGE_WAIT_MS : 0;
        const shot = await client.captureScreen({
          scale: wanted,
          ...(current ? { ifChanged: previous.digest, waitMs } : {}),
        });
        changeEvents = shot.changeEvents;
        if (count < shownCount) return;
        if (!shot.changed || !shot.data) {
          if (get().error) set({ error: undefined });
          return;
        }
        shownCount = count;
        const url = URL.createObjectURL(new Blob([decodeBase64(shot.data)], { type: shot.mimeType }));
        const shown = get().image;
        if (shown) URL.revokeObjectURL(shown.url);
        set({
          image: {
            url,
            width: shot.width,
            height: shot.height,
            transform: shot.transform,
            region: shot.region,
            digest: shot.digest,
            // A long poll's frame is timed from the change the host waited for, not from the request.
            requestedAt: requestedAt + shot.waitedMs,
          },
          error: undefined,
        });
      } catch (error) {
        set({ error: `The screen could not be captured: ${errorOf(error)}` });
      }
    };

    /** Bounds of nodes; undefined where a node has none. A failure (the host went away) shows nothing. */
    const boundsOf = async (runtimeIds: string[]): Promise<Array<Rect | undefined>> => {
      if (runtimeIds.length === 0) return [];
      try {
        return (await client.boundsOf(runtimeIds)).rects.map((rect) => rect ?? undefined);
      } catch {
        return runtimeIds.map(() => undefined);
      }
    };

    let soonTimer: ReturnType<typeof setTimeout> | undefined;
    const refreshAfter = (delayMs: number) => {
      if (soonTimer) clearTimeout(soonTimer);
      soonTimer = setTimeout(() => {
        soonTimer = undefined;
        if (get().visible) void get().refresh();
      }, delayMs);
    };

    /** Interact mode's requests go one after another, so typed keys arrive in order. */
    const queued = <T>(send: () => Promise<T>): Promise<void> => {
      const next = input.then(send, send);
      input = next.catch(() => undefined);
      return next.then(
        () => {
          // Where the host is told of changes, the application's reaction answers the long poll.
          if (!changeEvents) refreshAfter(100);
        },
        (error: unknown) => set({ error: `The application did not get the input: ${errorOf(error)}` }),
      );
    };

    return {
      visible: false,
      image: undefined,
      zoom: 'fit',
      interact: false,
      hover: undefined,
      boxes: { selected: undefined, hovered: undefined, matches: [], highlighted: [], tabOrder: [] },
      error: undefined,

      setVisible(visible) {
        if (visible === get().visible) return;
        set({ visible });
        if (visible)
          void get()
            .refresh()
            .then(() => schedule(0));
        else if (timer) {
          clearTimeout(timer);
          timer = undefined;
        }
      },

      refresh() {
        capturing ??= capture(false).finally(() => (capturing = undefined));
        return capturing;
      },

      setZoom(zoom) {
        set({ zoom });
      },

      showAtScale(desktopToDevice) {
        const wanted = Math.min(1, Math.max(0.25, Math.ceil(desktopToDevice * 4) / 4));
        if (wanted === scale) return;
        scale = wanted;
        if (get().visible) void get().refresh();
      },

      setInteract(interact) {
        set({ interact, hover: interact ? undefined : get().hover });
      },

      hoverAt(point) {
        if (samePoint(get().hover?.point, point)) return Promise.resolve();
        nextHover = point;
        hoverBusy ??= (async () => {
          try {
            while (nextHover) {
              const at = nextHover;
              nextHover = undefined;
              try {
                const { stack } = await client.elementAt(at.x, at.y);
                set({ hover: { point: at, stack, depth: 0 } });
              } catch (error) {
                set({ hover: undefined, error: `Nothing could be found under the pointer: ${errorOf(error)}` });
              }
            }
          } finally {
            hoverBusy = undefined;
          }
        })();
        return hoverBusy;
      },

      leave() {
        nextHover = undefined;
        set({ hover: undefined });
      },

      cycle(delta) {
        const hover = get().hover;
        if (!hover || hover.stack.length === 0) return;
        const depth = Math.max(0, Math.min(hover.stack.length - 1, hover.depth + delta));
        set({ hover: { ...hover, depth } });
      },

      async elementAt(point) {
        // The pointer got there first: the hit test for this point may be on its way already.
        if (hoverBusy && (samePoint(nextHover, point) || !nextHover)) await hoverBusy;
        const hover = get().hover;
        if (hover && samePoint(hover.point, point)) return hover.stack[hover.depth];
        const { stack } = await client.elementAt(point.x, point.y);
        set({ hover: { point, stack, depth: 0 } });
        return stack[0];
      },

      click(point, button) {
        return queued(() => client.clickScreen(point.x, point.y, { button }));
      },

      scroll(point, deltaX, deltaY) {
        return queued(() => client.scrollScreen(point.x, point.y, deltaX, deltaY));
      },

      type(keys) {
        return queued(() => client.typeKeys(keys));
      },

      async showSelected(runtimeId) {
        const mine = ++tickets.selected;
        const [rect] = runtimeId ? await boundsOf([runtimeId]) : [undefined];
        if (mine === tickets.selected) set({ boxes: { ...get().boxes, selected: rect } });
      },

      async showHoveredRow(runtimeId) {
        const mine = ++tickets.hovered;
        const [rect] = runtimeId ? await boundsOf([runtimeId]) : [undefined];
        if (mine === tickets.hovered) set({ boxes: { ...get().boxes, hovered: rect } });
      },

      async showMatches(runtimeIds) {
        const mine = ++tickets.matches;
        const rects = await boundsOf(runtimeIds.slice(0, MAX_MATCH_BOXES));
        const matches = rects.filter((rect): rect is Rect => rect !== undefined);
        if (mine === tickets.matches) set({ boxes: { ...get().boxes, matches } });
      },

      showHighlighted(rects, durationMs) {
        if (highlightTimer) clearTimeout(highlightTimer);
        set({ boxes: { ...get().boxes, highlighted: rects } });
        highlightTimer = setTimeout(() => set({ boxes: { ...get().boxes, highlighted: [] } }), durationMs);
      },

      showTabOrder(markers) {
        set({ boxes: { ...get().boxes, tabOrder: markers } });
      },

      dispose() {
        if (highlightTimer) clearTimeout(highlightTimer);
        if (soonTimer) clearTimeout(soonTimer);
        if (timer) clearTimeout(timer);
        timer = undefined;
        const image = get().image;
        if (image) URL.revokeObjectURL(image.url);
        set({ visible: false, image: undefined });
      },
    };
  });
  return store;
}
