import { InspectorError } from '../../../shared/model/errors.js';
import type { Point } from '../../../shared/model/values.js';
import { copyBytes, koffi, readStruct } from '../../../native/x11/load.js';
import { ButtonPress, ButtonRelease, KeyPress, KeyRelease } from '../../../native/x11/xlib.js';
import {
  XRecordAllClients,
  XRecordFromServer,
  XRecordInterceptData,
  XRecordInterceptProto,
  XRecordRangeOffsets,
  loadXRecord,
  type XRecord,
  type XRecordInterceptDataValue,
} from '../../../native/x11/xrecord.js';
import type { InputRecorderDevice, InputRecording, PointerButton, RecordedInput } from '../../core/platform.js';
import { X11Connection } from './connection.js';
import { readKeyboardMapping, type KeyboardMapping } from './keyboard.js';
import { keyNameOfKeysymName, keysymCharacter } from './keysyms.js';

const MotionNotify = 6;
/** How often the recording connection is read; the server buffers meanwhile, the user's input is never held. */
const POLL_MS = 5;
const buttonNames: { [button: number]: PointerButton } = { 1: 'left', 2: 'middle', 3: 'right' };
/** Wheel buttons: 4 up, 5 down, 6 left, 7 right. */
const wheelSteps: { [button: number]: { deltaX: number; deltaY: number } } = {
  4: { deltaX: 0, deltaY: -1 },
  5: { deltaX: 0, deltaY: 1 },
  6: { deltaX: -1, deltaY: 0 },
  7: { deltaX: 1, deltaY: 0 },
};

/** Modifier keysyms and the one name the keyboard sequence syntax knows them by (left and right alike). */
const modifierNames = new Map<number, string>([
  [0xffe1, 'Shift'],
  [0xffe2, 'Shift'],
  [0xffe3, 'Ctrl'],
  [0xffe4, 'Ctrl'],
  [0xffe9, 'Alt'],
  [0xffea, 'Alt'],
  [0xffe7, 'Alt'], // Meta_L
  [0xffe8, 'Alt'], // Meta_R
  [0xffeb, 'Super'],
  [0xffec, 'Super'],
  [0xffed, 'Super'], // Hyper_L
  [0xfe03, 'AltGr'], // ISO_Level3_Shift
  [0xff7e, 'AltGr'], // Mode_switch
  [0xffe5, 'CapsLock'],
  [0xff7f, 'NumLock'],
]);

/** Where the recorder asks whether a window is the inspector's own (the platform's main connection). */
export interface OwnWindowChecks {
  ownWindowAt(point: Point): boolean;
  ownsActiveWindow(): boolean;
}

/**
 * Recording through the RECORD extension: a context for the device events (KeyPress to MotionNotify) of all clients,
 * created on a control connection and enabled asynchronously on a data connection of its own. The server sends a
 * copy of each device event as it processes it; nothing is grabbed, so the applications get the input as before.
 * The data connection is read every 5 ms (XRecordProcessReplies does not block) from the event loop.
 */
export class X11InputRecorderDevice implements InputRecorderDevice {
  private readonly active = new Set<X11InputRecording>();

  constructor(
    private readonly displayName: string,
    private readonly own: OwnWindowChecks,
  ) {}

