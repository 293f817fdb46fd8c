import { InspectorError } from '../../../shared/model/errors.js';
import type { Point, Rect } from '../../../shared/model/values.js';
import { CurrentTime, IsViewable, readULongs, type XWindowAttributesValue } from '../../../native/x11/xlib.js';
import type { WindowId, WindowInfo, WindowManager, WindowQuery } from '../../core/platform.js';
import type { X11Connection } from './connection.js';

const StaticGravity = 10;
/** EWMH source indication: a pager or tool acting for the user (window managers honour it without focus-stealing checks). */
const SOURCE_PAGER = 2;
const STATE_REMOVE = 0;
const STATE_ADD = 1;
const WAIT_MS = 1500;

const contains = (r: Rect, p: Point) => p.x >= r.x && p.y >= r.y && p.x < r.x + r.width && p.y < r.y + r.height;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The EWMH window manager: windows are X ids of client (not frame) windows; operations are requests to the running
 * window manager (openbox, xfwm, mutter...) through root-window client messages, and wait until the effect shows
 * (or a short timeout passes). Stacking comes from the server's own order of the root's children.
 */
export class X11WindowManager implements WindowManager {
  private readonly clientOfFrame = new Map<number, number | null>();

  constructor(
    private readonly connection: X11Connection,
    /** Windows of this process (highlight overlays) that must never be picked. */
    private readonly ownWindows: () => ReadonlySet<number> = () => new Set(),
    /** Processes whose windows picking skips: this one, plus e.g. the Electron main process of the inspector. */
    private readonly ownProcessIds: ReadonlySet<number> = new Set([process.pid]),
  ) {}

  /** Whether the window manager announces an EWMH feature in _NET_SUPPORTED. */
  supports(feature: string): boolean {
    const c = this.connection;
    const atom = c.atom(feature, true);
    return atom !== 0 && c.numbers(c.root, '_NET_SUPPORTED').includes(atom);
  }

  async resolveWindow(query: WindowQuery): Promise<WindowId | undefined> {
    const windows = await this.list();
    let candidates = query.processId !== undefined ? windows.filter((w) => w.processId === query.processId) : windows;
    if (candidates.length === 0) return undefined;
    if (candidates.length === 1 && query.processId !== undefined) return candidates[0]!.id;
    if (query.name !== undefined && query.name !== '') {
      const exact = candidates.filter((w) => w.name === query.name);
      const loose = candidates.filter((w) => w.name.toLowerCase().includes(query.name!.toLowerCase()));
      if (exact.length > 0) candidates = exact;
      else if (loose.length > 0) candidates = loose;
      else if (query.processId === undefined) return undefined;
    } else if (query.processId === undefined && !query.bounds) {
      return undefined;
    }
    if (query.bounds && candidates.length > 1) {
      const b = query.bounds;
      const distance = (w: WindowInfo) =>
        Math.abs(w.bounds.x - b.x) +
        Math.abs(w.bounds.y - b.y) +
        Math.abs(w.bounds.width - b.width) +
        Math.abs(w.bounds.height - b.height);
      candidates = [...candidates].sort((a, z) => distance(a) - distance(z));
    }
    // Prefer the active window among equals, then the topmost.
    const active = candidates.find((w) => w.isActive);
    return (query.bounds ? candidates[0] : (active ?? candidates.at(-1)))?.id;
  }

  async list(): Promise<WindowInfo[]> {
    const c = this.connection;
    let ids = c.numbers(c.root, '_NET_CLIENT_LIST_STACKING');
    if (ids.length === 0) ids = c.numbers(c.root, '_NET_CLIENT_LIST');
    if (ids.length === 0) ids = this.topLevelClients().map((entry) => entry.client);
    const active = this.activeWindow();
    const out: WindowInfo[] = [];
    for (const id of ids) {
      const info = this.info(id, active);
      if (info) out.push(info);
    }
    return out;
  }

