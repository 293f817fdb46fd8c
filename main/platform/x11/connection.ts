import { InspectorError } from '../../../shared/model/errors.js';
import { koffi } from '../../../native/x11/load.js';
import {
  AnyPropertyType,
  ClientMessage,
  MappingNotify,
  SubstructureNotifyMask,
  SubstructureRedirectMask,
  XErrorEvent,
  XErrorHandlerProto,
  copyBytes,
  loadXlib,
  readStruct,
  readULongs,
  type Display,
  type XErrorEventValue,
  type Xlib,
} from '../../../native/x11/xlib.js';

/**
 * One connection to the X server, owned by one platform bundle. Every device of the bundle shares it. X errors are
 * collected by a process-wide handler (Xlib's default one would exit the process) and turned into InspectorErrors
 * by `checked`.
 */

const errorsByDisplay = new Map<bigint, XErrorEventValue[]>();
let handlerInstalled = false;

function installErrorHandler(xlib: Xlib): void {
  if (handlerInstalled) return;
  const handler = koffi.register((display: bigint, event: bigint) => {
    const value = readStruct<XErrorEventValue>(event, XErrorEvent);
    const list = errorsByDisplay.get(display);
    if (list) list.push(value);
    return 0;
  }, koffi.pointer(XErrorHandlerProto));
  xlib.XSetErrorHandler(handler);
  handlerInstalled = true;
}

const errorNames: { [code: number]: string } = {
  1: 'BadRequest',
  2: 'BadValue',
  3: 'BadWindow',
  4: 'BadPixmap',
  5: 'BadAtom',
  8: 'BadMatch',
  9: 'BadDrawable',
  10: 'BadAccess',
  11: 'BadAlloc',
  14: 'BadIDChoice',
};

export interface PropertyValue {
  type: number;
  format: number;
  /** format 32: the items as numbers; format 8/16: empty. */
  items: number[];
  /** format 8: the raw bytes. */
  bytes: Uint8Array;
}

export class X11Connection {
  readonly xlib: Xlib;
  readonly display: Display;
  readonly displayName: string;
  readonly screen: number;
  readonly root: number;
  private readonly atoms = new Map<string, number>();
  private readonly atomNames = new Map<number, string>();
  private closed = false;
  /** Called when the server announces a keyboard mapping change. */
  onMappingChange: (() => void) | undefined;

  private constructor(xlib: Xlib, display: Display, displayName: string) {
    this.xlib = xlib;
    this.display = display;
    this.displayName = displayName;
    this.screen = xlib.XDefaultScreen(display);
    this.root = xlib.XDefaultRootWindow(display);
  }

  static open(displayName: string): X11Connection {
    const xlib = loadXlib();
    installErrorHandler(xlib);
    const display = xlib.XOpenDisplay(displayName);
    if (!display) {
      throw new InspectorError(
        'provider-unavailable',
        `cannot open X display ${displayName} (is the X server running and may this user connect?)`,
      );
    }
    errorsByDisplay.set(display, []);
    return new X11Connection(xlib, display, displayName);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.xlib.XCloseDisplay(this.display);
    errorsByDisplay.delete(this.display);
  }

  private ensureOpen(): void {
    if (this.closed) throw new InspectorError('provider-unavailable', 'the X11 connection has been shut down');
  }

  /** Runs `body`, waits for the server to process it and throws the first X error it caused. */
  checked<T>(what: string, body: () => T): T {
    return this.run(what, body, true);
  }

  /**
   * Like `checked` for requests that wait for a reply (GetGeometry, GetProperty...): an error arrives in place of
   * the reply, so no extra round trip is needed to see it.
   */
  checkedReply<T>(what: string, body: () => T): T {
    return this.run(what, body, false);
  }

  private run<T>(what: string, body: () => T, sync: boolean): T {
    this.ensureOpen();
    const errors = errorsByDisplay.get(this.display)!;
    errors.length = 0;
    const result = body();
    if (sync) this.xlib.XSync(this.display, 0);
    const first = errors[0];
    errors.length = 0;
    if (first) {
      const name = errorNames[first.error_code] ?? `X error ${first.error_code}`;
      const code = first.error_code === 3 || first.error_code === 9 ? 'stale-node' : 'action-failed';
      throw new InspectorError(
        code,
        `${what} failed: ${name} (request ${first.request_code}, resource 0x${Number(first.resourceid).toString(16)})`,
      );
    }
    return result;
  }

