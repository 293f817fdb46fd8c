import { useEffect, useState } from 'react';
import type { ApiRecordedStep } from '../../shared/api/schema.js';
import { ASSERTABLE_ATTRIBUTES, type AssertableAttribute } from '../../shared/recording/steps.js';
import { useSlice, useStores } from '../app-context.js';
import { RECORDING_FORMATS, type RecordingFormat } from '../stores/recorder-store.js';
import { selectCapabilities } from '../stores/host-state-store.js';
import { saveText } from './clipboard.js';
import { useCopy } from './LocatorStatus.js';

/** The script is asked for again this long after the steps last changed. */
const SCRIPT_DELAY_MS = 300;

const FORMAT_TITLES: { readonly [format in RecordingFormat]: string } = {
  robot: 'Robot Framework',
  python: 'Python',
  dogtail: 'dogtail',
  cli: 'Shell (CLI)',
};
const FILE_NAMES: { readonly [format in RecordingFormat]: string } = {
  robot: 'recording.robot',
  python: 'recording.py',
  dogtail: 'recording_dogtail.py',
  cli: 'recording.sh',
};

/** One step: what was done, the locator its script uses (another can be chosen), and its deletion. */
function StepItem({ step, index, recording }: { step: ApiRecordedStep; index: number; recording: boolean }) {
  const { recorder } = useStores();
  const number = index + 1;
  const locators = step.target.locators;
  return (
    <li className="recorded-step" aria-label={`Step ${number}: ${step.description}`}>
      <span className="recorded-step-text">{step.description}</span>
      {locators.length > 0 ? (
        <select
          aria-label={`Locator of step ${number}`}
          value={locators[0]!.xpath}
          onChange={(e) => void recorder.getState().chooseLocator(step.id, e.target.value)}
        >
          {locators.map((locator) => (
            <option key={locator.xpath} value={locator.xpath}>
              {locator.xpath}
            </option>
          ))}
        </select>
      ) : (
        <span className="muted">{recording ? 'finding locators…' : 'no verified locator: left out of the script'}</span>
      )}
      <button
        type="button"
        aria-label={`Delete step ${number}`}
        onClick={() => void recorder.getState().deleteStep(step.id)}
      >
        Delete
      </button>
    </li>
  );
}

/** An assertion of the node selected in the tree: one of its attributes as it is now. */
function AddAssertion() {
  const { recorder, tree } = useStores();
  const selectedId = useSlice(tree, (s) => s.selectedId);
  const [attribute, setAttribute] = useState<AssertableAttribute>('Name');
  return (
    <div className="toolbar-inline" role="group" aria-label="Assertion">
      <label className="check">
        Assert the selected node's
        <select value={attribute} onChange={(e) => setAttribute(e.target.value as AssertableAttribute)}>
          {ASSERTABLE_ATTRIBUTES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={!selectedId}
        onClick={() => selectedId && void recorder.getState().addAssertion(selectedId, attribute)}
      >
        Add assertion
      </button>
    </div>
  );
}

/** The script of the steps in one of the four formats, previewed, copied or saved. */
function ScriptPreview() {
  const { recorder } = useStores();
  const steps = useSlice(recorder, (s) => s.steps);
  const format = useSlice(recorder, (s) => s.format);
  const script = useSlice(recorder, (s) => s.script);
  const copy = useCopy();
  useEffect(() => {
    const timer = setTimeout(() => void recorder.getState().renderScript(), SCRIPT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [recorder, steps, format]);
  const title = FORMAT_TITLES[format];
  return (
    <div className="code-preview" role="group" aria-label="Script">
      <div className="toolbar-inline">
        <label className="check">
          Format
          <select value={format} onChange={(e) => recorder.getState().setFormat(e.target.value as RecordingFormat)}>
            {RECORDING_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_TITLES[f]}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          aria-label={`Copy ${title} script`}
          disabled={script === undefined}
          onClick={() => script !== undefined && copy(script, `${title} script`)}
        >
          Copy
        </button>
        <button
          type="button"
          aria-label={`Save ${title} script`}
          disabled={script === undefined}
          onClick={() => script !== undefined && saveText(script, FILE_NAMES[format], 'text/plain')}
        >
          Save
        </button>
      </div>
      <pre className="code" aria-label={`${title} script`} tabIndex={0}>
        {script ?? ''}
      </pre>
    </div>
  );
}

/** The Recorder panel: Record and Stop, the steps as they are recorded, their edits and the script. */
export function RecorderPanel() {
  const { recorder, hostState } = useStores();
  const available = useSlice(hostState, (s) => selectCapabilities(s).record);
  const state = useSlice(recorder, (s) => s);
  const actions = recorder.getState();
  const count = state.steps.length;
  const status = state.recording
    ? `Recording… ${count} ${count === 1 ? 'step' : 'steps'}`
    : state.limitReached
      ? `Stopped at the limit of ${state.maxSteps} steps`
      : `${count} ${count === 1 ? 'step' : 'steps'} recorded`;
  return (
    <section className="recorder-panel" aria-label="Recorder">
      <div className="events-toolbar" role="toolbar" aria-label="Recorder actions">
        {state.recording ? (
          <button type="button" disabled={state.busy} onClick={() => void actions.stop()}>
            Stop
          </button>
        ) : (
          <button type="button" disabled={!available || state.busy} onClick={() => void actions.start()}>
            Record
          </button>
        )}
        <span role="status" aria-label="Recording status">
          {status}
          {state.unattributed > 0 ? ` (${state.unattributed} inputs on no known element left out)` : ''}
        </span>
      </div>
      {!available ? (
        <p className="muted">This host cannot record the user's input (it needs X11 with the RECORD extension).</p>
      ) : null}
      {state.error ? <p role="alert">{state.error}</p> : null}
      <AddAssertion />
      <ol className="recorded-steps" aria-label="Recorded steps">
        {state.steps.map((step, index) => (
          <StepItem key={step.id} step={step} index={index} recording={state.recording} />
        ))}
      </ol>
      <ScriptPreview />
    </section>
  );
}
