import { AttributeNames } from '../../../shared/model/attributes.js';
import { InspectorError } from '../../../shared/model/errors.js';
import type { Point, Rect, Size, UiValue } from '../../../shared/model/values.js';
import { loadMockTable } from '../../providers/mock/mock-provider.js';
import { tableAttributes } from '../../../shared/snapshot/table.js';
import type {
  DesktopInfo,
  HighlightRequest,
  KeyCode,
  KeyState,
  InputRecording,
  Monitor,
  PlatformBundle,
  PointerButton,
  RecordedInput,
  Screenshot,
  WindowId,
  WindowInfo,
  WindowQuery,
} from '../../core/platform.js';

/** The reference arrangement of the PlatynUI mock: 2160x3840 left, 3840x2160 centre (primary), 1920x1080 right. */
export const MOCK_MONITORS: readonly Monitor[] = [
  { id: 'mock-left', name: 'Left', bounds: { x: -2160, y: 0, width: 2160, height: 3840 }, isPrimary: false, scale: 1 },
  { id: 'mock-centre', name: 'Centre', bounds: { x: 0, y: 0, width: 3840, height: 2160 }, isPrimary: true, scale: 1.5 },
  { id: 'mock-right', name: 'Right', bounds: { x: 3840, y: 0, width: 1920, height: 1080 }, isPrimary: false, scale: 1 },
];

