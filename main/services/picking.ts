import type { InspectorEvent, Result } from '../../shared/api/schema.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
import type { Point } from '../../shared/model/values.js';
import type { PointerCapture, PointerCaptureEvent } from '../core/platform.js';
import type { RuntimeNode } from '../runtime/node.js';
import { boundsOf } from './bounds.js';
import type { HighlightView } from './highlight-targets.js';
import { elementStacksAtPoint } from './hit-test.js';

/** A view picking works on: its runtime's pointer, node summaries, and the one highlight (drawn and cleared per owner). */
export interface PickingView extends HighlightView {
  clearHighlight(owner?: object): Promise<boolean>;
}

type Send = (event: InspectorEvent) => void;

/**
 * A host's picking (there is one pointer): at most one Picker at a time, owned by the connection that started it.
 * Starting another stops the one before; a connection going away stops its own.
 */
export class Picking {
  private picker: Picker | undefined;

  constructor(private readonly view: PickingView) {}

  /** Picking is in progress. */
  get active(): boolean {
    return this.picker !== undefined;
  }

  /** Starts picking for `owner`, whose events go to `send` (stops any picking another started). */
  async start(owner: object, send: Send, intervalMs: number): Promise<Result<'pick.start'>> {
    this.picker?.stop('another pick started');
    const picker = new Picker(this.view, owner, send, intervalMs, (stopped) => {
      if (this.picker === stopped) this.picker = undefined;
    });
    this.picker = picker;
    try {
      return { started: true, ...(await picker.start()) };
    } catch (error) {
      // start() throws before it follows the pointer (no pointer device): there is nothing to stop.
      if (this.picker === picker) this.picker = undefined;
      throw error;
    }
  }

  /** Selects the element shown now and stops; invalid-input when picking is not active. */
  select(): Result<'pick.select'> {
    const node = this.activePicker().select();
    return { node: node ? this.view.summarize(node) : null };
  }

  /** Moves between the overlapping elements at the pointer; invalid-input when picking is not active. */
  cycle(delta: number): Result<'pick.cycle'> {
    return { depth: this.activePicker().cycle(delta) };
  }

  /** Stops the picking in progress, whoever started it. */
  stop(): Result<'pick.stop'> {
    const picker = this.picker;
    picker?.stop('stopped');
    return { stopped: picker !== undefined };
  }

  /** Stops the picking `owner` started, if it is the one in progress. */
  release(owner: object, reason: string): void {
    if (this.picker?.belongsTo(owner)) this.picker.stop(reason);
  }

  /** Stops any picking (the host shuts down). */
  close(reason: string): void {
    this.picker?.stop(reason);
  }

  private activePicker(): Picker {
    if (!this.picker) throw new InspectorError('invalid-input', 'picking is not active; send pick.start first');
    return this.picker;
  }
}

/**
 * Follows the pointer and reports the element under it, hit-tested as CLI `pick --at` does (services/hit-test.ts).
 * The stack at the point is kept so that the wheel or arrow keys can move between overlapping elements.
 */
class Picker {
  private timer: NodeJS.Timeout | undefined;
  private last: Point | undefined;
  private stack: RuntimeNode[] = [];
  private depth = 0;
  private busy = false;
  private stopped = false;
  private ticking: Promise<void> | undefined;
  private capture: PointerCapture | undefined;

  constructor(
    private readonly view: PickingView,
    private readonly owner: object,
    private readonly send: Send,
    private readonly intervalMs: number,
    private readonly onStop: (picker: Picker) => void,
  ) {}

  /**
   * Starts following the pointer and, where the platform can, captures it: then a left click selects, the wheel
   * cycles, a right click or Escape cancels, and none of it reaches the application under the pointer.
   */
  async start(): Promise<{ clickSelects: boolean; clickNote?: string }> {
    const platform = this.view.runtime.platform;
    if (!platform?.pointer) {
      throw new InspectorError('unsupported', 'picking needs a pointer device, and this platform has none');
    }
    this.timer = setInterval(() => this.schedule(), this.intervalMs);
    this.schedule();
    const device = platform.pointerCapture;
    if (!device) {
      const reason = platform.unavailable.find((u) => u.device === 'pointerCapture')?.reason;
      return { clickSelects: false, clickNote: reason ?? 'this platform cannot capture the pointer' };
    }
    try {
      const capture = await device.capture((event) => this.onCaptured(event));
      if (this.stopped) await capture.release();
      else this.capture = capture;
      return { clickSelects: true };
    } catch (error) {
      return { clickSelects: false, clickNote: toInspectorError(error).message };
    }
  }

