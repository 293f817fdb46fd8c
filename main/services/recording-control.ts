import { InspectorError } from '../../shared/model/errors.js';
import { renderRecording, type RecordingFormat } from '../../shared/recording/export.js';
import { describeStep, type AssertableAttribute, type RecordedStep } from '../../shared/recording/steps.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { DEFAULT_MAX_STEPS, Recorder } from './recorder.js';

/** A step as the front ends list it: the recorded step and its short description. */
export type DescribedStep = RecordedStep & { description: string };

export interface RecordingState {
  recording: boolean;
  mechanism: string;
  steps: DescribedStep[];
  unattributed: number;
  maxSteps: number;
  limitReached: boolean;
}

/** What changed since the last report: steps added or changed, ids removed. */
export interface RecordingChange {
  recording: boolean;
  steps: DescribedStep[];
  removed: number[];
  unattributed: number;
  limitReached: boolean;
}

/** Changes are reported at most this often (typing grows a step at every key). */
const REPORT_MS = 100;

const described = (step: RecordedStep): DescribedStep => ({ ...step, description: describeStep(step) });

/**
 * The host's one recording (there is one user's input to copy), shared by its connections: started by one of them
 * (a new start replaces the recording, whoever made it), stopped by a request, at its step limit, or when the
 * connection that started it goes away. Its steps stay for editing and export until the next start. Changes go to
 * `report` as differences, gathered for up to 100 ms.
 */
export class RecordingControl {
  private recorder: Recorder | undefined;
  private owner: object | undefined;
  private offChange: (() => void) | undefined;
  /** What the last report said of each step (its JSON), to send only what changed. */
  private reported = new Map<number, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly runtime: Runtime,
    private readonly xpath: XPathService,
    private readonly report: (change: RecordingChange) => void,
  ) {}

  async start(owner: object, maxSteps = DEFAULT_MAX_STEPS): Promise<RecordingState> {
    await this.discard();
    const recorder = await Recorder.start(this.runtime, this.xpath, { maxSteps });
    this.recorder = recorder;
    this.owner = owner;
    this.offChange = recorder.onChange(() => this.schedule());
    this.flush();
    return this.state();
  }

  async stop(): Promise<RecordingState> {
    await this.recorder?.stop();
    this.flush();
    return this.state();
  }

  /** The connection went away: a recording it started stops (its steps stay). */
  async release(owner: object): Promise<void> {
    if (this.owner !== owner) return;
    this.owner = undefined;
    if (this.recorder?.status().recording) await this.stop();
  }

  state(): RecordingState {
    const status = this.recorder?.status();
    return {
      recording: status?.recording ?? false,
      mechanism: status?.mechanism ?? 'none',
      steps: (this.recorder?.steps() ?? []).map(described),
      unattributed: status?.unattributed ?? 0,
      maxSteps: status?.maxSteps ?? DEFAULT_MAX_STEPS,
      limitReached: status?.limitReached ?? false,
    };
  }

  deleteStep(id: number): RecordingState {
    this.current().deleteStep(id);
    return this.state();
  }

  chooseLocator(id: number, xpath: string): RecordingState {
    this.current().chooseLocator(id, xpath);
    return this.state();
  }

  async assert(node: RuntimeNode, attribute: AssertableAttribute): Promise<RecordingState> {
    await this.current().addAssertion(node, attribute);
    return this.state();
  }

  export(format: RecordingFormat): { format: RecordingFormat; script: string; steps: number } {
    const steps = this.recorder?.steps() ?? [];
    return { format, script: renderRecording(format, steps), steps: steps.length };
  }

  /** Stops the recording and forgets it (the host shuts down). */
  async close(): Promise<void> {
    await this.discard();
  }

  private current(): Recorder {
    if (!this.recorder) throw new InspectorError('invalid-input', 'nothing was recorded yet; send recording.start');
    return this.recorder;
  }

  private async discard(): Promise<void> {
    const recorder = this.recorder;
    this.recorder = undefined;
    this.owner = undefined;
    this.offChange?.();
    this.offChange = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await recorder?.stop();
    // The next recording's first report removes this one's steps.
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.flush(), REPORT_MS);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const state = this.state();
    const changed: DescribedStep[] = [];
    const now = new Map<number, string>();
    for (const step of state.steps) {
      const json = JSON.stringify(step);
      now.set(step.id, json);
      if (this.reported.get(step.id) !== json) changed.push(step);
    }
    const removed = [...this.reported.keys()].filter((id) => !now.has(id));
    this.reported = now;
    this.report({
      recording: state.recording,
      steps: changed,
      removed,
      unattributed: state.unattributed,
      limitReached: state.limitReached,
    });
  }
}
