// `diff <a.xml> <b.xml>`: the CLI started as a child process over snapshot files the `snapshot` command wrote.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function files(t: { after(fn: () => void): void }): { dir: string; before: string; after: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-diff-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const snapshot = cli('snapshot', "//Window[@Name='Sign in']", '--provider', 'mock');
  assert.equal(snapshot.status, 0, snapshot.stderr);
  const before = path.join(dir, 'before.xml');
  const after = path.join(dir, 'after.xml');
  writeFileSync(before, snapshot.stdout);
  writeFileSync(
    after,
    snapshot.stdout
      .replace('<Edit Name="User"', '<Edit Name="User name"')
      .replace(/\n\s*<Slider [^\n]*\/>/, '')
      .replace('</Window>', '  <Button Name="Help"/>\n  </Window>'),
  );
  return { dir, before, after };
}

test('the same snapshot exits 0 and says so', (t) => {
  const { before } = files(t);
  const result = cli('diff', before, before);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^same: \d+ nodes\n$/);
});

test('different snapshots exit 1 listing what was added, removed and changed, as text and as JSON', (t) => {
  const { before, after } = files(t);
  const text = cli('diff', before, after);
  assert.equal(text.status, 1, text.stderr);
  assert.match(text.stdout, /^~ changed Window "Sign in" \/ Edit "User name"\n {4}Name: "User" -> "User name"\n/m);
  assert.match(text.stdout, /^- removed Window "Sign in" \/ Slider "Volume"\n {4}Name="Volume"\n/m);
  assert.match(text.stdout, /^\+ added Window "Sign in" \/ Button "Help"\n {4}Name="Help"\n/m);
  assert.match(text.stdout, /\n1 added, 1 removed, 1 changed \(\d+ nodes before, \d+ after\)\n$/);
  const json = cli('diff', before, after, '--format', 'json');
  assert.equal(json.status, 1, json.stderr);
  const diff = JSON.parse(json.stdout) as {
    same: boolean;
    added: number;
    entries: Array<{ kind: string; label: string }>;
  };
  assert.equal(diff.same, false);
  assert.deepEqual(
    diff.entries.map((e) => [e.kind, e.label]),
    [
      ['changed', 'Edit "User name"'],
      ['added', 'Button "Help"'],
      ['removed', 'Slider "Volume"'],
    ],
  );
});

test('bad input exits 2 naming the file and where: missing, not a snapshot, a wrong option', (t) => {
  const { dir, before } = files(t);
  const missing = cli('diff', before, path.join(dir, 'nope.xml'));
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, `platynui-inspector: cannot read ${path.join(dir, 'nope.xml')}: no such file\n`);
  const broken = path.join(dir, 'broken.xml');
  writeFileSync(broken, '<snapshot xmlns="urn:platynui:control">\n  <Window Name="x">\n</snapshot>');
  const bad = cli('diff', broken, before);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^platynui-inspector: .*broken\.xml.*\b3\b/);
  assert.equal(cli('diff', before, before, '--format', 'yaml').status, 2);
  assert.equal(cli('diff', before).status, 2, 'two files are needed');
});
