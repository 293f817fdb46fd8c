// The Recorder panel over the real dispatcher on the mock provider and the mock platform (whose pointer input is
// copied to the recording as a real desktop's would be), read through its accessible roles and names: Record and
// Stop, the steps as they come, their edits (another locator, an assertion, a deletion) and the script.
import './support/dom.js';
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { MAX_RECORDED_STEPS } from '../../shared/api/schema.js';
import { StoresContext } from '../app-context.js';
import { RecorderPanel } from '../components/RecorderPanel.js';
import { createInspector } from '../stores/wiring.js';
import { connectedHost } from './support/host.js';

afterEach(() => cleanup());

/** The toolbar's OK button of the mock desktop, and a point inside it. */
const OK_ID = 'mock:button-toolbar-ok';
const OK_POINT = { x: 150, y: 130 };

test('records a click live, edits its steps and exports the script in the chosen format', async (t) => {
  const { host, client } = await connectedHost(t);
  const inspector = createInspector(client);
  t.after(() => inspector.stop());
  await inspector.start();
  const screen = render(
    <StoresContext.Provider value={inspector.stores}>
      <RecorderPanel />
    </StoresContext.Provider>,
  );
  const panel = screen.getByRole('region', { name: 'Recorder' });
  const status = () => within(panel).getByRole('status', { name: 'Recording status' }).textContent ?? '';

  await act(async () => {
    fireEvent.click(within(panel).getByRole('button', { name: 'Record' }));
    await waitFor(() => assert.ok(within(panel).getByRole('button', { name: 'Stop' })));
  });
  assert.match(status(), /^Recording… 0 steps/);

  // Another connection clicks (as the user would): the step shows up live, with its verified locators.
  const other = host.connect();
  await other.clickScreen(OK_POINT.x, OK_POINT.y);
  const steps = within(panel).getByRole('list', { name: 'Recorded steps' });
  const locatorOfStep1 = () => within(steps).getByRole('combobox', { name: 'Locator of step 1' }) as HTMLSelectElement;
  await act(async () => {
    await waitFor(() => assert.ok(locatorOfStep1().options.length > 1), { timeout: 10000 });
  });
  assert.ok(within(steps).getByRole('listitem', { name: 'Step 1: click Button "OK"' }));
  assert.match(status(), /^Recording… 1 step\b/);

  // Another of its locators becomes the one the script uses.
  const second = locatorOfStep1().options[1]!.value;
  await act(async () => {
    fireEvent.change(locatorOfStep1(), { target: { value: second } });
    await waitFor(() => assert.equal(locatorOfStep1().value, second));
  });

  // An assertion of the node selected in the tree, then deleted again; a second one stays.
  await client.evaluate('//*').done;
  await inspector.stores.tree.getState().reveal(OK_ID);
  await act(async () => {
    fireEvent.click(within(panel).getByRole('button', { name: 'Add assertion' }));
    await waitFor(() =>
      assert.ok(within(steps).getByRole('listitem', { name: 'Step 2: assert Button "OK" Name = "OK"' })),
    );
  });
  await act(async () => {
    fireEvent.click(within(steps).getByRole('button', { name: 'Delete step 2' }));
    await waitFor(() => assert.equal(within(steps).getAllByRole('listitem').length, 1));
  });
  const assertion = within(panel).getByRole('group', { name: 'Assertion' });
  fireEvent.change(within(assertion).getByRole('combobox'), { target: { value: 'IsEnabled' } });
  await act(async () => {
    fireEvent.click(within(panel).getByRole('button', { name: 'Add assertion' }));
    await waitFor(() =>
      assert.ok(within(steps).getByRole('listitem', { name: 'Step 2: assert Button "OK" IsEnabled = "true"' })),
    );
  });

  await act(async () => {
    fireEvent.click(within(panel).getByRole('button', { name: 'Stop' }));
    await waitFor(() => assert.ok(within(panel).getByRole('button', { name: 'Record' })));
  });
  assert.match(status(), /^2 steps recorded/);

  // The script: the shell script of the CLI clicks by the chosen locator and checks the assertion.
  const script = within(panel).getByRole('group', { name: 'Script' });
  await act(async () => {
    fireEvent.change(within(script).getByRole('combobox', { name: 'Format' }), { target: { value: 'cli' } });
    await waitFor(() =>
      assert.match(within(script).getByLabelText('Shell (CLI) script').textContent ?? '', /pointer click/),
    );
  });
  const text = within(script).getByLabelText('Shell (CLI) script').textContent ?? '';
  assert.ok(text.includes(`pointer click '${second.replace(/'/g, `'\\''`)}'`), text);
  assert.match(text, /IsEnabled/);
  assert.ok(within(script).getByRole('button', { name: 'Copy Shell (CLI) script' }));
  assert.ok(within(script).getByRole('button', { name: 'Save Shell (CLI) script' }));
  await act(async () => {
    fireEvent.change(within(script).getByRole('combobox', { name: 'Format' }), { target: { value: 'robot' } });
    await waitFor(() =>
      assert.match(within(script).getByLabelText('Robot Framework script').textContent ?? '', /Pointer Click/),
    );
  });
});

test('a recording stops at its step limit; the limit is checked and a page that connects later sees the steps', async (t) => {
  const { host, client } = await connectedHost(t);
  await assert.rejects(client.startRecording(MAX_RECORDED_STEPS + 1), { code: 'invalid-input', message: /maxSteps/ });
  await assert.rejects(client.deleteRecordedStep(1), { code: 'invalid-input', message: /recording\.start/ });
  const started = await client.startRecording(2);
  assert.deepEqual([started.recording, started.maxSteps, started.steps.length], [true, 2, 0]);
  // OK, Save, Auto save, OK: four clicks on the toolbar, the third past the limit.
  for (const x of [150, 240, 360, 150]) await client.clickScreen(x, OK_POINT.y);
  const later = host.connect();
  let state = await later.recordingState();
  for (let i = 0; i < 100 && state.recording; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    state = await later.recordingState();
  }
  assert.equal(state.recording, false);
  assert.equal(state.limitReached, true);
  assert.equal(state.steps.length, 2);
  await assert.rejects(later.addRecordedAssertion(OK_ID, 'Name'), { code: 'limit-exceeded' });
});