  /** Why the server cannot record, or undefined when it offers RECORD (asked on the platform's connection). */
  static missing(connection: X11Connection): string | undefined {
    try {
      const record = loadXRecord();
      const ok = connection.checkedReply('asking for RECORD', () =>
        record.XRecordQueryVersion(connection.display, [0], [0]),
      );
      return ok !== 0 ? undefined : 'the X server has no RECORD extension';
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  async start(listener: (event: RecordedInput) => void): Promise<InputRecording> {
    const record = loadXRecord();
    const control = X11Connection.open(this.displayName);
    let data: X11Connection | undefined;
    let context = 0;
    try {
      const range = record.XRecordAllocRange();
      if (!range) throw new InspectorError('action-failed', 'XRecordAllocRange returned no memory');
      try {
        koffi.encode(range, XRecordRangeOffsets.deviceEventsFirst, 'uint8_t', KeyPress);
        koffi.encode(range, XRecordRangeOffsets.deviceEventsLast, 'uint8_t', MotionNotify);
        context = control.checked('creating a RECORD context', () =>
          record.XRecordCreateContext(
            control.display,
            0,
            new BigUint64Array([BigInt(XRecordAllClients)]),
            1,
            new BigUint64Array([range]),
            1,
          ),
        );
      } finally {
        control.xlib.XFree(range);
      }
      if (!context) throw new InspectorError('action-failed', 'the X server refused a RECORD context');
      data = X11Connection.open(this.displayName);
      const recording = new X11InputRecording(record, control, data, context, listener, this.own);
      this.active.add(recording);
      recording.onStop = () => this.active.delete(recording);
      return recording;
    } catch (error) {
      if (context) control.tolerant(() => record.XRecordFreeContext(control.display, context));
      data?.close();
      control.close();
      throw error;
    }
  }

  /** Stops every recording (the platform's shutdown). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.active].map((recording) => recording.stop()));
  }
}

/** Turns key codes into names and characters, following the modifiers held and the keyboard mapping's changes. */
class KeyDecoder {
  private mapping: KeyboardMapping;
  private shift = 0;
  private altGr = 0;
  private capsLock = false;

  constructor(private readonly connection: X11Connection) {
    this.mapping = readKeyboardMapping(connection);
    connection.onMappingChange = () => {
      this.mapping = readKeyboardMapping(connection);
    };
  }

  refresh(): void {
    this.connection.drainEvents();
  }

  private keysym(keycode: number, level: number): number {
    const { min, max, per, keysyms } = this.mapping;
    if (keycode < min || keycode > max || level >= per) return 0;
    return keysyms[(keycode - min) * per + level] ?? 0;
  }

  decode(keycode: number, state: 'press' | 'release'): { key: string; character?: string; isModifier: boolean } {
    const base = this.keysym(keycode, 0);
    const modifier = modifierNames.get(base);
    if (modifier) {
      const delta = state === 'press' ? 1 : -1;
      if (modifier === 'Shift') this.shift = Math.max(0, this.shift + delta);
      if (modifier === 'AltGr') this.altGr = Math.max(0, this.altGr + delta);
      if (modifier === 'CapsLock' && state === 'press') this.capsLock = !this.capsLock;
      return { key: modifier, isModifier: true };
    }
    const baseCharacter = keysymCharacter(base);
    const level = (this.altGr > 0 ? 4 : 0) + (this.shift > 0 ? 1 : 0);
    let typed = this.keysym(keycode, level) || (level >= 4 ? this.keysym(keycode, level - 4) : 0) || base;
    let character = keysymCharacter(typed);
    if (character !== undefined && this.capsLock && character.toLowerCase() !== character.toUpperCase()) {
      character = this.shift > 0 ? character.toLowerCase() : character.toUpperCase();
    } else if (character !== undefined && this.shift > 0 && typed === base) {
      // A layout without a second level for this key: Shift still makes letters upper case.
      character = character.toUpperCase();
    }
    if (baseCharacter !== undefined)
      return { key: baseCharacter, ...(character ? { character } : {}), isModifier: false };
    typed = base;
    const name = this.keysymName(typed);
    return { key: name, isModifier: false };
  }

  private keysymName(keysym: number): string {
    if (keysym === 0) return 'NoSymbol';
    const raw = this.connection.xlib.XKeysymToString(keysym) ?? `0x${keysym.toString(16)}`;
    return keyNameOfKeysymName(raw) ?? raw;
  }
}

class X11InputRecording implements InputRecording {
  readonly mechanism = 'RECORD';
  private readonly timer: NodeJS.Timeout;
  private readonly callback: bigint;
  private readonly decoder: KeyDecoder;
  private readonly pending: Uint8Array[] = [];
  /** The least (read time - server time) seen: the clocks' offset plus the shortest wait for a poll. */
  private clockOffset = Number.POSITIVE_INFINITY;
  private stopped = false;
  onStop: (() => void) | undefined;

  constructor(
    private readonly record: XRecord,
    private readonly control: X11Connection,
    private readonly data: X11Connection,
    private readonly context: number,
    private readonly listener: (event: RecordedInput) => void,
    private readonly own: OwnWindowChecks,
  ) {
    this.decoder = new KeyDecoder(control);
    this.callback = koffi.register((_closure: unknown, pointer: bigint) => {
      try {
        const intercepted = readStruct<XRecordInterceptDataValue>(pointer, XRecordInterceptData);
        const length = Number(intercepted.data_len) * 4;
        if (intercepted.category === XRecordFromServer && intercepted.data && length >= 32) {
          this.pending.push(copyBytes(intercepted.data, 32));
        }
      } finally {
        this.record.XRecordFreeData(pointer);
      }
    }, koffi.pointer(XRecordInterceptProto));
    const enabled = this.data.checkedReply('enabling the RECORD context', () =>
      record.XRecordEnableContextAsync(data.display, context, this.callback, null),
    );
    if (!enabled) {
      koffi.unregister(this.callback);
      throw new InspectorError('action-failed', 'the X server refused to enable the RECORD context');
    }
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  private poll(): void {
    if (this.stopped) return;
    if (this.data.isLost || this.control.isLost) {
      void this.stop();
      return;
    }
    this.record.XRecordProcessReplies(this.data.display);
    if (this.pending.length === 0) return;
    this.decoder.refresh();
    const readAt = performance.now();
    const events = this.pending.splice(0).flatMap((bytes) => this.decodeEvent(bytes, readAt));
    for (const event of events) {
      try {
        this.listener(event);
      } catch {
        // a listener's failure must not stop the recording
      }
    }
  }

  private decodeEvent(bytes: Uint8Array, readAt: number): RecordedInput[] {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const type = view.getUint8(0) & 0x7f;
    const detail = view.getUint8(1);
    const serverTime = view.getUint32(4, true);
    const at = this.happenedAt(serverTime, readAt);
    const point = { x: view.getInt16(20, true), y: view.getInt16(22, true) };
    switch (type) {
      case MotionNotify:
        return [{ type: 'motion', point, at, serverTime }];
      case ButtonPress:
      case ButtonRelease: {
        const state = type === ButtonPress ? 'press' : 'release';
        const button = buttonNames[detail];
        if (button) return [{ type: 'button', state, button, point, at, serverTime, onOwnWindow: this.ownAt(point) }];
        const wheel = wheelSteps[detail];
        if (wheel && state === 'press')
          return [{ type: 'wheel', ...wheel, point, at, serverTime, onOwnWindow: this.ownAt(point) }];
        return [];
      }
      case KeyPress:
      case KeyRelease: {
        const state = type === KeyPress ? 'press' : 'release';
        const decoded = this.decoder.decode(detail, state);
        return [{ type: 'key', state, ...decoded, at, serverTime, onOwnWindow: this.ownsActive() }];
      }
      default:
        return [];
    }
  }

  /**
   * When the event happened on this process's clock: its server time moved by the clocks' offset, learnt from the
   * events read so far. A poll reads an event up to POLL_MS (more on a busy event loop) after it came, later than the
   * application's accessibility events it caused, which must not look as if they came before it.
   */
  private happenedAt(serverTime: number, readAt: number): number {
    const offset = readAt - serverTime;
    // X time wraps around at 2^32 ms: an offset that far from the last is learnt anew.
    if (offset < this.clockOffset || offset - this.clockOffset > 2 ** 31) this.clockOffset = offset;
    return Math.min(readAt, serverTime + this.clockOffset);
  }

  private ownAt(point: Point): boolean {
    try {
      return this.own.ownWindowAt(point);
    } catch {
      return false;
    }
  }

  private ownsActive(): boolean {
    try {
      return this.own.ownsActiveWindow();
    } catch {
      return false;
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    try {
      if (!this.control.isLost) {
        this.control.tolerant(() => this.record.XRecordDisableContext(this.control.display, this.context));
        this.control.tolerant(() => this.record.XRecordFreeContext(this.control.display, this.context));
      }
    } finally {
      this.data.close();
      this.control.close();
      koffi.unregister(this.callback);
      this.onStop?.();
    }
  }
}
