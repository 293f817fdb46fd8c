// The daily-use frictions fixed in the components, read through their accessible roles and names (Testing Library
// on happy-dom) over a real inspector on the real dispatcher and the mock provider: one copy menu per attribute
// row and Ctrl+C, readable values, hidden derived aliases, the id and states; the tree's secondary texts,
// type-to-jump and cold start; the selected element outlined with where it is; status messages that clear.
import './support/dom.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { StoresContext } from '../app-context.js';
import { AttributesPanel } from '../components/AttributesPanel.js';
import { ExportPanel } from '../components/ExportPanel.js';
import { Tabs } from '../components/Tabs.js';
import { TreeView } from '../components/TreeView.js';
import { codeSnippet } from '../model/code-snippet.js';
import { displayValue, statesSummary } from '../model/display.js';
import { placementOf, placementText } from '../model/placement.js';
import { createHostStateStore } from '../stores/host-state-store.js';
import { createInspector, type Inspector } from '../stores/wiring.js';
import { connectedHost } from './support/host.js';

afterEach(() => cleanup());

// happy-dom lays nothing out: give elements a size, so that the virtualized tree renders rows.
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 400 });

type TestContext = { after(fn: () => void | Promise<void>): void };

async function inspect(t: TestContext, options: { selected?: string; mockFile?: string } = {}): Promise<Inspector> {
  const { client } = await connectedHost(t, options.mockFile ? { mockFile: options.mockFile } : {});
  const inspector = createInspector(client);
  t.after(async () => inspector.stop());
  await inspector.start();
  // The host knows a node by its id once it was seen.
  await client.evaluate('//*').done;
  if (options.selected) {
    await inspector.stores.tree.getState().reveal(options.selected);
    await waitFor(() => assert.equal(inspector.stores.details.getState().loading, false));
  }
  return inspector;
}

function show(inspector: Inspector, ui: React.ReactNode) {
  return render(<StoresContext.Provider value={inspector.stores}>{ui}</StoresContext.Provider>);
}

/** A desktop with an unnamed table of rows whose first cells are named, and a button far off every screen. */
function writeDailyTree(t: TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-daily-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'daily.xml');
  const rows = [1, 2, 3]
    .map(
      (i) =>
        `<item:TableRow RuntimeId="mock:row-${i}"><item:TableCell Name="Cell ${i}" RuntimeId="mock:cell-${i}"/></item:TableRow>`,
    )
    .join('');
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>
<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app" xmlns:item="urn:platynui:item">
  <app:Application Name="Sheets" RuntimeId="mock:app-sheets" ProcessId="77">
    <Window Name="Sheets" RuntimeId="mock:window-sheets" Bounds='{"x":10,"y":10,"width":800,"height":600}'>
      <Table RuntimeId="mock:table" Bounds='{"x":20,"y":40,"width":400,"height":300}'>${rows}</Table>
      <Button Name="Far away" Id="far" RuntimeId="mock:button-far" Bounds='{"x":90000,"y":90000,"width":40,"height":20}'/>
      <Button Name="Nowhere" RuntimeId="mock:button-nowhere"/>
    </Window>
  </app:Application>
  <app:Application Name="Chromium" RuntimeId="mock:app-browser-other" ProcessId="80">
    <Frame Name="News - Chromium" RuntimeId="mock:frame-news"/>
  </app:Application>
  <app:Application Name="Chromium" RuntimeId="mock:app-browser-own" ProcessId="81">
    <Frame Name="PlatynUI Inspector - Chromium" RuntimeId="mock:frame-own"/>
  </app:Application>
