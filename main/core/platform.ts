import type { BackendOptions } from './backend-options.js';
import type { InspectorError } from '../../shared/model/errors.js';
import type { Point, Rect, Size } from '../../shared/model/values.js';

/**
 * Platform devices (PlatynUI §8): a platform acts on the desktop where a provider only reads it. A PlatformFactory
 * builds one bundle per runtime; devices a backend cannot offer are absent and listed in `unavailable`.
 */

export type PointerButton = 'left' | 'middle' | 'right';

export interface PointerDevice {
  position(): Promise<Point>;
  moveTo(point: Point): Promise<void>;
  press(button: PointerButton): Promise<void>;
  release(button: PointerButton): Promise<void>;
  /** Positive deltaY scrolls down, positive deltaX right; units are wheel steps. */
  scroll(deltaX: number, deltaY: number): Promise<void>;
  doubleClickTimeMs(): number;
  doubleClickSize(): Size;
  /** Both double-click values and where they came from (the desktop's settings or the backend's defaults). */
  doubleClickSettings?(): DoubleClickSettings;
}

export interface DoubleClickSettings {
  timeMs: number;
  /** The largest distance between the clicks of one double click, per axis. */
  size: Size;
  /** Where each value came from: a desktop setting store (X11: 'xsettings') or 'default'. */
  timeSource: string;
  sizeSource: string;
  /** Why a value is the default, or which manager and serial it was read from. */
  detail: string;
}

/** What a captured pointer reports: buttons, wheel steps (positive = down) and the captured keys (Escape). */
export type PointerCaptureEvent =
  | {
      type: 'button';
      button: PointerButton;
      state: 'press' | 'release';
      point: Point;
      /** The topmost window at the point belongs to the inspector itself (this process or PLATYNUI_EXCLUDE_PIDS). */
      onOwnWindow: boolean;
    }
  | { type: 'wheel'; deltaY: number; point: Point }
  | { type: 'key'; key: 'Escape' };

export interface PointerCapture {
  /** The keys captured with the pointer (Escape, unless another client holds it). */
  readonly keys: readonly string[];
  /** Gives the pointer (and the keys) back; idempotent. */
  release(): Promise<void>;
}

/**
 * Takes the pointer for picking: while captured, clicks and wheel steps go to the listener and never to the
 * applications under the pointer, and Escape too; other keys still reach the focused window. A capture ends with
 * `release()`, with the platform's shutdown, and with the process (the platform must not outlive it with a grab).
 */
export interface PointerCaptureDevice {
  capture(listener: (event: PointerCaptureEvent) => void): Promise<PointerCapture>;
}

/**
 * A copy of one device event as the X server (or another platform) processed it, for recording what the user does.
 * `at` is when it happened on this process's clock (performance.now()), never after it was read, so that the
 * accessibility events it caused come after it; `serverTime` the platform's own timestamp in milliseconds (X: the
 * event's Time), which orders events and measures double clicks.
 */
export type RecordedInput =
  | {
      type: 'button';
      state: 'press' | 'release';
      button: PointerButton;
      point: Point;
      at: number;
      serverTime: number;
      /** The topmost window at the point belongs to the inspector itself (this process or PLATYNUI_EXCLUDE_PIDS). */
      onOwnWindow: boolean;
    }
  | {
      type: 'wheel';
      deltaX: number;
      deltaY: number;
      point: Point;
      at: number;
      serverTime: number;
      onOwnWindow: boolean;
    }
  | { type: 'motion'; point: Point; at: number; serverTime: number }
  | {
      type: 'key';
      state: 'press' | 'release';
      /**
       * The key's name in PlatynUI's keyboard sequence syntax without modifiers: a canonical name (`Enter`, `Ctrl`,
       * `F5`), or the character of the key's first level (`a`, `1`).
       */
      key: string;
      /** The character the key types with the modifiers held now (Shift, AltGr); absent for keys that type none. */
      character?: string;
      /** A modifier key (Shift, Ctrl, Alt, AltGr, Super). */
      isModifier: boolean;
      at: number;
      serverTime: number;
      /** The active window belongs to the inspector itself. */
      onOwnWindow: boolean;
    };

export interface InputRecording {
  /** How the platform records (X11: `RECORD`). */
  readonly mechanism: string;
  /** Stops recording; idempotent. */
  stop(): Promise<void>;
}

/**
 * Copies of the user's input for the recorder: buttons, wheel, motion and keys, as they happen everywhere on the
 * desktop. Recording grabs nothing and never delays the input it copies; a listener runs after the fact.
 */
export interface InputRecorderDevice {
  start(listener: (event: RecordedInput) => void): Promise<InputRecording>;
}

export type KeyState = 'press' | 'release';

export interface KeyCode {
  /** Platform key code (an X11 keycode, a Windows virtual key). */
  code: number;
  /** Canonical key name or the character it types. */
  label: string;
  /** Modifiers the platform must hold to produce this key (e.g. Shift for an upper-case letter). */
  modifiers?: readonly number[];
}

