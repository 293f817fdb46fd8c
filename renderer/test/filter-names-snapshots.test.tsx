// The tree filter (deep matches under their real parents, the no-match line, the whole-tree search), the XPath
// console's name checks and "Try", and the snapshot comparison, over a real inspector connected to the real
// dispatcher on the mock provider, read through accessible roles and names.
import './support/dom.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { StoresContext } from '../app-context.js';
import { SnapshotBanner } from '../components/SnapshotBanner.js';
import { SnapshotTools } from '../components/SnapshotTools.js';
import { TreeFilterStatus } from '../components/TreeFilterStatus.js';
import { nodeLabel } from '../model/labels.js';
import { summaryText } from '../stores/xpath-store.js';
import { createInspector, type Inspector } from '../stores/wiring.js';
import { connectedHost } from './support/host.js';

afterEach(() => cleanup());

/** waitFor with room for a loaded machine (the default second is too short for a host starting a worker). */
const eventually = <T,>(check: () => T) => waitFor(check, { timeout: 20000 });

type TestContext = { after(fn: () => void | Promise<void>): void };

async function inspect(t: TestContext, mockFile?: string): Promise<Inspector> {
  const { client } = await connectedHost(t, mockFile ? { mockFile } : {});
  const inspector = createInspector(client, { xpathDebounceMs: 10 });
  t.after(async () => inspector.stop());
  await inspector.start();
  return inspector;
}

function show(inspector: Inspector, ui: React.ReactNode) {
  return render(<StoresContext.Provider value={inspector.stores}>{ui}</StoresContext.Provider>);
}

const labels = (inspector: Inspector) =>
  inspector.stores.tree.getState().rows.map((row) => `${'  '.repeat(row.level - 1)}${nodeLabel(row.node)}`);

/** A page whose heading sits fourteen levels below the window, among siblings that do not match. */
function deepTree(t: TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-filter-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'deep.xml');
  let inner = '<Heading Name="Results"/>';
  for (let level = 13; level >= 1; level--) inner = `<Pane Name="p${level}">${inner}<Text Name="t${level}"/></Pane>`;
  writeFileSync(
    file,
    `<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app">
  <app:Application Name="Browser"><Window Name="Page">${inner}<Button Name="Go"/></Window></app:Application>
  <app:Application Name="Other"><Window Name="Other window"><Heading Name="Elsewhere"/></Window></app:Application>
</snapshot>`,
  );
  return file;
}

test('the filter shows a deep match under its real parents and drops every row that does not lead to a match', async (t) => {
  const inspector = await inspect(t, deepTree(t));
  const tree = inspector.stores.tree;
  await tree.getState().expandAll(tree.getState().rootId!);
  tree.getState().setFilter('results');
  const rows = labels(inspector);
  assert.equal(rows.length, 17, rows.join('\n'));
  assert.deepEqual(rows.slice(0, 4), [
    'Desktop "Mock Desktop"',
    '  app:Application "Browser"',
    '    Window "Page"',
    '      Pane "p1"',
  ]);
  assert.equal(rows.at(-1), `${'  '.repeat(16)}Heading "Results"`, 'at its own depth, under Pane "p13"');
  assert.equal(rows.at(-2), `${'  '.repeat(15)}Pane "p13"`);
  assert.ok(!rows.some((row) => /Text|Button|Other/.test(row)), 'no row that does not lead to the match');
  const heading = tree.getState().rows.at(-1)!;
  assert.deepEqual([heading.posInSet, heading.setSize], [1, 1], 'positions among the rows shown');
  assert.equal(tree.getState().rows[3]!.expanded, true, 'ancestors are shown expanded');
  tree.getState().setFilter('heading');
  assert.deepEqual(
    labels(inspector).filter((row) => row.includes('Heading')),
    [`${'  '.repeat(16)}Heading "Results"`, '      Heading "Elsewhere"'],
  );
});

