import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffSnapshots, formatSnapshotDiff } from '../diff.js';
import { readSnapshotXml } from '../xml-reader.js';

const wrap = (body: string) =>
  readSnapshotXml(`<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app">${body}</snapshot>`);

const before = wrap(`<app:Application Name="Editor">
  <Window Name="Main" Id="main">
    <Button Name="OK" Id="ok" IsEnabled="true"/>
    <Button Name="Cancel"/>
    <Pane><Edit Name="Search"/><Label Name="Hint"/></Pane>
  </Window>
</app:Application>`);

test('the same snapshot twice is the same', () => {
  const diff = diffSnapshots(before, before);
  assert.equal(diff.same, true);
  assert.deepEqual([diff.added, diff.removed, diff.changed, diff.entries.length], [0, 0, 0, 0]);
  assert.equal(formatSnapshotDiff(diff), 'same: 7 nodes\n');
});

test('added, removed and changed nodes with their attributes, in document order', () => {
  const after = wrap(`<app:Application Name="Editor">
  <Window Name="Main - changed" Id="main">
    <Button Name="Okay" Id="ok" IsEnabled="false"/>
    <Button Name="Help"/>
    <Button Name="Cancel"/>
  </Window>
</app:Application>`);
  const diff = diffSnapshots(before, after);
  assert.equal(diff.same, false);
  assert.deepEqual(
    diff.entries.map((e) => [e.kind, e.path, e.attributes, e.descendants]),
    [
      [
        'changed',
        'app:Application "Editor" / Window "Main - changed"',
        [{ name: 'Name', before: 'Main', after: 'Main - changed' }],
        0,
      ],
      [
        'changed',
        'app:Application "Editor" / Window "Main - changed" / Button "Okay"',
        [
          { name: 'Name', before: 'OK', after: 'Okay' },
          { name: 'IsEnabled', before: 'true', after: 'false' },
        ],
        0,
      ],
      [
        'added',
        'app:Application "Editor" / Window "Main - changed" / Button "Help"',
        [{ name: 'Name', after: 'Help' }],
        0,
      ],
      ['removed', 'app:Application "Editor" / Window "Main - changed" / Pane', [], 2],
    ],
  );
  assert.deepEqual([diff.added, diff.removed, diff.changed], [1, 1, 2]);
  assert.deepEqual(diff.nodes, { before: 7, after: 5 });
  const text = formatSnapshotDiff(diff);
  assert.match(
    text,
    /^~ changed app:Application "Editor" \/ Window "Main - changed"\n {4}Name: "Main" -> "Main - changed"\n/,
  );
  assert.match(text, /\n- removed .* \/ Pane \(and 2 below\)\n/);
  assert.match(text, /\n1 added, 1 removed, 2 changed \(7 nodes before, 5 after\)\n$/);
});

test('another role is another node; a RuntimeId matches a node whatever its name became', () => {
  const a = wrap('<Window Name="w"><Button Id="go" Name="Go"/><Label RuntimeId="r1" Name="one"/></Window>');
  const b = wrap('<Window Name="w"><ToggleButton Id="go" Name="Go"/><Label RuntimeId="r1" Name="uno"/></Window>');
  assert.deepEqual(
    diffSnapshots(a, b).entries.map((e) => [e.kind, e.label, e.attributes]),
    [
      [
        'added',
        'ToggleButton "Go"',
        [
          { name: 'Id', after: 'go' },
          { name: 'Name', after: 'Go' },
        ],
      ],
      [
        'removed',
        'Button "Go"',
        [
          { name: 'Id', before: 'go' },
          { name: 'Name', before: 'Go' },
        ],
      ],
      ['changed', 'Label "uno"', [{ name: 'Name', before: 'one', after: 'uno' }]],
    ],
  );
});

test('the list stops at maxEntries while the counts stay whole', () => {
  const many = (n: number) =>
    wrap(`<Window Name="w">${Array.from({ length: n }, (_, i) => `<Button Name="b${i}"/>`).join('')}</Window>`);
  const diff = diffSnapshots(many(0), many(50), { maxEntries: 10 });
  assert.equal(diff.added, 50);
  assert.equal(diff.entries.length, 10);
  assert.equal(diff.truncated, true);
});
