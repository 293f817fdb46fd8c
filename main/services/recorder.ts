import { AttributeNames } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import { formatValueText, type Point } from '../../shared/model/values.js';
import type { ExportTarget } from '../../shared/export/templates.js';
import {
  ASSERTABLE_ATTRIBUTES,
  type AssertableAttribute,
  type RecordedStep,
  type TypedPart,
} from '../../shared/recording/steps.js';
import type { UiEventType } from '../../shared/model/ui-events.js';
import type { InputRecording, PointerButton, RecordedInput } from '../core/platform.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { boundsOf, contains } from './bounds.js';
import { elementCoveringPoint } from './hit-test.js';
import { locateNodes } from './locate.js';

/** How long after a click or a key that may move the focus a typed key waits for the focus event it may cause. */
const FOCUS_SETTLE_MS = 250;
/** The longest a hover test may have started before the press and still name the element pressed. */
const HOVER_MAX_AGE_MS = 50;
const LOCATE_TIMEOUT_MS = 5000;
const FOCUS_QUERY_TIMEOUT_MS = 2000;
/** Focus changes kept to answer "what had the focus at this key press"; selection changes likewise. */
const FOCUS_LOG_LIMIT = 64;

/** Drops all but the last `limit` entries of a log. */
function keepLast(log: unknown[], limit: number): void {
  if (log.length > limit) log.splice(0, log.length - limit);
}
/**
 * How long after a navigation key (Tab, an arrow ...) its focus or selection change is waited for at least, and at
 * most while no other input came. Input carries the X server's time, events only the time this process read them: a
 * busy application or process makes a key's events look late, and only the next input tells the effects apart.
 */
const KEY_EFFECT_MS = 300;
const KEY_EFFECT_MAX_MS = 1500;
/** Presses (keys, buttons, wheel steps) kept to end a navigation key's effect window at the next one. */
const PRESS_LOG_LIMIT = 64;
/** How long a key waits at most for the reads of focus and selection events that came in time (or before it). */
const LATE_READ_MS = 2000;
/** How long a focus or selection event on an element the tree has not loaded waits for it to be loaded. */
const UNKNOWN_NODE_WAIT_MS = 1000;
/** Keys that move the focus (Tab, Shift+Tab): one that did is a focus step on the element it reached. */
const FOCUS_KEYS = new Set(['Tab']);
/**
 * Keys that move the selection in a list, tree or table: one that selected an item is a select step on the item.
 * In a text field they move the caret and are typed as keys.
 */
const SELECTION_KEYS = new Set(['Up', 'Down', 'Left', 'Right', 'Home', 'End', 'PageUp', 'PageDown']);
/** How far (px) the pointer goes between a press and its release before the click is a drag (GTK's default). */
const DRAG_THRESHOLD_PX = 8;
const TYPING_MODIFIERS = ['Ctrl', 'Alt', 'Super'];
const MODIFIER_ORDER = ['Ctrl', 'Alt', 'Shift', 'Super', 'AltGr'];

/** Steps a recording keeps unless told otherwise; it stops recording there. */
export const DEFAULT_MAX_STEPS = 1000;

/** The element at a point on the screen, as the recorder asks for it (the one hit test unless a test injects one). */
export type RecorderHitTest = (runtime: Runtime, point: Point) => Promise<RuntimeNode | undefined>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type RecorderListener = (steps: readonly RecordedStep[]) => void;

export interface RecorderStatus {
  /** How the platform records (X11: RECORD). */
  mechanism: string;
  /** Still copying input (not stopped). */
  recording: boolean;
  steps: number;
  maxSteps: number;
  /** Recording stopped itself at maxSteps. */
  limitReached: boolean;
  /** Clicks on nothing the tree knows, and keys typed while no element had the focus: not part of any step. */
  unattributed: number;
}

function targetOf(node: RuntimeNode): ExportTarget {
  return { runtimeId: node.runtimeId, namespace: node.namespace, role: node.role, name: node.name, locators: [] };
}

/** Where the pointer was last tested, and what was found there. */
interface Hover {
  point: Point;
  startedAt: number;
  result: Promise<RuntimeNode | undefined>;
}

