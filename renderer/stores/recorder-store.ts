/**
 * The Recorder panel's model: the host's one recording (`recording.*`), its steps kept up to date by the
 * `recording.changed` events, the edits (delete a step, choose another locator, add an assertion) and the script
 * in one of the four formats.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../../shared/api/client.js';
import type { ApiRecordedStep, InspectorEvent, RecordingStateInfo } from '../../shared/api/schema.js';
import { RECORDING_FORMATS, type RecordingFormat } from '../../shared/recording/export.js';
import type { AssertableAttribute } from '../../shared/recording/steps.js';
import { errorOf } from '../model/errors.js';

export { RECORDING_FORMATS, type RecordingFormat };

export interface RecorderState {
  recording: boolean;
  /** In order of their ids (the order they were recorded in). */
  steps: ApiRecordedStep[];
  unattributed: number;
  maxSteps: number;
  limitReached: boolean;
  /** A request is on its way (start, stop). */
  busy: boolean;
  error: string | undefined;
  format: RecordingFormat;
  /** The script in `format` for the steps shown (undefined until asked for). */
  script: string | undefined;
}

export interface RecorderActions {
  /** Reads the host's recording (one may be running from before this page). */
  load(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  deleteStep(id: number): Promise<void>;
  chooseLocator(id: number, xpath: string): Promise<void>;
  /** Adds a step asserting the node's attribute as it is now. */
  addAssertion(runtimeId: string, attribute: AssertableAttribute): Promise<void>;
  setFormat(format: RecordingFormat): void;
  /** Asks the host for the script of the steps in the chosen format. */
  renderScript(): Promise<void>;
  handleEvent(event: InspectorEvent): void;
}

export type RecorderStore = StoreApi<RecorderState & RecorderActions>;

const byId = (a: ApiRecordedStep, b: ApiRecordedStep) => a.id - b.id;

export function createRecorderStore(client: InspectorClient): RecorderStore {
  let scriptTicket = 0;
  return createStore<RecorderState & RecorderActions>()((set, get) => {
    const apply = (state: RecordingStateInfo) =>
      set({
        recording: state.recording,
        steps: state.steps,
        unattributed: state.unattributed,
        maxSteps: state.maxSteps,
        limitReached: state.limitReached,
        error: undefined,
      });
    /** Runs a request that answers with the recording, and shows it (or the error). */
    const run = async (request: () => Promise<RecordingStateInfo>) => {
      set({ busy: true });
      try {
        apply(await request());
      } catch (error) {
        set({ error: errorOf(error).message });
      } finally {
        set({ busy: false });
      }
    };
    return {
      recording: false,
      steps: [],
      unattributed: 0,
      maxSteps: 0,
      limitReached: false,
      busy: false,
      error: undefined,
      format: 'robot',
      script: undefined,

      load: () => run(() => client.recordingState()),
      start: () => run(() => client.startRecording()),
      stop: () => run(() => client.stopRecording()),
      deleteStep: (id) => run(() => client.deleteRecordedStep(id)),
      chooseLocator: (id, xpath) => run(() => client.chooseStepLocator(id, xpath)),
      addAssertion: (runtimeId, attribute) => run(() => client.addRecordedAssertion(runtimeId, attribute)),
      setFormat(format) {
        set({ format, script: undefined });
        void get().renderScript();
      },
      async renderScript() {
        const mine = ++scriptTicket;
        const format = get().format;
        try {
          const { script } = await client.exportRecording(format);
          if (mine === scriptTicket) set({ script });
        } catch (error) {
          if (mine === scriptTicket) set({ error: errorOf(error).message });
        }
      },
      handleEvent(event) {
        if (event.type !== 'recording.changed') return;
        const gone = new Set([...event.removed, ...event.steps.map((step) => step.id)]);
        const steps = [...get().steps.filter((step) => !gone.has(step.id)), ...event.steps].sort(byId);
        set({
          recording: event.recording,
          steps,
          unattributed: event.unattributed,
          limitReached: event.limitReached,
        });
      },
    };
  });
}