export interface KeyboardDevice {
  /** Resolves a case-insensitive key name, alias or single character; throws an informative unsupported-key error. */
  keyCode(nameOrCharacter: string): KeyCode;
  send(code: KeyCode, state: KeyState): Promise<void>;
  /** Stable-sortable list of the key names the device understands. */
  knownKeyNames(): readonly string[];
  startInput?(): Promise<void>;
  endInput?(): Promise<void>;
}

export interface Screenshot {
  width: number;
  height: number;
  format: 'Rgba8' | 'Bgra8';
  pixels: Uint8Array;
}

export interface ScreenshotDevice {
  capture(region?: Rect): Promise<Screenshot>;
  /**
   * Calls `listener` soon after pixels on the screen changed, until the returned function is called. Absent where the
   * platform cannot tell (the Screen view then polls).
   */
  watchChanges?(listener: () => void): () => void;
}

export interface HighlightRequest {
  rects: readonly Rect[];
  /** Numbers drawn beside the frames (the tab order's markers); characters other than digits are left out. */
  labels?: readonly HighlightLabel[];
  durationMs?: number;
}

/** A number drawn on the screen with its top-left corner at `at`, in the highlight's colour. */
export interface HighlightLabel {
  text: string;
  at: Point;
}

export interface HighlightDevice {
  /** Replaces the active highlight; with a duration it clears itself. */
  highlight(request: HighlightRequest): Promise<void>;
  clear(): Promise<void>;
}

export type WindowId = number;

/** What a window manager needs from a node to find its window. */
export interface WindowQuery {
  processId?: number;
  name?: string;
  bounds?: Rect;
}

export interface WindowInfo {
  id: WindowId;
  processId?: number;
  name: string;
  bounds: Rect;
  isActive: boolean;
}

export interface WindowManager {
  resolveWindow(query: WindowQuery): Promise<WindowId | undefined>;
  list(): Promise<WindowInfo[]>;
  /** Top-level windows containing the point, topmost first (X stacking order). */
  windowsAtPoint(point: Point): Promise<WindowInfo[]>;
  /** Asks for the window to be shown, raised and focused; waits for it up to `waitMs` (the backend's own default). */
  activate(id: WindowId, options?: { waitMs?: number }): Promise<void>;
  close(id: WindowId): Promise<void>;
  minimize(id: WindowId): Promise<void>;
  maximize(id: WindowId): Promise<void>;
  restore(id: WindowId): Promise<void>;
  move(id: WindowId, x: number, y: number): Promise<void>;
  resize(id: WindowId, width: number, height: number): Promise<void>;
  bounds(id: WindowId): Promise<Rect>;
  isActive(id: WindowId): Promise<boolean>;
}

export interface Monitor {
  id: string;
  name: string;
  bounds: Rect;
  isPrimary: boolean;
  scale: number;
}

export interface DesktopInfo {
  technology: string;
  osVersion: string;
  name: string;
  bounds: Rect;
  monitors: readonly Monitor[];
}

export interface DesktopInfoDevice {
  describe(): Promise<DesktopInfo>;
}

export interface PlatformBundle {
  readonly id: string;
  pointer?: PointerDevice;
  keyboard?: KeyboardDevice;
  screenshot?: ScreenshotDevice;
  highlight?: HighlightDevice;
  windowManager?: WindowManager;
  desktopInfo?: DesktopInfoDevice;
  /** Picking by clicking inside the inspected application (X11: a pointer grab). */
  pointerCapture?: PointerCaptureDevice;
  /** Copies of the user's input for recording (X11: the RECORD extension). */
  inputRecorder?: InputRecorderDevice;
  /**
   * Treats the windows of these processes as the inspector's own (never picked, their input never recorded) until
   * the returned function is called: a browser showing the inspector's page.
   */
  excludeProcesses?(processIds: readonly number[]): () => void;
  /** Devices this backend cannot provide here, with the reason (e.g. Wayland without XWayland). */
  unavailable: ReadonlyArray<{ device: string; reason: string }>;
  /**
   * Resolves when the backend loses the desktop for good (X11: the server closed the connection); from then on every
   * device call fails with that error. Never resolves while the desktop is there.
   */
  whenLost?(): Promise<InspectorError>;
  shutdown(): Promise<void>;
}

export interface PlatformConfig {
  /** Names a backend explicitly (`x11`, `mock`); otherwise the detected session decides. */
  backend?: string;
  /** Each backend's own options (see BackendOptions); a platform reads the entry under its id. */
  backendOptions?: BackendOptions;
  env: { readonly [name: string]: string | undefined };
}

export interface PlatformFactory {
  readonly id: string;
  /** Opt-in backends (the mock) only serve when the config names them. */
  readonly optIn: boolean;
  canServe(config: PlatformConfig): boolean;
  create(config: PlatformConfig): Promise<PlatformBundle>;
}