/**
 * The element under the pointer, tested as the pointer moves (one hit test at a time, the latest position next), so
 * that a press finds its element already asked for: at the press the application is asked once more at most, to
 * confirm or refine that answer (see elementPressed), and the step waits for it in the recorder's queue, never the
 * input.
 */
class HoverTracker {
  latest: Hover | undefined;
  private wanted: Point | undefined;
  private inFlight = false;

  constructor(private readonly test: (point: Point) => Promise<RuntimeNode | undefined>) {}

  moved(point: Point): void {
    this.wanted = point;
    if (!this.inFlight) this.run();
  }

  private run(): void {
    const point = this.wanted;
    if (!point) return;
    this.wanted = undefined;
    this.inFlight = true;
    const result = this.test(point).catch(() => undefined);
    this.latest = { point, startedAt: performance.now(), result };
    void result.finally(() => {
      this.inFlight = false;
      this.run();
    });
  }

  /** The hover test that names the element at a press: at the press point, started at most 50 ms before it. */
  forPress(point: Point, at: number): Hover | undefined {
    if (this.wanted && samePoint(this.wanted, point)) this.run();
    const latest = this.latest;
    if (!latest || !samePoint(latest.point, point)) return undefined;
    return at - latest.startedAt <= HOVER_MAX_AGE_MS || !this.wanted ? latest : undefined;
  }
}

const samePoint = (a: Point, b: Point) => a.x === b.x && a.y === b.y;

/**
 * Records what the user does in the inspected applications as steps: clicks and multi-clicks on the element under
 * the pointer, drags from it, wheel steps over it, text and keys typed into the focused element (one step per
 * field), the focus moved by Tab and an item selected by an arrow key, each with the locators verified at the
 * time. Input comes from the platform's input recorder (a copy, never delaying the input); the element under
 * the pointer from hover tracking, the focus from the providers' focus events. Input into the inspector's own
 * windows is left out. Text typed into a secure field is never kept: the step holds a variable in its place.
 */
export class Recorder {
  private readonly stepList: RecordedStep[] = [];
  private readonly listeners = new Set<RecorderListener>();
  private readonly pendingLocates = new Set<Promise<void>>();
  private readonly focusLog: Array<{ node: RuntimeNode; at: number }> = [];
  private readonly selectionLog: Array<{ node: RuntimeNode; at: number }> = [];
  /** Lists and trees that announced a selection change as a whole; what they selected is read once, when needed. */
  private readonly containerLog: Array<{ runtimeId: string; at: number; item?: Promise<RuntimeNode | undefined> }> = [];
  /** Focus and selection events still being read (their state), by the time they came. */
  private readonly reading = new Set<{ at: number; done: Promise<void> }>();
  /** When the recent presses happened, in order (this process's clock). */
  private readonly pressLog: number[] = [];
  private readonly secretNames = new Map<string, string>();
  private readonly heldModifiers = new Set<string>();
  private readonly hover: HoverTracker;
  private queue: Promise<void> = Promise.resolve();
  private nextId = 1;
  private unattributedCount = 0;
  /** The last click or key that may move the focus (this process's clock). */
  private lastFocusMoveAt = Number.NEGATIVE_INFINITY;
  private lastPress: { button: PointerButton; point: Point; serverTime: number; stepId: number } | undefined;
  /** The recorded press whose release has not come yet (a drag when it comes far from the press). */
  private heldPress: { button: PointerButton; point: Point; stepId: number } | undefined;
  private recording: InputRecording | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  private limitReached = false;

  private constructor(
    private readonly runtime: Runtime,
    private readonly xpath: XPathService,
    private readonly maxSteps: number,
    private readonly hitTest: RecorderHitTest,
  ) {
    this.hover = new HoverTracker((point) => hitTest(runtime, point));
  }

