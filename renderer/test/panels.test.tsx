// The panels rendered into a DOM and read through their accessible roles and names (Testing Library), over the
// stores of a real inspector connected to the real dispatcher on the mock provider: the accessibility contract the
// e2e tests rely on, grouping and derived marks, actions and the stale refusal shown in place, the capabilities.
// (Testing Library's `screen` is not used: the DOM is registered after the packages load, so queries go through
// `render`'s result.)
import './support/dom.js';
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { StoresContext } from '../app-context.js';
import { AccessibilityOff } from '../components/AccessibilityOff.js';
import { AttributesPanel } from '../components/AttributesPanel.js';
import { ExportPanel } from '../components/ExportPanel.js';
import { PatternsPanel } from '../components/PatternsPanel.js';
import { StatusBar } from '../components/StatusBar.js';
import { createInspector, type Inspector } from '../stores/wiring.js';
import { connectedHost, type MockHost } from './support/host.js';

afterEach(() => cleanup());

async function inspect(
  t: { after(fn: () => void | Promise<void>): void },
  selected?: string,
): Promise<{ host: MockHost; inspector: Inspector }> {
  const { host, client } = await connectedHost(t);
  const inspector = createInspector(client);
  t.after(async () => inspector.stop());
  await inspector.start();
  if (selected) {
    await client.evaluate('//*').done;
    await inspector.stores.tree.getState().reveal(selected);
    await waitFor(() => assert.equal(inspector.stores.details.getState().loading, false));
  }
  return { host, inspector };
}

function show(inspector: Inspector, ui: React.ReactNode) {
  return render(<StoresContext.Provider value={inspector.stores}>{ui}</StoresContext.Provider>);
}

test('the attributes panel is a table named "Attributes", grouped by namespace, derived aliases marked', async (t) => {
  const { inspector } = await inspect(t, 'mock:button-toolbar-ok');
  inspector.stores.settings.getState().update({ hideDerived: false });
  const screen = show(inspector, <AttributesPanel />);
  const table = screen.getByRole('table', { name: 'Attributes' });
  assert.ok(within(table).getByRole('rowheader', { name: 'control' }));
  const row = (name: RegExp) => within(table).getByRole('rowheader', { name }).closest('tr') as HTMLElement;
  const boundsX = row(/^Bounds\.X/);
  assert.ok(within(boundsX).getByText('derived'));
  assert.deepEqual(
    within(boundsX)
      .getAllByRole('cell')
      .slice(0, 2)
      .map((cell) => cell.textContent),
    ['110', 'Integer'],
  );
  const bounds = row(/^Bounds$/);
  assert.equal(within(bounds).queryByText('derived'), null, 'the structured value itself is not derived');
  assert.equal(within(bounds).getAllByRole('cell')[0]!.textContent, '110, 115 · 80×30');
  assert.equal(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort'), 'ascending');
  assert.ok(screen.getByRole('heading', { name: 'Button "OK"' }));
});

test('the patterns panel runs an action and shows a stale refusal in place', async (t) => {
  const { host, inspector } = await inspect(t, 'mock:checkbox-autosave');
  const screen = show(inspector, <PatternsPanel />);
  const panel = screen.getByRole('region', { name: 'Patterns' });
  await act(async () => {
    fireEvent.click(within(panel).getByRole('button', { name: 'toggle' }));
    await waitFor(() => assert.ok(within(panel).getByText('toggle: done')));
  });
  assert.deepEqual(host.provider.log, ['toggle mock:checkbox-autosave']);
  // The application changes the check box before the UI saw it: the next toggle is refused as stale.
  const other = host.connect();
  const fresh = await other.node('mock:checkbox-autosave');
  await other.action(fresh.runtimeId, fresh.revision, 'focus');
  const shown = inspector.stores.details.getState().node!;
  inspector.stores.details.setState({ node: { ...shown, revision: shown.revision - 1 } });
  await act(async () => {
    fireEvent.click(within(panel).getByRole('button', { name: 'toggle' }));
    await waitFor(() => assert.ok(within(panel).getByText(/^Refused: /)));
  });
  assert.equal(host.provider.log.filter((line) => line.startsWith('toggle')).length, 1, 'the refused toggle never ran');
});

test('Find locators lists verified locators of the selected node at once, then their code', async (t) => {
  const { inspector } = await inspect(t, 'mock:checkbox-autosave');
  const client = inspector.stores.client;
  const exportCode = client.exportCode.bind(client);
  let releaseCode: () => void = () => undefined;
  const codeHeld = new Promise<void>((resolve) => (releaseCode = resolve));
  client.exportCode = async (...args) => {
    await codeHeld;
    return exportCode(...args);
  };
  const screen = show(inspector, <ExportPanel />);
  const panel = screen.getByRole('region', { name: 'Export' });
  await act(async () => {
    fireEvent.click(within(panel).getByRole('button', { name: 'Find locators' }));
    await waitFor(() => assert.ok(within(panel).getAllByRole('listitem').length > 0), { timeout: 5000 });
  });
  const first = within(panel).getAllByRole('listitem')[0]!;
  assert.match(first.querySelector('code')?.textContent ?? '', /auto-save|Auto save/);
  assert.equal(within(panel).queryByRole('group', { name: 'Code preview' }), null, 'the code is still coming');
  await act(async () => {
    releaseCode();
    await waitFor(() => assert.ok(within(panel).getByRole('group', { name: 'Code preview' })), { timeout: 5000 });
  });
  const preview = within(panel).getByRole('group', { name: 'Code preview' });
  const snippet = within(preview).getByLabelText('robot snippet').textContent ?? '';
  assert.match(snippet, /^\$\{LOCATOR_1\}\s+\/\/CheckBox/);
  assert.doesNotMatch(snippet, /\*\*\* Settings/, 'the snippet leaves the settings out');
  fireEvent.click(within(preview).getByRole('radio', { name: 'whole file' }));
  assert.match(within(preview).getByLabelText('robot file').textContent ?? '', /^\*\*\* Settings \*\*\*/);
  fireEvent.change(within(preview).getByRole('combobox', { name: 'Language' }), { target: { value: 'dogtail' } });
  fireEvent.click(within(preview).getByRole('radio', { name: 'snippet' }));
  assert.match(
    within(preview).getByLabelText('dogtail snippet').textContent ?? '',
    /^def find_1\(\):\n[\s\S]*return node$/,
  );
});

test('the status bar names the provider and the accessibility state; the off page offers the switch', async (t) => {
  const { inspector } = await inspect(t);
  let screen = show(inspector, <StatusBar />);
  const bar = screen.getByRole('contentinfo', { name: 'Status bar' });
  assert.match(bar.textContent ?? '', /Mock provider \(ready\) · accessibility on · platform mock/);
  cleanup();
  screen = show(inspector, <AccessibilityOff onEnabled={() => undefined} />);
  assert.ok(screen.getByRole('heading', { name: 'Accessibility is switched off' }));
  assert.ok(screen.getByRole('button', { name: 'Switch accessibility on' }));
});
