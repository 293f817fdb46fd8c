import { InspectorError } from '../../../../shared/model/errors.js';
import type { Point, Size } from '../../../../shared/model/values.js';
import type { KeyCode, KeyState, KeyboardDevice, PointerButton, PointerDevice } from '../../../core/platform.js';
import type { InputClock } from '../../input/timing.js';

/** A clock whose sleeps only advance a counter, recording every wait. */
export class FakeClock implements InputClock {
  time = 0;
  readonly sleeps: number[] = [];
  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    if (ms > 0) this.time += ms;
    return Promise.resolve();
  }
  now(): number {
    return this.time;
  }
}

export interface KeyEvent {
  label: string;
  state: KeyState | 'start' | 'end';
  at: number;
}

const named: { [name: string]: number } = {
  ctrl: 37,
  control: 37,
  shift: 50,
  alt: 64,
  enter: 36,
  tab: 23,
  delete: 119,
  escape: 9,
  k: 45,
  c: 54,
  a: 38,
  '+': 21,
  '-': 20,
  '<': 94,
  '>': 94,
};

/** A keyboard with a handful of keys; upper-case letters need Shift (code 50); records every event. */
export class RecordingKeyboard implements KeyboardDevice {
  readonly events: KeyEvent[] = [];
  failOnLabel: string | undefined;
  constructor(private readonly clock: FakeClock) {}

  keyCode(name: string): KeyCode {
    const lower = name.toLowerCase();
    if (named[lower] !== undefined) {
      const modifiers = name === '>' || name === '+' ? [50] : undefined;
      return { code: named[lower]!, label: name.length === 1 ? name : lower, ...(modifiers ? { modifiers } : {}) };
    }
    if ([...name].length === 1) {
      const upper = name !== lower;
      return { code: name.codePointAt(0)!, label: name, ...(upper ? { modifiers: [50] } : {}) };
    }
    throw new InspectorError('unsupported', `no key named "${name}"`);
  }
  async send(code: KeyCode, state: KeyState): Promise<void> {
    if (this.failOnLabel === code.label && state === 'press') throw new Error(`device failed on ${code.label}`);
    this.events.push({ label: code.label, state, at: this.clock.time });
  }
  knownKeyNames(): readonly string[] {
    return Object.keys(named);
  }
  async startInput(): Promise<void> {
    this.events.push({ label: '', state: 'start', at: this.clock.time });
  }
  async endInput(): Promise<void> {
    this.events.push({ label: '', state: 'end', at: this.clock.time });
  }
  /** Compact form: `+a -a` for press and release. */
  trace(): string {
    return this.events
      .filter((e) => e.state === 'press' || e.state === 'release')
      .map((e) => `${e.state === 'press' ? '+' : '-'}${e.label}`)
      .join(' ');
  }
}

export type PointerEvent =
  | { kind: 'move'; point: Point; at: number }
  | { kind: 'press' | 'release'; button: PointerButton; at: number }
  | { kind: 'scroll'; dx: number; dy: number; at: number };

/** A pointer that remembers where it is; `stuckAt` simulates a pointer another client keeps elsewhere. */
export class RecordingPointer implements PointerDevice {
  readonly events: PointerEvent[] = [];
  current: Point = { x: 0, y: 0 };
  stuckAt: Point | undefined;
  constructor(private readonly clock: FakeClock) {}
  async position(): Promise<Point> {
    return this.stuckAt ?? this.current;
  }
  async moveTo(point: Point): Promise<void> {
    this.current = point;
    this.events.push({ kind: 'move', point, at: this.clock.time });
  }
  async press(button: PointerButton): Promise<void> {
    this.events.push({ kind: 'press', button, at: this.clock.time });
  }
  async release(button: PointerButton): Promise<void> {
    this.events.push({ kind: 'release', button, at: this.clock.time });
  }
  async scroll(dx: number, dy: number): Promise<void> {
    this.events.push({ kind: 'scroll', dx, dy, at: this.clock.time });
  }
  doubleClickTimeMs(): number {
    return 400;
  }
  doubleClickSize(): Size {
    return { width: 4, height: 4 };
  }
  moves(): Point[] {
    return this.events.flatMap((e) => (e.kind === 'move' ? [e.point] : []));
  }
  buttons(): string {
    return this.events
      .flatMap((e) => (e.kind === 'press' ? [`+${e.button}`] : e.kind === 'release' ? [`-${e.button}`] : []))
      .join(' ');
  }
}