  /**
   * Starts recording; fails with `unsupported` when the platform cannot copy input (no RECORD, Wayland). Recording
   * stops by itself once it holds `maxSteps` steps.
   */
  static async start(
    runtime: Runtime,
    xpath: XPathService,
    options: { maxSteps?: number; hitTest?: RecorderHitTest } = {},
  ): Promise<Recorder> {
    const device = runtime.platform?.inputRecorder;
    if (!device) {
      const reason = runtime.platform?.unavailable.find((entry) => entry.device === 'inputRecorder')?.reason;
      throw new InspectorError(
        'unsupported',
        `recording needs a platform that copies the user's input${reason ? `: ${reason}` : ' (X11 with RECORD)'}`,
      );
    }
    const recorder = new Recorder(
      runtime,
      xpath,
      options.maxSteps ?? DEFAULT_MAX_STEPS,
      options.hitTest ?? elementCoveringPoint,
    );
    // Providers that tell focus gained apart (typed focus events) need no read of the state, which, late, would
    // find a focus already moved on.
    const typedFocus = runtime.providers.every((provider) => provider.watchUiEvents);
    // A list or tree may announce a selection only as a whole (its items announce nothing).
    const kinds = new Set<UiEventType>(typedFocus ? ['focus', 'selection-changed'] : ['selection-changed']);
    const stops = runtime.providers.flatMap((provider) =>
      provider.watchUiEvents
        ? [
            provider.watchUiEvents(kinds, (event) => {
              const at = performance.now();
              if (event.type === 'focus') recorder.focusGained(event.runtimeId, at);
              else if (event.type === 'selection-changed') recorder.logContainer(event.runtimeId, at);
            }),
          ]
        : [],
    );
    const stopUpdates = runtime.registerEventSink((event) => {
      if (event.kind !== 'NodeUpdated') return;
      const at = performance.now();
      const focus = !typedFocus && (!event.attributes || event.attributes.includes(AttributeNames.IsFocused));
      // Only an explicit selection change: a read on every update would ask the application more while it reacts.
      const selection = event.attributes?.includes(AttributeNames.IsSelected) === true;
      const node = runtime.node(event.runtimeId);
      if (node) {
        if (focus) recorder.track(recorder.focusUpdated(node, at), at);
        if (selection) recorder.track(recorder.selectionUpdated(node, at), at);
      } else if (event.attributes && (focus || selection)) {
        // An element the tree has not loaded yet (a click's own focus event can come before its hit test loaded it).
        recorder.track(recorder.updatedOnceKnown(event.runtimeId, at, focus, selection), at);
      }
    });
    recorder.unsubscribe = () => {
      stopUpdates();
      for (const stop of stops) stop();
    };
    recorder.recording = await device.start((event) => recorder.input(event));
    return recorder;
  }

  get mechanism(): string {
    return this.recording?.mechanism ?? 'stopped';
  }

  status(): RecorderStatus {
    return {
      mechanism: this.mechanism,
      recording: !this.stopped,
      steps: this.stepList.length,
      maxSteps: this.maxSteps,
      limitReached: this.limitReached,
      unattributed: this.unattributedCount,
    };
  }

  /** The steps so far, in order (copies). */
  steps(): RecordedStep[] {
    return this.stepList.map((step) => structuredClone(step));
  }