  /** Runs `body` and reports whether it caused an X error, without throwing (for windows that may be gone). */
  tolerant<T>(body: () => T, reply = false): T | undefined {
    try {
      return this.run('X request', body, !reply);
    } catch (error) {
      if (error instanceof InspectorError && (error.code === 'stale-node' || error.code === 'action-failed')) {
        return undefined;
      }
      throw error;
    }
  }

  flush(): void {
    this.ensureOpen();
    this.xlib.XFlush(this.display);
  }

  sync(): void {
    this.ensureOpen();
    this.xlib.XSync(this.display, 0);
  }

  atom(name: string, onlyIfExists = false): number {
    const known = this.atoms.get(name);
    if (known !== undefined) return known;
    this.ensureOpen();
    const atom = this.xlib.XInternAtom(this.display, name, onlyIfExists ? 1 : 0);
    if (atom !== 0) {
      this.atoms.set(name, atom);
      this.atomNames.set(atom, name);
    }
    return atom;
  }

  atomName(atom: number): string {
    const known = this.atomNames.get(atom);
    if (known !== undefined) return known;
    const pointer = this.tolerant(() => this.xlib.XGetAtomName(this.display, atom), true);
    if (!pointer) return '';
    const name = koffi.decode(pointer, 'char', -1) as string;
    this.xlib.XFree(pointer);
    this.atomNames.set(atom, name);
    return name;
  }

  /** Reads a whole property; undefined when it is absent or the window is gone. */
  property(window: number, name: string, type = AnyPropertyType): PropertyValue | undefined {
    this.ensureOpen();
    const property = this.atom(name, true);
    if (property === 0) return undefined;
    const actualType: [number] = [0];
    const actualFormat: [number] = [0];
    const nitems: [number] = [0];
    const after: [number] = [0];
    const data: [bigint | null] = [null];
    const status = this.tolerant(
      () =>
        this.xlib.XGetWindowProperty(
          this.display,
          window,
          property,
          0,
          1 << 20,
          0,
          type,
          actualType,
          actualFormat,
          nitems,
          after,
          data,
        ),
      true,
    );
    const pointer = data[0];
    try {
      if (status !== 0 || !pointer || actualType[0] === 0) return undefined;
      const count = Number(nitems[0]);
      const format = actualFormat[0];
      if (format === 32)
        return { type: Number(actualType[0]), format, items: readULongs(pointer, count), bytes: new Uint8Array(0) };
      if (format === 8) return { type: Number(actualType[0]), format, items: [], bytes: copyBytes(pointer, count) };
      return { type: Number(actualType[0]), format, items: [], bytes: copyBytes(pointer, count * 2) };
    } finally {
      if (pointer) this.xlib.XFree(pointer);
    }
  }

  numbers(window: number, name: string): number[] {
    return this.property(window, name)?.items ?? [];
  }

  text(window: number, name: string): string | undefined {
    const value = this.property(window, name);
    if (!value || value.format !== 8) return undefined;
    return new TextDecoder(name === 'WM_NAME' ? 'latin1' : 'utf-8').decode(value.bytes).replace(/\0+$/, '');
  }

  /**
   * Sends a 32-bit ClientMessage about `window` to the root window, by default the way EWMH asks pagers and tools to
   * talk to the WM (another `mask` reaches other listeners: StructureNotifyMask for a selection MANAGER message).
   */
  sendClientMessage(
    window: number,
    type: string,
    data: readonly number[],
    mask = SubstructureRedirectMask | SubstructureNotifyMask,
  ): void {
    const event = new Uint8Array(192);
    const view = new DataView(event.buffer);
    view.setInt32(0, ClientMessage, true);
    view.setInt32(16, 1, true); // send_event
    view.setBigUint64(32, BigInt(window), true);
    view.setBigUint64(40, BigInt(this.atom(type)), true);
    view.setInt32(48, 32, true); // format
    for (let i = 0; i < 5; i++) view.setBigInt64(56 + i * 8, BigInt(Math.trunc(data[i] ?? 0)), true);
    this.checked(`sending ${type}`, () => this.xlib.XSendEvent(this.display, this.root, 0, mask, event));
  }

  /** Reads the events Xlib queued (this connection selects none, but MappingNotify always arrives). */
  drainEvents(): void {
    if (this.closed) return;
    const event = new Uint8Array(192);
    let changed = false;
    while (this.xlib.XPending(this.display) > 0) {
      this.xlib.XNextEvent(this.display, event);
      if (new DataView(event.buffer).getInt32(0, true) === MappingNotify) changed = true;
    }
    if (changed) this.onMappingChange?.();
  }
}
