/**
 * Bad snapshot files through the CLI as a user runs it (a child process): a RuntimeId given twice, nesting deeper
 * than the limit, bytes that are not UTF-8 each end the command with exit 2 and an error naming the place; a deep
 * but legitimate file loads; the limit can be raised. (Timings belong to bench/mock-file-query.ts.)
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');
const dir = mkdtempSync(path.join(tmpdir(), 'mock-file-limits-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 28 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<snapshot xmlns="urn:platynui:control">\n';

function file(name: string, content: string | Buffer): string {
  const at = path.join(dir, name);
  writeFileSync(at, content);
  return at;
}

function nested(levels: number): string {
  return `${OPEN}${'<Pane Name="p">'.repeat(levels)}${'</Pane>'.repeat(levels)}\n</snapshot>\n`;
}

test('a RuntimeId given twice is an error naming both places (it would make a cycle)', () => {
  const mock = file(
    'twice.xml',
    `${OPEN}  <Window RuntimeId="w">\n    <Button Name="a"/>\n    <Pane RuntimeId="w"/>\n  </Window>\n</snapshot>\n`,
  );
  for (const command of [
    ['query', '//*', '--mock-file', mock],
    ['snapshot', '--mock-file', mock],
    ['locate', '//Button', '--mock-file', mock], // the runtime's path reads the file the same way
  ]) {
    const run = cli(...command);
    assert.equal(run.status, 2, `${command.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /twice\.xml:5:5: RuntimeId "w" is given twice: first at line 3, column 3, again here/);
  }
});

test('a generated id never takes an id the file gives', () => {
  const mock = file('ids.xml', `${OPEN}<Window RuntimeId="mock:button-1"><Button/></Window></snapshot>`);
  const run = cli('query', '//*/@RuntimeId', '--mock-file', mock);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, 'Window @RuntimeId=mock:button-1\nButton @RuntimeId=mock:button-2\n');
});

test('nesting deeper than the limit is an error at the element that goes too deep', () => {
  const mock = file('deep.xml', nested(20_000));
  const column = 1 + '<Pane Name="p">'.length * 4096;
  for (const command of [
    ['query', 'count(//*)'],
    ['snapshot', '--format', 'text'],
  ]) {
    const run = cli(...command, '--mock-file', mock);
    assert.equal(run.status, 2, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(`deep\\.xml:3:${column}: nodes are nested deeper than 4096 levels \\(--mock-max-depth raises`),
    );
  }
  const limited = cli('query', 'count(//*)', '--mock-file', file('ten.xml', nested(10)), '--mock-max-depth', '5');
  assert.equal(limited.status, 2);
  assert.match(limited.stderr, /ten\.xml:3:76: nodes are nested deeper than 5 levels/);
});

test('a deep legitimate file loads, and the limit can be raised', () => {
  const mock = file('four-thousand.xml', nested(4000));
  const count = cli('query', 'count(//Pane)', '--mock-file', mock);
  assert.equal(count.status, 0, count.stderr);
  assert.equal(count.stdout, '4000\n');
  const snapshot = cli('snapshot', '--mock-file', mock, '--attrs', 'none');
  assert.equal(snapshot.status, 0, snapshot.stderr);
  assert.equal(snapshot.stdout.split('\n').filter((line) => line.trim() === '<Pane>').length, 3999);
  const raised = cli(
    'query',
    'count(//Pane)',
    '--mock-file',
    file('five.xml', nested(5000)),
    '--mock-max-depth',
    '6000',
  );
  assert.equal(raised.status, 0, raised.stderr);
  assert.equal(raised.stdout, '5000\n');
});

test('bytes that are not UTF-8 are an error with their position, never replaced', () => {
  const bytes = Buffer.concat([
    Buffer.from(`${OPEN}  <Button Name="caf`),
    Buffer.from([0xe9]), // Latin-1 é
    Buffer.from('"/>\n</snapshot>\n'),
  ]);
  const run = cli('query', '//Button', '--mock-file', file('latin1.xml', bytes));
  assert.equal(run.status, 2, run.stderr);
  assert.match(run.stderr, /latin1\.xml:3:20: not UTF-8 \(byte 0xe9 at byte offset 98\)/);
});