</snapshot>
`,
  );
  return file;
}

test('values read as people read them; states in one line', () => {
  assert.equal(displayValue({ type: 'Rect', value: { x: 12, y: 429, width: 54, height: 22 } }), '12, 429 · 54×22');
  assert.equal(displayValue({ type: 'Point', value: { x: 3, y: 4 } }), '3, 4');
  assert.equal(displayValue({ type: 'Array', value: [{ type: 'Null' }] }), '1 item');
  const flag = (name: string, value: boolean) => ({
    namespace: 'control' as const,
    name,
    value: { type: 'Bool' as const, value },
    derived: false,
  });
  assert.equal(
    statesSummary([flag('IsEnabled', false), flag('IsVisible', true), flag('IsFocused', true)]),
    'disabled · visible · focused',
  );
});

test('one copy menu per attribute row (no Tab stop), Ctrl+C copies the value, derived aliases hidden', async (t) => {
  const inspector = await inspect(t, { selected: 'mock:button-toolbar-ok' });
  const screen = show(inspector, <AttributesPanel />);
  const table = screen.getByRole('table', { name: 'Attributes' });
  const row = (name: string) =>
    within(table)
      .getByRole('rowheader', { name: new RegExp(`^${name}`) })
      .closest('tr') as HTMLElement;

  // Derived aliases are hidden until asked for.
  assert.equal(within(table).queryByRole('rowheader', { name: /^Bounds\.X/ }), null);
  fireEvent.click(screen.getByRole('checkbox', { name: 'Hide derived' }));
  assert.ok(within(table).getByRole('rowheader', { name: /^Bounds\.X/ }));
  fireEvent.click(screen.getByRole('checkbox', { name: 'Hide derived' }));

  // One button per row, none of them a Tab stop; it opens a menu of three ways to copy.
  const rows = table.querySelectorAll('tr[data-key]');
  const copyButtons = within(table).getAllByRole('button', { name: /^Copy .*…$/ });
  assert.equal(copyButtons.length, rows.length);
  assert.ok(copyButtons.every((button) => button.tabIndex === -1));
  fireEvent.click(within(row('Name')).getByRole('button', { name: 'Copy Name…' }));
  const menu = screen.getByRole('menu', { name: 'Copy Name' });
  assert.deepEqual(
    within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent),
    ['Copy value', 'Copy name', 'Copy row'],
  );
  await act(async () => {
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Copy row' }));
  });
  await waitFor(async () => assert.equal(await navigator.clipboard.readText(), 'Name\tOK\tString'));
  assert.equal(screen.queryByRole('menu'), null, 'the menu closed');

  // Ctrl+C on a row copies its exact value; the cell shows it readable.
  const bounds = row('Bounds');
  assert.equal(within(bounds).getAllByRole('cell')[0]!.textContent, '110, 115 · 80×30');
  await act(async () => {
    fireEvent.keyDown(bounds, { key: 'c', ctrlKey: true });
  });
  await waitFor(async () =>
    assert.equal(await navigator.clipboard.readText(), '{"x":110,"y":115,"width":80,"height":30}'),
  );
  // The id and the states next to the title.
  assert.equal(screen.getByTitle(/developer id/).textContent, 'Id toolbar-ok');
  assert.equal(screen.getByLabelText('States').textContent, 'enabled · visible');
});

test('a list of objects opens into its parts', async (t) => {
  const inspector = await inspect(t, { selected: 'platynui:Desktop' });
  const screen = show(inspector, <AttributesPanel />);
  const table = screen.getByRole('table', { name: 'Attributes' });
  const monitors = within(table).getByRole('rowheader', { name: 'Monitors' }).closest('tr') as HTMLElement;
  const summary = within(monitors).getByText('3 items');
  assert.equal(summary.tagName, 'SUMMARY');
  fireEvent.click(summary);
  assert.ok(within(monitors).getByText('mock-centre'));
});

test('tree rows tell alike rows apart; typing jumps to a row; the cold start says what it waits for', async (t) => {
  const { client } = await connectedHost(t, { mockFile: writeDailyTree(t) });
  const inspector = createInspector(client);
  t.after(async () => inspector.stop());
  const screen = show(
    inspector,
    <>
      <TreeView />
      <ExportPanel />
    </>,
  );
  // Before the host answered: what the inspector waits for, and no verdict on what the host can do.
  assert.ok(screen.getByText('Connecting to the inspector host…'));
  assert.ok(screen.getByText('Waiting for the inspector host…'));
  assert.equal(screen.queryByText(/does not generate locators/), null);
  await act(async () => {
    await inspector.start();
    await client.evaluate('//*').done;
    await inspector.stores.tree.getState().reveal('mock:cell-2');
  });
  const tree = screen.getByRole('tree', { name: 'Accessibility tree' });
  await act(() => inspector.stores.tree.getState().settle());
  const row = (index: number) =>
    within(tree)
      .getAllByRole('treeitem')
      .find((item) => item.dataset.runtimeId === `mock:row-${index}`)!;
  assert.equal(row(1).getAttribute('aria-label'), 'item:TableRow', 'the name stays the label');
  assert.equal(row(1).getAttribute('aria-description'), '“Cell 1” · 1 child');
  assert.match(row(3).textContent ?? '', /“Cell 3”/);
  const app = within(tree).getByRole('treeitem', { name: 'app:Application "Sheets"' });
  assert.match(app.getAttribute('aria-description') ?? '', /“Sheets”/);
  // Of two applications "Chromium", the one showing the inspector is marked, and its window.
  const browsers = () => within(tree).getAllByRole('treeitem', { name: 'app:Application "Chromium"' });
  await waitFor(() =>
    assert.deepEqual(
      browsers().map((item) => [
        item.dataset.runtimeId,
        /this inspector/.test(item.getAttribute('aria-description') ?? ''),
      ]),
      [
        ['mock:app-browser-other', false],
        ['mock:app-browser-own', true],
      ],
    ),
  );
  assert.match(browsers()[1]!.textContent ?? '', /this inspector/);
  assert.match(app.getAttribute('aria-description') ?? '', /pid 77\b/, 'an application shows its process id');
  assert.match(browsers()[1]!.getAttribute('aria-description') ?? '', /this inspector.*pid 81\b/);
  assert.match(browsers()[0]!.getAttribute('aria-description') ?? '', /“News - Chromium”/);
  // A node revealed from elsewhere is scrolled to the middle; keyboard moves only into view.
  assert.equal(inspector.stores.tree.getState().scrollRequest?.align, 'center');
  await act(() =>
    inspector.stores.tree
      .getState()
      .key('ArrowDown')
      .then(() => undefined),
  );
  assert.equal(inspector.stores.tree.getState().scrollRequest?.align, 'auto');
  // Type-to-jump: "fa" selects the "Far away" button, "n" then the next row starting with n.
  fireEvent.keyDown(tree, { key: 'f' });
  fireEvent.keyDown(tree, { key: 'a' });
  await waitFor(() => assert.equal(inspector.stores.tree.getState().selectedId, 'mock:button-far'));
  await new Promise((resolve) => setTimeout(resolve, 750));
  fireEvent.keyDown(tree, { key: 'N' });
  await waitFor(() => assert.equal(inspector.stores.tree.getState().selectedId, 'mock:button-nowhere'));
});

test('the selected element is outlined on screen and the tree says where it is; the setting turns it off', async (t) => {
  const inspector = await inspect(t, { mockFile: writeDailyTree(t) });
  const screen = show(inspector, <TreeView />);
  const note = () => screen.getByRole('note', { name: 'On screen' }).textContent;
  await act(async () => {
    await inspector.stores.tree.getState().reveal('mock:window-sheets');
  });
  await waitFor(() => assert.equal(note(), 'Outlined at 10, 10 · 800×600'));
  await act(async () => {
    await inspector.stores.tree.getState().reveal('mock:button-far');
  });
  await waitFor(() =>
    assert.equal(note(), 'Off screen: at 90000, 90000 · 40×20, outside every monitor; nothing visible is outlined'),
  );
  await act(async () => {
    await inspector.stores.tree.getState().reveal('mock:button-nowhere');
  });
  await waitFor(() => assert.equal(note(), 'No bounds: this element has no place on screen to outline'));
  fireEvent.click(screen.getByRole('checkbox', { name: 'Highlight selection' }));
  assert.equal(inspector.stores.settings.getState().highlightSelection, false);
  await act(async () => {
    await inspector.stores.tree.getState().reveal('mock:window-sheets');
    await new Promise((resolve) => setTimeout(resolve, 400));
  });
  assert.equal(note(), '', 'nothing outlined with the setting off');
});

test('finding locators shows progress; the best one stands next to the title with Copy', async (t) => {
  const inspector = await inspect(t, { selected: 'mock:checkbox-autosave' });
  const screen = show(inspector, <AttributesPanel />);
  const best = screen.getByRole('group', { name: 'Best locator' });
  act(() => inspector.stores.locators.setState({ busy: true, runtimeId: 'mock:checkbox-autosave' }));
  assert.ok(within(best).getByRole('progressbar', { name: 'Finding locators' }));
  act(() => inspector.stores.locators.setState({ busy: false }));
  await act(async () => {
    fireEvent.click(within(best).getByRole('button', { name: 'Find locator' }));
    await waitFor(() => assert.ok(within(best).getByRole('button', { name: /^Copy best locator / })), {
      timeout: 5000,
    });
  });
  assert.equal(within(best).getByRole('code').textContent, "//CheckBox[@Id='auto-save']");
});

test('placement against the screens', () => {
  const screens = [{ x: 0, y: 0, width: 100, height: 100 }];
  assert.equal(placementOf([{ x: 99, y: 99, width: 5, height: 5 }], screens).kind, 'on screen');
  assert.equal(placementOf([{ x: 100, y: 0, width: 5, height: 5 }], screens).kind, 'off screen');
  assert.equal(placementText(placementOf([], screens)), 'No bounds: this element has no place on screen to outline');
});

test('a status message clears itself after a while; a newer one is kept', async () => {
  const client = { desktop: () => Promise.reject(new Error('unused')) } as never;
  const hostState = createHostStateStore(client, { onReveal: () => undefined }, { info: 40, error: 80 });
  hostState.getState().say('first');
  await new Promise((resolve) => setTimeout(resolve, 20));
  hostState.getState().say('second', 'error');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(hostState.getState().message?.text, 'second');
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(hostState.getState().message, undefined);
});

test('tabs: arrows move between views, a view keeps its state while hidden', () => {
  const screen = render(
    <Tabs
      label="Views"
      tabs={[
        { id: 'a', title: 'First', render: () => <input aria-label="kept" /> },
        { id: 'b', title: 'Second', render: () => <p>second view</p> },
      ]}
    />,
  );
  const list = screen.getByRole('tablist', { name: 'Views' });
  (screen.getByRole('textbox', { name: 'kept' }) as HTMLInputElement).value = 'typed';
  fireEvent.keyDown(within(list).getByRole('tab', { name: 'First' }), { key: 'ArrowRight' });
  assert.equal(within(list).getByRole('tab', { name: 'Second' }).getAttribute('aria-selected'), 'true');
  assert.equal(screen.getByRole('tabpanel').textContent, 'second view');
  fireEvent.click(within(list).getByRole('tab', { name: 'First' }));
  assert.equal((screen.getByRole('textbox', { name: 'kept' }) as HTMLInputElement).value, 'typed');
});

test('code snippets: the part to paste, or the whole file when the template has none', () => {
  const python = 'import x\n\nLOCATORS = [\n    ("a", "//A"),\n]\n\n\ndef main():\n    pass\n';
  assert.equal(codeSnippet('python', python), 'LOCATORS = [\n    ("a", "//A"),\n]');
  assert.equal(codeSnippet('dogtail', 'print(1)\n'), 'print(1)\n');
});