test('no loaded match says so; searching the whole tree loads the path to each match', async (t) => {
  const inspector = await inspect(t, deepTree(t));
  const tree = inspector.stores.tree;
  const screen = show(inspector, <TreeFilterStatus />);
  tree.getState().setFilter('Results');
  await eventually(() => screen.getByText('No loaded node matches "Results"'));
  assert.deepEqual(tree.getState().rows, []);
  fireEvent.click(screen.getByRole('button', { name: 'Search the whole tree' }));
  await eventually(() => screen.getByText('1 matches in the whole tree, shown under their parents'));
  const rows = labels(inspector);
  assert.equal(rows.at(-1), `${'  '.repeat(16)}Heading "Results"`);
  assert.equal(rows.length, 17);
  tree.getState().setFilter('nothing like it');
  fireEvent.click(await eventually(() => screen.getByRole('button', { name: 'Search the whole tree' })));
  await eventually(() => screen.getByText('No node in the whole tree matches "nothing like it"'));
});

test('typos in names are found against the catalog and the tree, with a suggestion in the 0-results summary', async (t) => {
  const inspector = await inspect(t);
  const xpath = inspector.stores.xpath;
  // Button is in the provider's catalog although no button is loaded yet.
  xpath.getState().setExpression('//Button', { evaluate: false });
  assert.deepEqual(xpath.getState().nameProblems, []);
  await xpath.getState().evaluate('//Buton');
  const state = xpath.getState();
  assert.deepEqual(
    state.nameProblems.map((p) => [p.message, p.start, p.end]),
    [['No element is called Buton; did you mean Button?', 2, 7]],
  );
  assert.match(summaryText(state), /^0 results \(\d+ ms\)\. No element is called Buton; did you mean Button\?$/);
  await xpath.getState().evaluate("//Button[@Nam='OK']");
  assert.equal(xpath.getState().nameProblems[0]?.message, 'No attribute is called Nam; did you mean @Name?');
  await xpath.getState().evaluate("//Button[Name='OK']");
  assert.equal(xpath.getState().nameProblems[0]?.replacement, '@Name');
  await xpath.getState().evaluate("//Button[@Name='OK']");
  assert.deepEqual(xpath.getState().nameProblems, []);
  assert.equal(xpath.getState().count, 3);
});

test('evaluating a given expression (Try, history) makes it the console expression, so editor and results agree', async (t) => {
  const inspector = await inspect(t);
  const xpath = inspector.stores.xpath;
  xpath.getState().setExpression('//Window', { evaluate: false });
  await xpath.getState().evaluate("//Button[@Id='toolbar-ok']");
  assert.equal(xpath.getState().expression, "//Button[@Id='toolbar-ok']");
  assert.equal(xpath.getState().count, 1);
});

test('comparing two snapshot files lists the nodes added, removed and changed with their attributes', async (t) => {
  const inspector = await inspect(t);
  const { xml } = await inspector.stores.client.snapshot({});
  const changed = xml.replace('Name="Save"', 'Name="Save as"').replace(/<Slider [^>]*\/>/, '');
  const screen = show(inspector, <SnapshotTools />);
  fireEvent.click(screen.getByRole('button', { name: 'Compare snapshots' }));
  const dialog = screen.getByRole('dialog', { name: 'Compare snapshots' });
  const compare = within(dialog).getByRole('button', { name: 'Compare' });
  assert.equal((compare as HTMLButtonElement).disabled, true, 'two files first');
  fireEvent.change(within(dialog).getByLabelText('Before'), {
    target: { files: [new File([xml], 'before.xml', { type: 'application/xml' })] },
  });
  fireEvent.change(within(dialog).getByLabelText('After'), {
    target: { files: [new File([changed], 'after.xml', { type: 'application/xml' })] },
  });
  fireEvent.click(compare);
  await eventually(() => within(dialog).getByText(/^0 added, 1 removed, 1 changed \(31 nodes before, 30 after\)$/));
  const items = within(within(dialog).getByRole('list', { name: 'Differences' })).getAllByRole('listitem');
  const entries = items.filter((item) => item.classList.contains('difference')).map((item) => item.textContent ?? '');
  assert.equal(entries.length, 2);
  assert.match(entries[0]!, /^changed .*Button "Save as".*Name: Save → Save as/);
  assert.match(entries[1]!, /^removed .*Slider "Volume"/);
  fireEvent.change(within(dialog).getByLabelText('After'), {
    target: { files: [new File(['<snapshot><Broken'], 'broken.xml')] },
  });
  fireEvent.click(compare);
  await eventually(() => within(dialog).getByText(/^broken\.xml: /));
});