  async windowsAtPoint(point: Point): Promise<WindowInfo[]> {
    const own = this.ownWindows();
    const active = this.activeWindow();
    const out: WindowInfo[] = [];
    const entries = this.topLevelClients(point);
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i]!;
      if (own.has(entry.frame) || own.has(entry.client)) continue;
      const info = this.info(entry.client, active);
      if (!info || (info.processId !== undefined && this.ownProcessIds.has(info.processId))) continue;
      out.push(info);
    }
    return out;
  }

  /**
   * Whether the topmost window at the point (the highlight's bars left out) is one of the inspector's own: a window
   * of this process or of PLATYNUI_EXCLUDE_PIDS.
   */
  ownsTopLevelAt(point: Point): boolean {
    const own = this.ownWindows();
    const entries = this.topLevelClients(point).filter((e) => !own.has(e.frame) && !own.has(e.client));
    const top = entries.at(-1);
    if (!top) return false;
    const pid = this.connection.numbers(top.client, '_NET_WM_PID')[0];
    return pid !== undefined && this.ownProcessIds.has(pid);
  }

  /** Whether the active window (the one keys go to) is one of the inspector's own. */
  ownsActiveWindow(): boolean {
    const active = this.activeWindow();
    if (active === undefined) return false;
    const pid = this.connection.numbers(active, '_NET_WM_PID')[0];
    return pid !== undefined && this.ownProcessIds.has(pid);
  }

  async activate(id: WindowId, options: { waitMs?: number } = {}): Promise<void> {
    const c = this.connection;
    this.requireWindow(id);
    if (this.supports('_NET_ACTIVE_WINDOW')) {
      c.sendClientMessage(id, '_NET_ACTIVE_WINDOW', [SOURCE_PAGER, CurrentTime, this.activeWindow() ?? 0]);
    } else {
      c.checked('raising the window', () => {
        c.xlib.XMapRaised(c.display, id);
        c.xlib.XSetInputFocus(c.display, id, 2, CurrentTime);
      });
    }
    await this.waitFor(() => this.activeWindow() === id, options.waitMs);
  }

  async close(id: WindowId): Promise<void> {
    const c = this.connection;
    this.requireWindow(id);
    if (this.supports('_NET_CLOSE_WINDOW')) {
      c.sendClientMessage(id, '_NET_CLOSE_WINDOW', [CurrentTime, SOURCE_PAGER]);
    } else {
      const event = new Uint8Array(192);
      const view = new DataView(event.buffer);
      view.setInt32(0, 33, true);
      view.setBigUint64(32, BigInt(id), true);
      view.setBigUint64(40, BigInt(c.atom('WM_PROTOCOLS')), true);
      view.setInt32(48, 32, true);
      view.setBigInt64(56, BigInt(c.atom('WM_DELETE_WINDOW')), true);
      c.checked('closing the window', () => c.xlib.XSendEvent(c.display, id, 0, 0, event));
    }
    await this.waitFor(() => !this.exists(id));
  }

  async minimize(id: WindowId): Promise<void> {
    const c = this.connection;
    this.requireWindow(id);
    c.checked('minimizing the window', () => c.xlib.XIconifyWindow(c.display, id, c.screen));
    await this.waitFor(() => this.hasState(id, '_NET_WM_STATE_HIDDEN') || !this.isViewable(id));
  }

  async maximize(id: WindowId): Promise<void> {
    this.requireWindow(id);
    this.changeState(id, STATE_ADD, '_NET_WM_STATE_MAXIMIZED_VERT', '_NET_WM_STATE_MAXIMIZED_HORZ');
    await this.waitFor(() => this.hasState(id, '_NET_WM_STATE_MAXIMIZED_VERT'));
  }

  async restore(id: WindowId): Promise<void> {
    const c = this.connection;
    this.requireWindow(id);
    if (this.hasState(id, '_NET_WM_STATE_HIDDEN') || !this.isViewable(id)) {
      c.sendClientMessage(id, '_NET_ACTIVE_WINDOW', [SOURCE_PAGER, CurrentTime, 0]);
      await this.waitFor(() => this.isViewable(id) && !this.hasState(id, '_NET_WM_STATE_HIDDEN'));
    }
    if (this.hasState(id, '_NET_WM_STATE_FULLSCREEN'))
      this.changeState(id, STATE_REMOVE, '_NET_WM_STATE_FULLSCREEN', '');
    if (this.hasState(id, '_NET_WM_STATE_MAXIMIZED_VERT') || this.hasState(id, '_NET_WM_STATE_MAXIMIZED_HORZ')) {
      this.changeState(id, STATE_REMOVE, '_NET_WM_STATE_MAXIMIZED_VERT', '_NET_WM_STATE_MAXIMIZED_HORZ');
      await this.waitFor(() => !this.hasState(id, '_NET_WM_STATE_MAXIMIZED_VERT'));
    }
  }

  /** Moves the window so its client area's top-left corner is at (x, y). */
  async move(id: WindowId, x: number, y: number): Promise<void> {
    this.requireWindow(id);
    const [rx, ry] = [Math.round(x), Math.round(y)];
    this.moveResize(id, { x: rx, y: ry });
    await this.waitFor(() => {
      const b = this.geometry(id);
      return b !== undefined && b.x === rx && b.y === ry;
    });
  }

  /** Resizes the client area; the application's size hints may round the size. */
  async resize(id: WindowId, width: number, height: number): Promise<void> {
    this.requireWindow(id);
    if (!(width > 0 && height > 0))
      throw new InspectorError('invalid-input', `window size must be positive, not ${width}x${height}`);
    const [w, h] = [Math.round(width), Math.round(height)];
    this.moveResize(id, { width: w, height: h });
    await this.waitFor(() => {
      const b = this.geometry(id);
      return b !== undefined && b.width === w && b.height === h;
    });
  }

  async bounds(id: WindowId): Promise<Rect> {
    const bounds = this.geometry(id);
    if (!bounds) throw this.gone(id);
    return bounds;
  }

  async isActive(id: WindowId): Promise<boolean> {
    return this.activeWindow() === id;
  }

  // --- reading ---

  activeWindow(): number | undefined {
    const c = this.connection;
    const id = c.numbers(c.root, '_NET_ACTIVE_WINDOW')[0];
    return id ? id : undefined;
  }

  /** Client-area bounds in desktop coordinates. */
  geometry(id: number): Rect | undefined {
    const c = this.connection;
    const root: [number] = [0];
    const x: [number] = [0];
    const y: [number] = [0];
    const w: [number] = [0];
    const h: [number] = [0];
    const border: [number] = [0];
    const depth: [number] = [0];
    const dx: [number] = [0];
    const dy: [number] = [0];
    const child: [number] = [0];
    const ok = c.tolerant(
      () =>
        c.xlib.XGetGeometry(c.display, id, root, x, y, w, h, border, depth) &&
        c.xlib.XTranslateCoordinates(c.display, id, c.root, 0, 0, dx, dy, child),
      true,
    );
    if (!ok) return undefined;
    return { x: dx[0], y: dy[0], width: w[0], height: h[0] };
  }

  private info(id: number, active: number | undefined): WindowInfo | undefined {
    const c = this.connection;
    const bounds = this.geometry(id);
    if (!bounds) return undefined;
    const pid = c.numbers(id, '_NET_WM_PID')[0];
    const name = c.text(id, '_NET_WM_NAME') ?? c.text(id, 'WM_NAME') ?? '';
    return { id, ...(pid ? { processId: pid } : {}), name, bounds, isActive: id === active };
  }

  private attributes(id: number): XWindowAttributesValue | undefined {
    const c = this.connection;
    const value = {} as XWindowAttributesValue;
    const ok = c.tolerant(() => c.xlib.XGetWindowAttributes(c.display, id, value), true);
    return ok ? value : undefined;
  }

  private isViewable(id: number): boolean {
    return this.attributes(id)?.map_state === IsViewable;
  }

  private exists(id: number): boolean {
    return this.attributes(id) !== undefined;
  }

  private hasState(id: number, state: string): boolean {
    const c = this.connection;
    const atom = c.atom(state, true);
    return atom !== 0 && c.numbers(id, '_NET_WM_STATE').includes(atom);
  }

  /**
   * Viewable top-level windows in stacking order, bottom first, each with the client window inside its frame;
   * with a point, only those whose frame contains it.
   */
  private topLevelClients(point?: Point): Array<{ frame: number; client: number }> {
    const c = this.connection;
    const out: Array<{ frame: number; client: number }> = [];
    for (const frame of this.children(c.root)) {
      // One round trip (GetGeometry) rules out most windows; only those under the point need their attributes.
      if (point) {
        const box = this.frameBox(frame);
        if (!box || !contains(box, point)) continue;
      }
      const attributes = this.attributes(frame);
      if (!attributes || attributes.map_state !== IsViewable) continue;
      const client = this.clientOf(frame, attributes.override_redirect !== 0);
      if (client !== undefined) out.push({ frame, client });
    }
    return out;
  }

  /** A top-level window's outer box (border included) in root coordinates. */
  private frameBox(id: number): Rect | undefined {
    const c = this.connection;
    const out: Array<[number]> = Array.from({ length: 7 }, () => [0]);
    const [root, x, y, w, h, border, depth] = out as [
      [number],
      [number],
      [number],
      [number],
      [number],
      [number],
      [number],
    ];
    const ok = c.tolerant(() => c.xlib.XGetGeometry(c.display, id, root, x, y, w, h, border, depth), true);
    if (!ok) return undefined;
    return { x: x[0], y: y[0], width: w[0] + 2 * border[0], height: h[0] + 2 * border[0] };
  }

  private children(window: number): number[] {
    const c = this.connection;
    const root: [number] = [0];
    const parent: [number] = [0];
    const list: [bigint | null] = [null];
    const count: [number] = [0];
    const ok = c.tolerant(() => c.xlib.XQueryTree(c.display, window, root, parent, list, count), true);
    const pointer = list[0];
    try {
      return ok && pointer ? readULongs(pointer, count[0]) : [];
    } finally {
      if (pointer) c.xlib.XFree(pointer);
    }
  }

  /** The client window of a frame: itself if it has WM_STATE (or is an override-redirect app window), else a descendant. */
  private clientOf(frame: number, overrideRedirect: boolean): number | undefined {
    const cached = this.clientOfFrame.get(frame);
    if (cached !== undefined && cached !== null && this.exists(cached)) return cached;
    if (cached === null && !overrideRedirect) return undefined;
    const c = this.connection;
    const hasState = (w: number) => c.property(w, 'WM_STATE') !== undefined;
    let client: number | undefined;
    if (hasState(frame)) client = frame;
    else if (overrideRedirect) client = c.numbers(frame, '_NET_WM_PID').length > 0 ? frame : undefined;
    else {
      const queue = this.children(frame);
      for (let depth = 0; depth < 3 && client === undefined && queue.length > 0; depth++) {
        const next: number[] = [];
        for (const child of queue) {
          if (hasState(child)) {
            client = child;
            break;
          }
          next.push(...this.children(child));
        }
        queue.splice(0, queue.length, ...next);
      }
    }
    if (!overrideRedirect) this.clientOfFrame.set(frame, client ?? null);
    return client;
  }

  // --- acting ---

  private changeState(id: number, action: number, first: string, second: string): void {
    const c = this.connection;
    c.sendClientMessage(id, '_NET_WM_STATE', [action, c.atom(first), second ? c.atom(second) : 0, SOURCE_PAGER, 0]);
  }

  private moveResize(id: number, change: { x?: number; y?: number; width?: number; height?: number }): void {
    const c = this.connection;
    if (this.supports('_NET_MOVERESIZE_WINDOW')) {
      let flags = StaticGravity | (SOURCE_PAGER << 12);
      if (change.x !== undefined) flags |= 1 << 8;
      if (change.y !== undefined) flags |= 1 << 9;
      if (change.width !== undefined) flags |= 1 << 10;
      if (change.height !== undefined) flags |= 1 << 11;
      c.sendClientMessage(id, '_NET_MOVERESIZE_WINDOW', [
        flags,
        change.x ?? 0,
        change.y ?? 0,
        change.width ?? 0,
        change.height ?? 0,
      ]);
      return;
    }
    const now = this.geometry(id);
    if (!now) throw this.gone(id);
    c.checked('moving the window', () =>
      c.xlib.XMoveResizeWindow(
        c.display,
        id,
        change.x ?? now.x,
        change.y ?? now.y,
        change.width ?? now.width,
        change.height ?? now.height,
      ),
    );
  }

  private requireWindow(id: number): void {
    if (!Number.isInteger(id) || id <= 0 || !this.exists(id)) throw this.gone(id);
  }

  private gone(id: number): InspectorError {
    return new InspectorError('stale-node', `window 0x${id.toString(16)} does not exist (any more)`);
  }

  private async waitFor(done: () => boolean, waitMs = WAIT_MS): Promise<boolean> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (done()) return true;
      if (Date.now() >= deadline) return false;
      await sleep(15);
    }
  }
}