export function unionOfBounds(rects: readonly Rect[]): Rect {
  if (rects.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function monitorsFrom(value: UiValue | undefined): Monitor[] | undefined {
  if (value?.type !== 'Array') return undefined;
  return value.value.flatMap((item): Monitor[] => {
    if (item.type !== 'Object') return [];
    const field = (key: string) => item.value[key];
    const bounds = field('Bounds');
    if (bounds?.type !== 'Rect') return [];
    const text = (key: string) => {
      const v = field(key);
      return v?.type === 'String' ? v.value : '';
    };
    const scale = field('Scale');
    const primary = field('IsPrimary');
    return [
      {
        id: text('Id'),
        name: text('Name'),
        bounds: bounds.value,
        isPrimary: primary?.type === 'Bool' && primary.value,
        scale: scale?.type === 'Integer' || scale?.type === 'Number' ? scale.value : 1,
      },
    ];
  });
}

/** Desktop info of the mock: the three reference monitors, or what a desktop snapshot loaded as mock file says. */
export function mockDesktopInfo(mockFile: string | undefined, maxDepth?: number): DesktopInfo {
  const { table, desktop: node } = loadMockTable(mockFile, maxDepth !== undefined ? { maxDepth } : {});
  const desktop = node === undefined ? undefined : { attributes: tableAttributes(table, node) };
  const attribute = (name: string) =>
    desktop?.attributes.find((entry) => entry.namespace === 'control' && entry.name === name)?.value;
  const monitors = monitorsFrom(attribute(AttributeNames.Monitors)) ?? [...MOCK_MONITORS];
  const bounds = attribute(AttributeNames.Bounds);
  const osVersion = attribute(AttributeNames.OsVersion);
  const name = attribute(AttributeNames.Name);
  return {
    technology: 'Mock',
    osVersion: osVersion?.type === 'String' ? osVersion.value : 'MockOS 1.0',
    name: name?.type === 'String' ? name.value : 'Mock Desktop',
    bounds: bounds?.type === 'Rect' ? bounds.value : unionOfBounds(monitors.map((m) => m.bounds)),
    monitors,
  };
}

const MOCK_KEYS = [
  'Alt',
  'Backspace',
  'Control',
  'Ctrl',
  'Delete',
  'Down',
  'End',
  'Enter',
  'Escape',
  'F1',
  'F2',
  'Home',
  'Left',
  'PageDown',
  'PageUp',
  'Right',
  'Shift',
  'Space',
  'Super',
  'Tab',
  'Up',
];

const MOCK_MODIFIERS: { readonly [label: string]: string } = {
  Shift: 'Shift',
  Ctrl: 'Ctrl',
  Control: 'Ctrl',
  Alt: 'Alt',
  Super: 'Super',
};

/** What the mock keyboard's key would look like recorded: single characters type themselves. */
function mockKeyInput(label: string, state: KeyState, stamp: { at: number; serverTime: number }): RecordedInput {
  const modifier = MOCK_MODIFIERS[label];
  if (modifier) return { type: 'key', state, key: modifier, isModifier: true, ...stamp, onOwnWindow: false };
  const single = [...label].length === 1;
  return {
    type: 'key',
    state,
    key: single ? label.toLowerCase() : label,
    ...(single ? { character: label } : {}),
    isModifier: false,
    ...stamp,
    onOwnWindow: false,
  };
}

/**
 * Deterministic stand-ins for real devices: every action is logged in order (`takePointerLog`, `takeKeyboardLog`)
 * so tests can assert what a runtime would have done on a real desktop.
 */
export class MockDevices implements PlatformBundle {
  readonly id = 'mock';
  /** There is no real pointer to take: a mock pick selects with the shortcut (pick.select), never by a click. */
  readonly unavailable = [
    { device: 'pointerCapture', reason: 'the mock platform has no real pointer: picking selects with F8 or Enter' },
  ];
  private pointerLog: string[] = [];
  private keyboardLog: string[] = [];
  private highlightLog: string[] = [];
  private position: Point = { x: 0, y: 0 };
  private activeHighlight: HighlightRequest | undefined;
  private highlightTimer: NodeJS.Timeout | undefined;
  private readonly windows = new Map<WindowId, WindowInfo>();
  private readonly recorders = new Set<(event: RecordedInput) => void>();
  private serverTime = 0;

  constructor(private readonly info: DesktopInfo) {}

  takePointerLog(): string[] {
    const log = this.pointerLog;
    this.pointerLog = [];
    return log;
  }
  takeKeyboardLog(): string[] {
    const log = this.keyboardLog;
    this.keyboardLog = [];
    return log;
  }
  takeHighlightLog(): string[] {
    const log = this.highlightLog;
    this.highlightLog = [];
    return log;
  }
  get currentHighlight(): HighlightRequest | undefined {
    return this.activeHighlight;
  }

  readonly pointer = {
    position: () => Promise.resolve({ ...this.position }),
    moveTo: (point: Point) => {
      this.position = { x: point.x, y: point.y };
      this.pointerLog.push(`move ${point.x},${point.y}`);
      this.record({ type: 'motion', point: { ...this.position }, ...this.stamp() });
      return Promise.resolve();
    },
    press: (button: PointerButton) => {
      this.pointerLog.push(`press ${button}`);
      this.record({
        type: 'button',
        state: 'press',
        button,
        point: { ...this.position },
        ...this.stamp(),
        onOwnWindow: false,
      });
      return Promise.resolve();
    },
    release: (button: PointerButton) => {
      this.pointerLog.push(`release ${button}`);
      this.record({
        type: 'button',
        state: 'release',
        button,
        point: { ...this.position },
        ...this.stamp(),
        onOwnWindow: false,
      });
      return Promise.resolve();
    },
    scroll: (deltaX: number, deltaY: number) => {
      this.pointerLog.push(`scroll ${deltaX},${deltaY}`);
      // As X11 copies it: one wheel event per step and axis.
      const stamp = this.stamp();
      const point = { ...this.position };
      if (deltaX !== 0) this.record({ type: 'wheel', deltaX, deltaY: 0, point, ...stamp, onOwnWindow: false });
      if (deltaY !== 0) this.record({ type: 'wheel', deltaX: 0, deltaY, point, ...stamp, onOwnWindow: false });
      return Promise.resolve();
    },
    doubleClickTimeMs: () => 500,
    doubleClickSize: (): Size => ({ width: 4, height: 4 }),
  };

  readonly keyboard = {
    keyCode: (nameOrCharacter: string): KeyCode => {
      if ([...nameOrCharacter].length === 1) return { code: nameOrCharacter.codePointAt(0)!, label: nameOrCharacter };
      const index = MOCK_KEYS.findIndex((key) => key.toLowerCase() === nameOrCharacter.toLowerCase());
      if (index < 0) {
        throw new InspectorError(
          'unsupported',
          `unsupported key "${nameOrCharacter}"; known keys: ${MOCK_KEYS.join(', ')} and single characters`,
        );
      }
      return { code: 0x10000 + index, label: MOCK_KEYS[index]! };
    },
    send: (code: KeyCode, state: KeyState) => {
      this.keyboardLog.push(`${state} ${code.label}`);
      this.record(mockKeyInput(code.label, state, this.stamp()));
      return Promise.resolve();
    },
    knownKeyNames: () => [...MOCK_KEYS].sort(),
  };

  readonly screenshot = {
    capture: (region?: Rect): Promise<Screenshot> => {
      const area = region ?? this.info.bounds;
      const width = Math.max(0, Math.round(area.width));
      const height = Math.max(0, Math.round(area.height));
      const pixels = new Uint8Array(width * height * 4);
      for (let i = 0; i < pixels.length; i += 4) {
        const pixel = i / 4;
        pixels[i] = (pixel % width) & 0xff;
        pixels[i + 1] = Math.floor(pixel / width) & 0xff;
        pixels[i + 2] = 0x80;
        pixels[i + 3] = 0xff;
      }
      return Promise.resolve({ width, height, format: 'Rgba8' as const, pixels });
    },
  };

  readonly highlight = {
    highlight: (request: HighlightRequest) => {
      if (this.highlightTimer) clearTimeout(this.highlightTimer);
      this.activeHighlight = {
        rects: request.rects.map((r) => ({ ...r })),
        ...(request.durationMs ? { durationMs: request.durationMs } : {}),
      };
      this.highlightLog.push(`highlight ${request.rects.map((r) => `${r.x},${r.y},${r.width},${r.height}`).join(' ')}`);
      if (request.durationMs) {
        this.highlightTimer = setTimeout(() => {
          this.activeHighlight = undefined;
          this.highlightLog.push('cleared (duration)');
        }, request.durationMs);
      }
      return Promise.resolve();
    },
    clear: () => {
      if (this.highlightTimer) clearTimeout(this.highlightTimer);
      this.activeHighlight = undefined;
      this.highlightLog.push('clear');
      return Promise.resolve();
    },
  };

  /** Every pointer and keyboard action of the mock devices is also recorded, as a real desktop would copy it. */
  readonly inputRecorder = {
    start: (listener: (event: RecordedInput) => void): Promise<InputRecording> => {
      this.recorders.add(listener);
      return Promise.resolve({
        mechanism: 'mock',
        stop: () => {
          this.recorders.delete(listener);
          return Promise.resolve();
        },
      });
    },
  };

  /** Hands an input event to the recordings, as if the user had done it (tests of the recorder). */
  recordInput(event: RecordedInput): void {
    for (const listener of [...this.recorders]) listener(event);
  }

  private record(event: RecordedInput): void {
    this.recordInput(event);
  }

  private stamp(): { at: number; serverTime: number } {
    this.serverTime += 1;
    return { at: performance.now(), serverTime: this.serverTime };
  }

  readonly desktopInfo = { describe: () => Promise.resolve(this.info) };

  private windowFor(id: WindowId): WindowInfo {
    const window = this.windows.get(id);
    if (!window) throw new InspectorError('action-failed', `no mock window ${id}`);
    return window;
  }

  readonly windowManager = {
    resolveWindow: (query: WindowQuery) => {
      for (const window of this.windows.values()) {
        if (query.name !== undefined && window.name === query.name) return Promise.resolve(window.id);
      }
      const id = this.windows.size + 1;
      this.windows.set(id, {
        id,
        name: query.name ?? '',
        bounds: query.bounds ?? { x: 0, y: 0, width: 0, height: 0 },
        isActive: false,
        ...(query.processId !== undefined ? { processId: query.processId } : {}),
      });
      return Promise.resolve(id);
    },
    list: () => Promise.resolve([...this.windows.values()]),
    windowsAtPoint: (point: Point) =>
      Promise.resolve(
        [...this.windows.values()].filter(
          (w) =>
            point.x >= w.bounds.x &&
            point.y >= w.bounds.y &&
            point.x < w.bounds.x + w.bounds.width &&
            point.y < w.bounds.y + w.bounds.height,
        ),
      ),
    activate: (id: WindowId) => {
      for (const window of this.windows.values()) window.isActive = window.id === id;
      this.pointerLog.push(`window activate ${this.windowFor(id).name}`);
      return Promise.resolve();
    },
    close: (id: WindowId) => this.windowAction(id, 'close'),
    minimize: (id: WindowId) => this.windowAction(id, 'minimize'),
    maximize: (id: WindowId) => this.windowAction(id, 'maximize'),
    restore: (id: WindowId) => this.windowAction(id, 'restore'),
    move: (id: WindowId, x: number, y: number) => {
      const window = this.windowFor(id);
      window.bounds = { ...window.bounds, x, y };
      return this.windowAction(id, `move ${x},${y}`);
    },
    resize: (id: WindowId, width: number, height: number) => {
      const window = this.windowFor(id);
      window.bounds = { ...window.bounds, width, height };
      return this.windowAction(id, `resize ${width}x${height}`);
    },
    bounds: (id: WindowId) => Promise.resolve({ ...this.windowFor(id).bounds }),
    isActive: (id: WindowId) => Promise.resolve(this.windowFor(id).isActive),
  };

  private windowAction(id: WindowId, what: string): Promise<void> {
    this.pointerLog.push(`window ${what} ${this.windowFor(id).name}`);
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.recorders.clear();
    if (this.highlightTimer) clearTimeout(this.highlightTimer);
    this.activeHighlight = undefined;
    return Promise.resolve();
  }
}