test('an opened snapshot is the tree until going back: offline, read-only, marked, with its own names', async (t) => {
  const inspector = await inspect(t);
  const { client, xpath, hostState } = inspector.stores;
  const xml = `<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app">
  <app:Application Name="Saved app"><Window Name="Saved window"><Gauge Name="Level" Id="level"/></Window></app:Application>
</snapshot>`;
  const screen = show(
    inspector,
    <>
      <SnapshotBanner />
      <SnapshotTools />
    </>,
  );
  assert.equal(screen.queryByRole('region', { name: 'Offline snapshot' }), null, 'live: no banner');
  fireEvent.change(screen.getByLabelText('Open snapshot'), {
    target: { files: [new File([xml], 'saved.xml', { type: 'application/xml' })] },
  });
  const banner = await eventually(() => screen.getByRole('region', { name: 'Offline snapshot' }));
  assert.match(banner.textContent ?? '', /Offline.*saved\.xml, read-only/);
  await eventually(() =>
    assert.equal(hostState.getState().message?.text, 'Opened the snapshot saved.xml (3 nodes), offline and read-only'),
  );
  assert.deepEqual(labels(inspector).slice(1), ['  app:Application "Saved app"']);
  await xpath.getState().evaluate('//Gauge');
  assert.equal(xpath.getState().count, 1, "the snapshot's tree answers XPath");
  assert.deepEqual(xpath.getState().nameProblems, [], "the snapshot's roles are its catalog");
  const status = await client.status();
  assert.deepEqual([status.capabilities.pick, status.capabilities.highlight], [false, false]);
  const found: string[] = [];
  await client.evaluate('//Gauge', {
    onItems: (items) => items.forEach((i) => i.type === 'node' && found.push(i.node.runtimeId)),
  }).done;
  const node = await client.node(found[0]!);
  await assert.rejects(
    client.action(node.runtimeId, node.revision, 'focus'),
    /saved\.xml is a snapshot: it is read-only/,
  );
  fireEvent.click(within(banner).getByRole('button', { name: 'Back to the live desktop' }));
  // Compared as a boolean: a failed try would otherwise format the whole DOM element into its message, seconds a try.
  await eventually(() =>
    assert.equal(screen.queryByRole('region', { name: 'Offline snapshot' }) === null, true, 'the banner is gone'),
  );
  await eventually(() =>
    assert.deepEqual(labels(inspector).slice(1), ['  app:Application "Studio"', '  app:Application "Login"']),
  );
  await eventually(() => assert.equal(xpath.getState().status, 'done'));
  assert.equal(xpath.getState().count, 0, 'the live desktop has no gauge');
});

test('a snapshot that is not one is refused naming the file, line and column; the live tree stays', async (t) => {
  const inspector = await inspect(t);
  const screen = show(inspector, <SnapshotTools />);
  fireEvent.change(screen.getByLabelText('Open snapshot'), {
    target: { files: [new File(['<snapshot xmlns="urn:platynui:control">\n  <Window>'], 'broken.xml')] },
  });
  await eventually(() =>
    assert.match(
      inspector.stores.hostState.getState().message?.text ?? '',
      /^Could not open broken\.xml: broken\.xml:/,
    ),
  );
  assert.equal((await inspector.stores.client.status()).snapshot, undefined);
});