  private onCaptured(event: PointerCaptureEvent): void {
    if (this.stopped) return;
    if (event.type === 'key') this.stop('cancelled');
    else if (event.type === 'wheel') this.cycle(event.deltaY > 0 ? 1 : -1);
    else if (event.state !== 'release') return;
    else if (event.button === 'right') this.stop('cancelled');
    else if (event.button === 'left') {
      // A click on the inspector's own window (its Pick button, say) cannot select an element behind it.
      if (event.onOwnWindow) this.stop('cancelled: the click was on the inspector');
      else void this.selectAt(event.point);
    }
  }

  /** Selects the element at the clicked point: the one shown (and cycled to) when the pointer has not moved. */
  private async selectAt(point: Point): Promise<void> {
    await this.ticking;
    if (this.stopped) return;
    if (!this.last || this.last.x !== point.x || this.last.y !== point.y || this.stack.length === 0) {
      this.busy = true;
      try {
        this.setStack(await this.hitTest(point).catch((): RuntimeNode[] => []));
        this.last = point;
      } finally {
        this.busy = false;
      }
    }
    if (!this.stopped) this.select();
  }

  private schedule(): void {
    if (this.busy || this.stopped) return;
    this.ticking = this.tick();
  }

  get current(): RuntimeNode | undefined {
    return this.stack[this.depth];
  }

  belongsTo(owner: object): boolean {
    return this.owner === owner;
  }

  cycle(delta: number): number {
    if (this.stack.length === 0) return 0;
    this.depth = Math.max(0, Math.min(this.stack.length - 1, this.depth - delta));
    void this.report();
    return this.depth;
  }

  private async tick(force = false): Promise<void> {
    if (this.busy || this.stopped) return;
    const pointer = this.view.runtime.platform?.pointer;
    if (!pointer) return;
    this.busy = true;
    try {
      const point = await pointer.position();
      if (!force && this.last && this.last.x === point.x && this.last.y === point.y) return;
      this.last = point;
      this.setStack(await this.hitTest(point));
      await this.report();
    } catch {
      // the pointer or an application did not answer; the next tick tries again
    } finally {
      this.busy = false;
    }
  }

  /** A new stack at the pointer; the same elements as before (the pointer moved within one) keep the cycled depth. */
  private setStack(stack: RuntimeNode[]): void {
    const same =
      stack.length === this.stack.length && stack.every((node, i) => node.runtimeId === this.stack[i]?.runtimeId);
    this.stack = stack;
    if (!same) this.depth = 0;
  }

  private async report(): Promise<void> {
    if (this.stopped || !this.last) return;
    const node = this.current;
    const bounds = node ? await boundsOf(node) : undefined;
    if (this.stopped) return;
    if (bounds) await this.view.highlight(this.owner, [bounds]).catch(() => undefined);
    this.send({
      type: 'pick.hover',
      node: node ? this.view.summarize(node) : null,
      ...(bounds ? { bounds } : {}),
      point: this.last,
      depth: this.depth,
      stackSize: this.stack.length,
    });
  }

  /** Deepest first: the first stack of the one hit test (services/hit-test.ts), as CLI `pick --at` sees it. */
  private async hitTest(point: Point): Promise<RuntimeNode[]> {
    const [stack] = await elementStacksAtPoint(this.view.runtime, point);
    return stack ?? [];
  }

  select(): RuntimeNode | undefined {
    const node = this.current;
    if (node) this.send({ type: 'pick.selected', node: this.view.summarize(node) });
    this.stop(node ? 'selected' : 'stopped');
    return node;
  }

  stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    void this.capture?.release().catch(() => undefined);
    this.capture = undefined;
    this.onStop(this);
    void this.view.clearHighlight(this.owner);
    this.send({ type: 'pick.stopped', reason });
  }
}
