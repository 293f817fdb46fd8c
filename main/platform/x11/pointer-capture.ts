import { InspectorError } from '../../../shared/model/errors.js';
import type { Point } from '../../../shared/model/values.js';
import {
  ButtonPress,
  ButtonPressMask,
  ButtonRelease,
  ButtonReleaseMask,
  CurrentTime,
  GrabModeAsync,
  GrabSuccess,
  InputEventOffsets,
  KeyPress,
  LockMask,
  Mod2Mask,
  None,
  XC_crosshair,
  XK_Escape,
  grabStatusNames,
} from '../../../native/x11/xlib.js';
import type { PointerButton, PointerCapture, PointerCaptureDevice, PointerCaptureEvent } from '../../core/platform.js';
import { X11Connection } from './connection.js';

const POLL_MS = 10;
/** How long a grab is retried while another client holds the pointer (a menu open, a button held down). */
const GRAB_RETRY_MS = 600;
const buttonNames: { [button: number]: PointerButton } = { 1: 'left', 2: 'middle', 3: 'right' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Picking by clicking: an active grab of the pointer on the root window (XGrabPointer, cross-hair cursor) and a
 * passive grab of Escape (also with CapsLock or NumLock on), on a connection of their own. While the grab lasts the server sends every
 * button and wheel event to this connection instead of the application under the pointer, so a pick never presses
 * what it picks; other keys still go to the focused window. The events are read by polling the connection every
 * 10 ms (XPending does not block). Releasing closes the connection, and the server drops a connection's grabs when
 * it closes, also when the process dies: no grab outlives the capture.
 */
export class X11PointerCaptureDevice implements PointerCaptureDevice {
  private readonly active = new Set<X11PointerCapture>();

  constructor(
    private readonly displayName: string,
    /** Whether the topmost window at a point is one of the inspector's own. */
    private readonly ownWindowAt: (point: Point) => boolean,
  ) {}

  async capture(listener: (event: PointerCaptureEvent) => void): Promise<PointerCapture> {
    const connection = X11Connection.open(this.displayName);
    const { xlib, display, root } = connection;
    let cursor = 0;
    try {
      cursor = xlib.XCreateFontCursor(display, XC_crosshair);
      const deadline = Date.now() + GRAB_RETRY_MS;
      let status = -1;
      for (;;) {
        status = connection.checkedReply('grabbing the pointer', () =>
          xlib.XGrabPointer(
            display,
            root,
            0,
            ButtonPressMask | ButtonReleaseMask,
            GrabModeAsync,
            GrabModeAsync,
            None,
            cursor,
            CurrentTime,
          ),
        );
        if (status === GrabSuccess || Date.now() >= deadline) break;
        await sleep(25);
      }
      if (status !== GrabSuccess) {
        throw new InspectorError(
          'action-failed',
          `the pointer cannot be taken for picking (${grabStatusNames[status] ?? `status ${status}`}): another ` +
            'application holds it; clicks reach the applications, F8 or Enter selects',
        );
      }
      const escape = xlib.XKeysymToKeycode(display, XK_Escape);
      const modifiers = escape === 0 ? [] : grabKey(connection, escape);
      const keys = modifiers.includes(0) ? ['Escape'] : [];
      const capture = new X11PointerCapture(connection, cursor, escape, modifiers, keys, listener, (point) =>
        this.ownWindowAt(point),
      );
      this.active.add(capture);
      capture.onRelease = () => this.active.delete(capture);
      return capture;
    } catch (error) {
      if (cursor) xlib.XFreeCursor(display, cursor);
      connection.close();
      throw error;
    }
  }

  /** Captures still held (for tests and diagnostics). */
  get activeCount(): number {
    return this.active.size;
  }

  /** Releases every capture (the platform's shutdown). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.active].map((capture) => capture.release()));
  }
}

/**
 * Grabs a key on the root window without modifiers, also with CapsLock and NumLock on; the modifier sets that could
 * be grabbed. Not AnyModifier: window managers bind Alt+Escape and the like (openbox does), and one such binding makes
 * an AnyModifier grab fail with BadAccess.
 */
function grabKey(connection: X11Connection, keycode: number): number[] {
  const { xlib, display, root } = connection;
  const grabbed: number[] = [];
  for (const modifiers of [0, LockMask, Mod2Mask, LockMask | Mod2Mask]) {
    const ok = connection.tolerant(() =>
      xlib.XGrabKey(display, keycode, modifiers, root, 0, GrabModeAsync, GrabModeAsync),
    );
    if (ok !== undefined) grabbed.push(modifiers);
  }
  return grabbed;
}

class X11PointerCapture implements PointerCapture {
  private readonly timer: NodeJS.Timeout;
  private released = false;
  private readonly event = new Uint8Array(192);
  onRelease: (() => void) | undefined;

  constructor(
    private readonly connection: X11Connection,
    private readonly cursor: number,
    private readonly escapeKeycode: number,
    private readonly escapeModifiers: readonly number[],
    readonly keys: readonly string[],
    private readonly listener: (event: PointerCaptureEvent) => void,
    private readonly ownWindowAt: (point: Point) => boolean,
  ) {
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  private poll(): void {
    if (this.released) return;
    if (this.connection.isLost) {
      // The server went away, and the grab with it.
      void this.release();
      return;
    }
    const { xlib, display } = this.connection;
    const view = new DataView(this.event.buffer);
    const out: PointerCaptureEvent[] = [];
    while (!this.released && !this.connection.isLost && xlib.XPending(display) > 0) {
      xlib.XNextEvent(display, this.event);
      const type = view.getInt32(InputEventOffsets.type, true);
      const detail = view.getUint32(InputEventOffsets.detail, true);
      const point = {
        x: view.getInt32(InputEventOffsets.xRoot, true),
        y: view.getInt32(InputEventOffsets.yRoot, true),
      };
      if (type === ButtonPress || type === ButtonRelease) {
        const button = buttonNames[detail];
        if (button) {
          const state = type === ButtonPress ? 'press' : 'release';
          out.push({ type: 'button', button, state, point, onOwnWindow: this.isOwnWindowAt(point) });
        } else if (type === ButtonPress && (detail === 4 || detail === 5)) {
          out.push({ type: 'wheel', deltaY: detail === 4 ? -1 : 1, point });
        }
      } else if (type === KeyPress && this.escapeModifiers.length > 0 && detail === this.escapeKeycode) {
        out.push({ type: 'key', key: 'Escape' });
      }
    }
    for (const event of out) {
      try {
        this.listener(event);
      } catch {
        // a listener's failure must not keep the grab alive or stop the others
      }
    }
  }

  private isOwnWindowAt(point: Point): boolean {
    try {
      return this.ownWindowAt(point);
    } catch {
      return false; // the main connection broke; the click still counts as one on an application
    }
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    const { xlib, display, root } = this.connection;
    try {
      if (this.connection.isLost) return;
      xlib.XUngrabPointer(display, CurrentTime);
      for (const modifiers of this.escapeModifiers) xlib.XUngrabKey(display, this.escapeKeycode, modifiers, root);
      xlib.XFreeCursor(display, this.cursor);
      xlib.XSync(display, 0);
    } finally {
      // Closing the connection alone releases its grabs; the explicit ungrab only makes it immediate and visible.
      this.connection.close();
      this.onRelease?.();
    }
  }
}
