import { writeSync } from 'node:fs';
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
  XIOErrorExitHandlerProto,
  XIOErrorHandlerProto,
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
/** Displays whose connection broke (the X server went away): Xlib reported an I/O error on them. */
const lostDisplays = new Set<bigint>();
let handlerInstalled = false;
let ioExitHandler: bigint | null = null;

function installErrorHandler(xlib: Xlib): void {
  if (handlerInstalled) return;
  const handler = koffi.register((display: bigint, event: bigint) => {
    const value = readStruct<XErrorEventValue>(event, XErrorEvent);
    const list = errorsByDisplay.get(display);
    if (list) list.push(value);
    return 0;
  }, koffi.pointer(XErrorHandlerProto));
  xlib.XSetErrorHandler(handler);
  // Xlib's default I/O error handler prints "XIO: fatal IO error" and ends the process. With libX11 1.7+ an exit
  // handler that returns keeps the process alive: the broken display is only marked, and every later use of it is
  // an InspectorError. Older libX11 exits regardless; then the handler at least says what happened.
  const exitable = xlib.XSetIOErrorExitHandler !== undefined;
  const io = koffi.register((display: bigint) => {
    lostDisplays.add(display);
    if (!exitable) writeSync(2, 'platynui-inspector: the X server closed the connection; libX11 before 1.7 exits\n');
    return 0;
  }, koffi.pointer(XIOErrorHandlerProto));
  xlib.XSetIOErrorHandler(io);
  if (exitable) {
    ioExitHandler = koffi.register((display: bigint) => {
      lostDisplays.add(display);
    }, koffi.pointer(XIOErrorExitHandlerProto));
  }
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
  private watcher: NodeJS.Timeout | undefined;
  private lost: Promise<InspectorError> | undefined;
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
    if (ioExitHandler) xlib.XSetIOErrorExitHandler!(display, ioExitHandler, null);
    return new X11Connection(xlib, display, displayName);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** True once the X server closed the connection (stopped, restarted, crashed); nothing works on it any more. */
  get isLost(): boolean {
    return !this.closed && lostDisplays.has(this.display);
  }

  /** The error every use of a lost connection throws. */
  lostError(): InspectorError {
    return new InspectorError(
      'provider-unavailable',
      `the X server ${this.displayName} closed the connection (was it stopped or restarted?); nothing can be done on that desktop any more`,
    );
  }

  close(): void {
    if (this.closed) return;
    this.stopWatching();
    this.closed = true;
    this.xlib.XCloseDisplay(this.display);
    errorsByDisplay.delete(this.display);
    lostDisplays.delete(this.display);
  }

  private ensureOpen(): void {
    if (this.closed) throw new InspectorError('provider-unavailable', 'the X11 connection has been shut down');
    if (this.isLost) throw this.lostError();
  }

  /**
   * Resolves when the X server closes the connection. Xlib only notices on the next request, so while someone waits
   * the connection is polled (XPending, every 250 ms, without keeping the process alive).
   */
  whenLost(): Promise<InspectorError> {
    this.lost ??= new Promise((resolve) => {
      const check = () => {
        if (this.closed) return this.stopWatching();
        if (!this.isLost) this.drainEvents();
        if (this.isLost) {
          this.stopWatching();
          resolve(this.lostError());
        }
      };
      this.watcher = setInterval(check, 250);
      this.watcher.unref();
    });
    return this.lost;
  }

  private stopWatching(): void {
    if (this.watcher) clearInterval(this.watcher);
    this.watcher = undefined;
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
    if (this.isLost) throw this.lostError();
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
    if (this.closed || this.isLost) return;
    const event = new Uint8Array(192);
    let changed = false;
    while (this.xlib.XPending(this.display) > 0 && !this.isLost) {
      this.xlib.XNextEvent(this.display, event);
      if (new DataView(event.buffer).getInt32(0, true) === MappingNotify) changed = true;
    }
    if (changed) this.onMappingChange?.();
  }
}