  /** Called with the steps after every change (a step added, grown, located, deleted ...); returns its removal. */
  onChange(listener: RecorderListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops recording, waits for the input already copied and the locators being verified, and returns the steps. */
  async stop(): Promise<RecordedStep[]> {
    if (!this.stopped) {
      this.stopped = true;
      this.unsubscribe?.();
      await this.recording?.stop();
    }
    await this.queue;
    while (this.pendingLocates.size > 0) await Promise.all([...this.pendingLocates]);
    this.changed();
    return this.steps();
  }

  deleteStep(id: number): void {
    const index = this.stepList.findIndex((step) => step.id === id);
    if (index < 0) throw new InspectorError('invalid-input', `there is no recorded step ${id}`);
    this.stepList.splice(index, 1);
    if (this.lastPress?.stepId === id) this.lastPress = undefined;
    this.changed();
  }

  /** Makes another of the step's verified locators its first (the one the scripts use). */
  chooseLocator(id: number, xpath: string): void {
    const step = this.stepList.find((candidate) => candidate.id === id);
    if (!step) throw new InspectorError('invalid-input', `there is no recorded step ${id}`);
    const index = step.target.locators.findIndex((locator) => locator.xpath === xpath);
    if (index < 0) throw new InspectorError('invalid-input', `step ${id} has no locator ${xpath}`);
    const locators = [...step.target.locators];
    locators.unshift(...locators.splice(index, 1));
    step.target = { ...step.target, locators };
    this.changed();
  }

  /** Adds a step asserting the node's attribute as it is now (never the value of a secure field). */
  async addAssertion(node: RuntimeNode, attribute: AssertableAttribute): Promise<RecordedStep> {
    if (!(ASSERTABLE_ATTRIBUTES as readonly string[]).includes(attribute)) {
      throw new InspectorError(
        'invalid-input',
        `an assertion checks one of ${ASSERTABLE_ATTRIBUTES.join(', ')}, not "${String(attribute)}"`,
      );
    }
    if (node.isSecure && attribute === 'Value') {
      throw new InspectorError('unsupported', `${node.describe()} is a secure field: its value is never recorded`, {
        runtimeId: node.runtimeId,
      });
    }
    const [entry] = await node.attributesNamed(attribute);
    if (!entry) throw new InspectorError('unsupported', `${node.describe()} has no ${attribute}`);
    const step = this.addStep({ kind: 'assert', attribute, expected: formatValueText(entry.value) }, node);
    return structuredClone(step);
  }

  // --- input ---

  private input(event: RecordedInput): void {
    if (this.stopped) return;
    // Motion only moves the hover test; it never waits behind the queue.
    if (event.type === 'motion') {
      this.hover.moved(event.point);
      return;
    }
    if (event.type === 'wheel' || (event.state === 'press' && !(event.type === 'key' && event.isModifier))) {
      this.pressLog.push(event.at);
      keepLast(this.pressLog, PRESS_LOG_LIMIT);
    }
    if (event.type === 'button' && event.state === 'press' && !event.onOwnWindow) {
      this.lastFocusMoveAt = event.at;
      const hover = this.hover.forPress(event.point, event.at);
      this.enqueue(() => this.press(event, hover));
      return;
    }
    if (event.type === 'button' && event.state === 'release') {
      this.enqueue(() => Promise.resolve(this.release(event)));
      return;
    }
    if (event.type === 'wheel' && !event.onOwnWindow) {
      const hover = this.hover.forPress(event.point, event.at);
      this.enqueue(() => this.wheel(event, hover));
      return;
    }
    if (event.type === 'key') {
      this.trackModifier(event);
      if (event.state === 'press' && !event.isModifier && !event.onOwnWindow) {
        const part = this.partOf(event);
        if (part.kind !== 'text') this.lastFocusMoveAtAfter(event.at);
        this.enqueue(() => this.key(event.at, part));
      }
    }
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => {
      if (error instanceof InspectorError && error.code === 'limit-exceeded') return; // status() says so
      process.emitWarning(`recorder: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private trackModifier(event: Extract<RecordedInput, { type: 'key' }>): void {
    if (!event.isModifier) return;
    if (event.state === 'press') this.heldModifiers.add(event.key);
    else this.heldModifiers.delete(event.key);
  }

  /** A key as the keyboard sequence writes it: a character, or a chord with the modifiers held. */
  private partOf(event: Extract<RecordedInput, { type: 'key' }>): TypedPart {
    const typing = TYPING_MODIFIERS.some((modifier) => this.heldModifiers.has(modifier));
    if (!typing && event.character !== undefined) return { kind: 'text', text: event.character };
    const modifiers = MODIFIER_ORDER.filter((modifier) => this.heldModifiers.has(modifier) && modifier !== 'AltGr');
    return { kind: 'chord', keys: [...modifiers, event.key] };
  }

  private lastFocusMoveAtAfter(at: number): void {
    // The key after this one waits for the focus event this one may cause (Tab, Enter in a dialog).
    this.lastFocusMoveAt = at;
  }

  // --- clicks ---

  private async press(event: Extract<RecordedInput, { type: 'button' }>, hover: Hover | undefined): Promise<void> {
    const node = await this.attributed(event.point, hover);
    if (!node) return;
    const last = this.lastPress;
    const previous = last && this.stepList.find((step) => step.id === last.stepId);
    if (
      previous &&
      previous.action.kind === 'click' &&
      last.button === event.button &&
      previous.target.runtimeId === node.runtimeId &&
      this.isMultiClick(last, event)
    ) {
      previous.action = { ...previous.action, count: previous.action.count + 1 };
      this.lastPress = { ...last, point: event.point, serverTime: event.serverTime };
      this.changed();
      return;
    }
    const step = this.addStep({ kind: 'click', button: event.button, count: 1 }, node);
    this.lastPress = { button: event.button, point: event.point, serverTime: event.serverTime, stepId: step.id };
    this.heldPress = { button: event.button, point: event.point, stepId: step.id };
  }

  /** A release far from its press turns the press's click into a drag to the release point. */
  private release(event: Extract<RecordedInput, { type: 'button' }>): void {
    const held = this.heldPress;
    if (!held || held.button !== event.button) return;
    this.heldPress = undefined;
    const distance = Math.hypot(event.point.x - held.point.x, event.point.y - held.point.y);
    if (distance < DRAG_THRESHOLD_PX) return;
    const step = this.stepList.find((candidate) => candidate.id === held.stepId);
    if (step?.action.kind !== 'click' || step.action.count !== 1) return;
    step.action = { kind: 'drag', button: event.button, to: { ...event.point } };
    if (this.lastPress?.stepId === step.id) this.lastPress = undefined;
    this.changed();
  }

  // --- wheel ---

  /** Wheel steps over one element in a row add up to one scroll step. */
  private async wheel(event: Extract<RecordedInput, { type: 'wheel' }>, hover: Hover | undefined): Promise<void> {
    const node = await this.attributed(event.point, hover);
    if (!node) return;
    const last = this.stepList.at(-1);
    if (last?.action.kind === 'scroll' && last.target.runtimeId === node.runtimeId) {
      last.action = {
        kind: 'scroll',
        deltaX: last.action.deltaX + event.deltaX,
        deltaY: last.action.deltaY + event.deltaY,
      };
      this.changed();
      return;
    }
    this.addStep({ kind: 'scroll', deltaX: event.deltaX, deltaY: event.deltaY }, node);
  }

  private isMultiClick(
    last: { point: Point; serverTime: number },
    event: { point: Point; serverTime: number },
  ): boolean {
    const pointer = this.runtime.platform?.pointer;
    const timeMs = pointer?.doubleClickTimeMs() ?? 400;
    const size = pointer?.doubleClickSize() ?? { width: 4, height: 4 };
    const elapsed = (event.serverTime - last.serverTime) >>> 0; // X time wraps around at 2^32 ms
    return (
      elapsed <= timeMs &&
      Math.abs(event.point.x - last.point.x) <= size.width &&
      Math.abs(event.point.y - last.point.y) <= size.height
    );
  }

  /** The element pressed (or scrolled over); a press on nothing the tree knows is counted as unattributed. */
  private async attributed(point: Point, hover: Hover | undefined): Promise<RuntimeNode | undefined> {
    const node = await this.elementPressed(point, hover);
    if (!node) {
      this.unattributedCount++;
      this.changed();
    }
    return node;
  }

  /**
   * The hover test's element when it covers the press point; otherwise (no hover test at the point, or the element
   * moved away) one hit test at the press point now. Chromium answers the first hit test at a new point from an
   * approximate test (the list for one of its items) and the next one exactly, so the press point is tested again: an
   * answer inside the hovered element refines it, anything else (a popup the press opened there) does not.
   */
  private async elementPressed(point: Point, hover: Hover | undefined): Promise<RuntimeNode | undefined> {
    const hovered = hover ? await hover.result : undefined;
    if (hovered && contains(await boundsOf(hovered), point)) {
      const again = await this.hitTest(this.runtime, point).catch(() => undefined);
      const inside = again && this.runtime.ancestors(again).some((above) => above.runtimeId === hovered.runtimeId);
      return inside ? again : hovered;
    }
    return this.hitTest(this.runtime, point).catch(() => undefined);
  }

  // --- keys ---

  private async key(at: number, part: TypedPart): Promise<void> {
    const node = await this.focusAt(at);
    // A navigation key is judged by what it did, even when the focus before it could not be told.
    if (part.kind === 'chord' && (await this.navigated(at, part.keys, node))) return;
    if (!node) {
      this.unattributedCount++;
      this.changed();
      return;
    }
    const secure = node.isSecure;
    let added: TypedPart = part;
    if (secure && part.kind === 'text') {
      let variable = this.secretNames.get(node.runtimeId);
      if (!variable) {
        variable = `PASSWORD_${this.secretNames.size + 1}`;
        this.secretNames.set(node.runtimeId, variable);
      }
      added = { kind: 'secret', variable };
    }
    const last = this.stepList.at(-1);
    if (last && last.action.kind === 'type' && last.target.runtimeId === node.runtimeId) {
      last.action = { kind: 'type', parts: appendPart(last.action.parts, added) };
      this.changed();
      return;
    }
    this.addStep({ kind: 'type', parts: [added] }, node);
  }

  /**
   * The element that had the focus when the key was pressed. A click or a focus-moving key shortly before may move
   * the focus, and its focus event can arrive after this key: the key is held back until that event came or
   * FOCUS_SETTLE_MS passed. Without any focus event so far, the tree is asked once.
   */
  private async focusAt(at: number): Promise<RuntimeNode | undefined> {
    // Focus events that came before the key may still be read (their element's state): their answers decide.
    const earlier = [...this.reading].filter((read) => read.at <= at);
    if (earlier.length > 0) await Promise.race([Promise.all(earlier.map((read) => read.done)), sleep(LATE_READ_MS)]);
    const moveAt = this.lastFocusMoveAt;
    if (moveAt < at && at - moveAt < FOCUS_SETTLE_MS) {
      while (performance.now() < moveAt + FOCUS_SETTLE_MS && !this.focusLog.some((entry) => entry.at >= moveAt)) {
        await sleep(10);
      }
      const moved = this.focusLog.find((entry) => entry.at >= moveAt);
      if (moved) return moved.node;
    }
    const before = this.focusLog.findLast((entry) => entry.at <= at);
    if (before) return before.node;
    return this.focusedNow();
  }

  /**
   * A navigation key's own step: Tab (Shift+Tab) that moved the focus to another element is a focus step there; an
   * arrow key (Home, End, PageUp, PageDown) outside a text field that selected an item is a select step on it.
   * Several in a row are one step on the last element reached. False when the key is typed as a key: nothing moved
   * in time, a text field's caret key, or an arrow key that only moved the focus (a window's late focus event after
   * a click must not turn a caret key into a focus step).
   */
  private async navigated(at: number, keys: readonly string[], focused: RuntimeNode | undefined): Promise<boolean> {
    const key = keys.at(-1)!;
    const modifiers = keys.slice(0, -1);
    const isFocusKey = FOCUS_KEYS.has(key) && modifiers.every((modifier) => modifier === 'Shift');
    const isSelectionKey = SELECTION_KEYS.has(key) && modifiers.length === 0;
    if (!isFocusKey && !isSelectionKey) return false;
    const effectNow = () => this.keyEffect(at, isFocusKey, isSelectionKey, focused);
    // An effect already seen decides whatever the focus was: known only from asking the tree after the key, the
    // focus may be where the key (or what came after it) moved it.
    let effect = await effectNow();
    if (!effect && isSelectionKey) {
      const patterns = (await focused?.supportedPatterns().catch(() => undefined)) ?? [];
      if (focused?.isSecure || patterns.includes('TextEditable')) return false;
    }
    while (!effect && performance.now() < this.effectWindowEnd(at)) {
      await sleep(10);
      effect = await effectNow();
    }
    // An event that came in time may still be read (a busy application answers late): its answer decides.
    const deadline = this.effectWindowEnd(at);
    const late = [...this.reading].filter((read) => read.at >= at && read.at <= deadline);
    if (!effect && late.length > 0) {
      await Promise.race([Promise.all(late.map((read) => read.done)), sleep(LATE_READ_MS)]);
      effect = await effectNow();
    }
    if (!effect) return false;
    const last = this.stepList.at(-1);
    if (last?.action.kind === effect.kind) this.stepList.pop();
    this.addStep({ kind: effect.kind }, effect.node);
    return true;
  }

  /**
   * Until when events are a navigation key's effect: KEY_EFFECT_MS after it, or longer while no other input came
   * (up to KEY_EFFECT_MAX_MS); the next press's effects are its own.
   */
  private effectWindowEnd(at: number): number {
    const next = this.pressLog.find((pressedAt) => pressedAt > at) ?? Number.POSITIVE_INFINITY;
    return Math.max(at + KEY_EFFECT_MS, Math.min(next, at + KEY_EFFECT_MAX_MS));
  }

  /**
   * What the key did so far: an item selected since, or the focus moved since to another element (Tab), or, for an
   * arrow key, to an item that is selected now (a list whose rows announce only the focus), or the item a list that
   * announced its selection as a whole names selected (a list whose rows announce nothing).
   */
  private async keyEffect(
    at: number,
    isFocusKey: boolean,
    isSelectionKey: boolean,
    focused: RuntimeNode | undefined,
  ): Promise<{ kind: 'focus' | 'select'; node: RuntimeNode } | undefined> {
    const end = this.effectWindowEnd(at);
    const inTime = (entry: { at: number }) => entry.at >= at && entry.at <= end;
    const selected = isSelectionKey ? this.selectionLog.findLast(inTime) : undefined;
    if (selected) return { kind: 'select', node: selected.node };
    if (isFocusKey) {
      const moved = this.focusLog.findLast((entry) => inTime(entry) && entry.node.runtimeId !== focused?.runtimeId);
      return moved ? { kind: 'focus', node: moved.node } : undefined;
    }
    // The element focused before the key may be known only from asking the tree after it (a click on the row that
    // had the focus announces no focus), so the one the key focused is not compared with it: being selected decides.
    const moved = this.focusLog.findLast(inTime);
    if (moved) {
      // Its selected state as it is now: no event said it changed, so what the tree holds may be older.
      moved.node.invalidate({ children: false });
      const [entry] = await moved.node.attributesNamed(AttributeNames.IsSelected).catch(() => []);
      if (entry?.value.type === 'Bool' && entry.value.value) return { kind: 'select', node: moved.node };
    }
    // Read only now, for a key waiting for its effect: a read at every change would ask the application while it
    // reacts (a click in a list, a notebook's tab).
    const changed = this.containerLog.findLast(inTime);
    if (!changed) return undefined;
    changed.item ??= this.selectedItemOf(changed.runtimeId);
    const item = await changed.item;
    return item ? { kind: 'select', node: item } : undefined;
  }

  /** A focus or selection event on an element the tree has not loaded (dropped when it cannot be loaded in time). */
  private async updatedOnceKnown(runtimeId: string, at: number, focus: boolean, selection: boolean): Promise<void> {
    const node = await this.eventNode(runtimeId);
    if (!node) return;
    await Promise.all([
      focus ? this.focusUpdated(node, at) : undefined,
      selection ? this.selectionUpdated(node, at) : undefined,
    ]);
  }

  /** A typed focus event: its element gained the focus (loaded first when the tree has not loaded it). */
  private focusGained(runtimeId: string, at: number): void {
    const node = this.runtime.node(runtimeId);
    if (node) this.logFocus(node, at);
    else
      this.track(
        this.eventNode(runtimeId).then((loaded) => loaded && this.logFocus(loaded, at)),
        at,
      );
  }

  /** The element an event named, loaded when the tree has not loaded it yet; undefined when it cannot be in time. */
  private async eventNode(runtimeId: string): Promise<RuntimeNode | undefined> {
    const deadline = performance.now() + UNKNOWN_NODE_WAIT_MS;
    // Loaded through its ancestors where the provider can; else once something else (a hit test) loaded it.
    let node = await Promise.race([
      this.runtime.load(runtimeId).catch(() => undefined),
      sleep(UNKNOWN_NODE_WAIT_MS).then(() => undefined),
    ]);
    while (!node && !this.stopped && performance.now() < deadline) {
      await sleep(25);
      node = this.runtime.node(runtimeId);
    }
    return node;
  }

  /** Keeps a focus or selection event's read in `reading` until it is done. */
  private track(read: Promise<void>, at: number): void {
    const entry = { at, done: read.catch(() => undefined) };
    this.reading.add(entry);
    void entry.done.finally(() => this.reading.delete(entry));
  }

  private async selectionUpdated(node: RuntimeNode, at: number): Promise<void> {
    const [entry] = await node.attributesNamed(AttributeNames.IsSelected).catch(() => []);
    if (entry?.value.type === 'Bool' && entry.value.value) this.logSelection(node, at);
  }

  private logContainer(runtimeId: string, at: number): void {
    this.containerLog.push({ runtimeId, at });
    keepLast(this.containerLog, FOCUS_LOG_LIMIT);
  }

  /**
   * The item a list or tree names selected now (its SelectedItems): of several (a table row's cells, a multiple
   * selection) the one focused last, else the first.
   */
  private async selectedItemOf(runtimeId: string): Promise<RuntimeNode | undefined> {
    const container = this.runtime.node(runtimeId) ?? (await this.eventNode(runtimeId));
    if (!container) return undefined;
    // What the tree holds may be older: no event told it that this attribute changed.
    container.invalidate({ children: false });
    const [entry] = await container.attributesNamed(AttributeNames.SelectedItems).catch(() => []);
    const ids =
      entry?.value.type === 'Array' ? entry.value.value.flatMap((v) => (v.type === 'String' ? [v.value] : [])) : [];
    if (ids.length === 0) return undefined;
    const focused = this.focusLog.findLast((logged) => ids.includes(logged.node.runtimeId));
    return focused?.node ?? this.runtime.node(ids[0]!) ?? (await this.eventNode(ids[0]!));
  }

  private logSelection(node: RuntimeNode, at: number): void {
    this.selectionLog.push({ node, at });
    this.selectionLog.sort((a, b) => a.at - b.at);
    keepLast(this.selectionLog, FOCUS_LOG_LIMIT);
  }

  private async focusUpdated(node: RuntimeNode, at: number): Promise<void> {
    const [entry] = await node.attributesNamed(AttributeNames.IsFocused).catch(() => []);
    if (entry?.value.type === 'Bool' && entry.value.value) this.logFocus(node, at);
  }

  private logFocus(node: RuntimeNode, at: number): void {
    this.focusLog.push({ node, at });
    this.focusLog.sort((a, b) => a.at - b.at);
    keepLast(this.focusLog, FOCUS_LOG_LIMIT);
  }

  private async focusedNow(): Promise<RuntimeNode | undefined> {
    try {
      const { items } = await this.xpath.evaluate('//*[@IsFocused = true()]', { timeoutMs: FOCUS_QUERY_TIMEOUT_MS });
      const nodes = items.flatMap((item) => (item.type === 'node' ? [item.node] : []));
      const node = nodes.at(-1);
      // Older than every focus event (the answer may come after some).
      if (node) this.focusLog.unshift({ node, at: Number.NEGATIVE_INFINITY });
      return node;
    } catch {
      return undefined;
    }
  }

  // --- steps ---

  private addStep(action: RecordedStep['action'], node: RuntimeNode): RecordedStep {
    if (this.stepList.length >= this.maxSteps) {
      this.limitReached = true;
      // The queue this runs on is what stop() waits for: stop from outside it.
      setImmediate(() => void this.stop());
      throw new InspectorError('limit-exceeded', `the recording holds its ${this.maxSteps} steps at most`);
    }
    const step: RecordedStep = { id: this.nextId++, action, target: targetOf(node) };
    this.stepList.push(step);
    this.changed();
    const locating = this.locate(step, node);
    this.pendingLocates.add(locating);
    void locating.finally(() => this.pendingLocates.delete(locating));
    return step;
  }

  /** The step's element with its verified locators, found now, while the application still shows it. */
  private async locate(step: RecordedStep, node: RuntimeNode): Promise<void> {
    try {
      const [located] = await locateNodes(this.runtime, this.xpath, [node], { timeoutMs: LOCATE_TIMEOUT_MS });
      if (located) step.target = located;
    } catch {
      // The step stays without locators; the scripts leave it out and say so.
    }
    this.changed();
  }

  private changed(): void {
    if (this.listeners.size === 0) return;
    const steps = this.steps();
    for (const listener of [...this.listeners]) {
      try {
        listener(steps);
      } catch {
        // one listener's failure does not stop recording
      }
    }
  }
}

function appendPart(parts: readonly TypedPart[], part: TypedPart): TypedPart[] {
  const last = parts.at(-1);
  if (last?.kind === 'text' && part.kind === 'text')
    return [...parts.slice(0, -1), { kind: 'text', text: last.text + part.text }];
  if (last?.kind === 'secret' && part.kind === 'secret' && last.variable === part.variable) return [...parts];
  return [...parts, part];
}
