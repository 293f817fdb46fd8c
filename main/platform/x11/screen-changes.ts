import { XDamageNotify, XDamageReportNonEmpty, loadXDamage, type XDamage } from '../../../native/x11/xdamage.js';
import { X11Connection } from './connection.js';

/** How often the damage connection is read while someone watches (XPending does not block). */
const POLL_MS = 15;

/**
 * "The screen changed" from the DAMAGE extension: a damage object on the root window (ReportNonEmpty, re-armed with
 * XDamageSubtract after each event), on a connection of its own that exists only while someone watches and is
 * polled every POLL_MS. `missing` says why a display cannot report damage; the Screen view then polls.
 */
export class X11ScreenChanges {
  private readonly listeners = new Set<() => void>();
  private connection: X11Connection | undefined;
  private damage = 0;
  private eventBase = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly event = new Uint8Array(192);

  constructor(private readonly displayName: string) {}

  /** Why this connection's server cannot report damage, or undefined when it can. */
  static missing(connection: X11Connection): string | undefined {
    let xdamage: XDamage;
    try {
      xdamage = loadXDamage();
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    const event: [number] = [0];
    const error: [number] = [0];
    if (!xdamage.XDamageQueryExtension(connection.display, event, error)) {
      return `the X server ${connection.displayName} has no DAMAGE extension`;
    }
    return undefined;
  }

  /** Calls `listener` after pixels of the screen changed, until the returned function is called. */
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.connection) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Ends every watch (the platform shuts down). */
  stopAll(): void {
    this.listeners.clear();
    this.stop();
  }

  private start(): void {
    const xdamage = loadXDamage();
    const connection = X11Connection.open(this.displayName);
    const event: [number] = [0];
    const error: [number] = [0];
    xdamage.XDamageQueryExtension(connection.display, event, error);
    this.eventBase = event[0];
    this.damage = xdamage.XDamageCreate(connection.display, connection.root, XDamageReportNonEmpty);
    connection.xlib.XFlush(connection.display);
    this.connection = connection;
    this.timer = setInterval(() => this.poll(), POLL_MS);
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const connection = this.connection;
    this.connection = undefined;
    if (!connection) return;
    if (!connection.isLost) loadXDamage().XDamageDestroy(connection.display, this.damage);
    connection.close();
  }

  private poll(): void {
    const connection = this.connection;
    if (!connection) return;
    if (connection.isLost) {
      this.stop();
      return;
    }
    const { xlib, display } = connection;
    const view = new DataView(this.event.buffer);
    let damaged = false;
    while (!connection.isLost && xlib.XPending(display) > 0) {
      xlib.XNextEvent(display, this.event);
      if (view.getInt32(0, true) === this.eventBase + XDamageNotify) damaged = true;
    }
    if (!damaged || connection.isLost) return;
    loadXDamage().XDamageSubtract(display, this.damage, 0, 0);
    xlib.XFlush(display);
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // one listener's failure must not stop the others
      }
    }
  }
}
