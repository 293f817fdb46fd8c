import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MOCK_SECRET } from '../../providers/mock/default-tree.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return cliWith(process.env, ...args);
}

function cliWith(env: NodeJS.ProcessEnv, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('--version and -V print the package version and exit 0', () => {
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const result = cli(flag);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `${version}\n`);
  }
});

test('query prints nodes as text and as typed JSON', () => {
  const text = cli('query', "//Button[@Name='OK']", '--provider', 'mock');
  assert.equal(text.status, 0, text.stderr);
  assert.equal(text.stdout, 'Button "OK"\nButton "OK"\nButton "OK"\n');
  const json = cli(
    'query',
    "(//CheckBox, //Window[@Name='Sign in']/@Bounds, count(//Window))",
    '--provider',
    'mock',
    '--format',
    'json',
  );
  assert.equal(json.status, 0, json.stderr);
  const items = JSON.parse(json.stdout) as Array<{ [key: string]: unknown }>;
  assert.deepEqual(items[0]!.type, 'node');
  assert.deepEqual(items[0]!.runtimeId, 'mock:checkbox-autosave');
  assert.deepEqual(items[0]!.namespace, 'control');
  assert.deepEqual(items[0]!.role, 'CheckBox');
  assert.deepEqual(items[0]!.name, 'Auto save');
  const attributes = items[0]!.attributes as { [key: string]: unknown };
  assert.equal(attributes['Bounds.X'], 300);
  assert.deepEqual(attributes.Bounds, { x: 300, y: 115, width: 120, height: 30 });
  assert.equal(attributes.IsEnabled, true);
  assert.equal(attributes.ToggleState, 'Off');
  assert.deepEqual(items[1], {
    type: 'attribute',
    owner: 'mock:window-login',
    namespace: 'control',
    name: 'Bounds',
    value: { x: 4000, y: 200, width: 500, height: 300 },
  });
  assert.deepEqual(items[2], { type: 'value', value: 3 });
  const native = JSON.parse(cli('query', '//Button[@Name="Flaky"]', '--provider', 'mock', '--format', 'json').stdout);
  assert.equal(native[0].attributes['native:ScriptedFailure'], 'focus');
});

test('--stats writes one JSON line to stderr', () => {
  const result = cli('query', '//Button', '--provider', 'mock', '--stats');
  assert.equal(result.status, 0);
  const stats = JSON.parse(result.stderr.trim()) as { evalMs: number; nodesFetched: number; results: number };
  assert.equal(stats.results, 6);
  assert.ok(stats.evalMs >= 0);
  assert.ok(stats.nodesFetched > 0);
  assert.deepEqual(Object.keys(stats), ['evalMs', 'nodesFetched', 'results']);
});

test('exit codes: 2 for usage and XPath errors, 3 without a provider, 4 on timeout', () => {
  const syntax = cli('query', '//Button[', '--provider', 'mock');
  assert.equal(syntax.status, 2);
  assert.equal(syntax.stderr, "platynui-inspector: The '[' at column 9 is never closed\n");
  assert.equal(cli('query', '//Button', '--provider', 'nope').status, 2);
  assert.equal(cli('query', '//Button', '--provider', 'mock', '--format', 'yaml').status, 2);
  assert.equal(cli('bogus-command').status, 2);
  const unavailable = cli('query', '//Button', '--mock-file', '/nonexistent/tree.xml');
  assert.equal(unavailable.status, 2);
  assert.match(unavailable.stderr, /cannot read mock file \/nonexistent\/tree.xml/);
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-cli-'));
  const broken = path.join(dir, 'broken.xml');
  writeFileSync(broken, '<snapshot xmlns="urn:platynui:control">\n  <Window Name="x">\n</snapshot>');
  const bad = cli('snapshot', '--mock-file', broken);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /broken\.xml/);
});

test('10,000 nested parentheses exit 2 with line and column, not an internal error', () => {
  const result = cli('query', `${'('.repeat(10_000)}1${')'.repeat(10_000)}`, '--provider', 'mock');
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /^platynui-inspector: Brackets nest deeper than 100 levels at column 101$/m);
});

test('a time option out of range exits 2 naming the option instead of becoming a 1 ms timer', () => {
  for (const value of ['99999999999999', '2147483648', '0', '1.5', '-3']) {
    const result = cli('query', 'count(/*)', '--provider', 'mock', '--timeout', value);
    assert.equal(result.status, 2, `--timeout ${value}: ${result.stderr}`);
    assert.match(result.stderr, /--timeout must be a whole number of milliseconds from 1 to 2147483647/);
  }
  assert.equal(cli('query', 'count(/*)', '--provider', 'mock', '--timeout', '2147483647').stdout, '5\n');
  const duration = cli('highlight', '--rect', '1,1,5,5', '--provider', 'mock', '--duration', '99999999999999');
  assert.equal(duration.status, 2, duration.stderr);
  assert.match(duration.stderr, /--duration must be a whole number of milliseconds from 0 to 2147483647/);
});

test('exit code 3 when no provider can reach its technology', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'platynui-nobus-'));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_RUNTIME_DIR: home };
  const result = cliWith(env, 'query', '//Button', '--provider', 'atspi');
  assert.equal(result.status, 3, result.stderr);
  assert.match(result.stderr, /platynui-inspector: .*(bus|accessibility)/i);
});

test('exit code 4 when the evaluation outlives --timeout', () => {
  const windows = Array.from(
    { length: 40 },
    (_, w) => `<Window Name="w${w}">${'<Pane><Button Name="b"/></Pane>'.repeat(250)}</Window>`,
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-timeout-'));
  const file = path.join(dir, 'big.xml');
  writeFileSync(file, `<snapshot xmlns="urn:platynui:control">${windows.join('')}</snapshot>`);
  const result = cli('query', "count(//*[matches(@Name, '^(a|b)+c$')])", '--mock-file', file, '--timeout', '5');
  assert.equal(result.status, 4, result.stderr);
  assert.match(result.stderr, /did not finish within 5 ms/);
});

test('snapshot writes XML, JSON and text, and never a secret', () => {
  const text = cli('snapshot', "//Window[@Name='Sign in']", '--provider', 'mock', '--format', 'text');
  assert.equal(text.status, 0, text.stderr);
  assert.equal(
    text.stdout,
    'Window "Sign in"\n  Edit "User"\n  PasswordText "Password"\n  Button "OK"\n  Slider "Volume"\n',
  );
  const json = JSON.parse(
    cli('snapshot', '//List', '--provider', 'mock', '--format', 'json', '--max-depth', '1').stdout,
  );
  assert.equal(json[0].runtimeId, 'mock:list-results');
  assert.deepEqual(Object.keys(json[0]), ['runtimeId', 'namespace', 'role', 'name', 'attributes', 'children']);
  assert.equal(json[0].children.length, 3);
  assert.equal(json[0].children[0].namespace, 'item');
  assert.deepEqual(json[0].attributes, { Name: 'Results', Id: 'results', IsVisible: true, IsEnabled: true });
  const shallow = JSON.parse(
    cli('snapshot', '//List', '--provider', 'mock', '--format', 'json', '--max-depth', '0').stdout,
  );
  assert.deepEqual(shallow[0].children, []);
  for (const attrs of ['default', 'all']) {
    for (const format of ['xml', 'json', 'text']) {
      const out = cli('snapshot', '--provider', 'mock', '--attrs', attrs, '--format', format);
      assert.equal(out.status, 0);
      assert.ok(!out.stdout.includes(DEFAULT_MOCK_SECRET), `no secret in ${format}/${attrs}`);
    }
  }
});

test('a snapshot loaded back as mock file snapshots to the same XML, byte for byte', () => {
  const first = cli('snapshot', '--provider', 'mock', '--attrs', 'all');
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<snapshot xmlns="urn:platynui:control"/);
  assert.match(first.stdout, /RuntimeId="platynui:Desktop"/);
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-snapshot-'));
  const file = path.join(dir, 'desktop.xml');
  writeFileSync(file, first.stdout);
  const second = cli('snapshot', '--mock-file', file, '--attrs', 'all');
  assert.equal(second.status, 0, second.stderr);
  assert.equal(second.stdout, first.stdout);
  const defaults = cli('snapshot', '--provider', 'mock', '--include-runtime-id');
  writeFileSync(file, defaults.stdout);
  assert.equal(cli('snapshot', '--mock-file', file, '--include-runtime-id').stdout, defaults.stdout);
});

test('info and list-providers describe the build', () => {
  const providers = JSON.parse(cli('list-providers', '--format', 'json').stdout) as Array<{
    id: string;
    optIn: boolean;
  }>;
  const mock = providers.find((p) => p.id === 'mock');
  assert.ok(mock?.optIn);
  const info = cli('info', '--format', 'json');
  assert.equal(info.status, 0, info.stderr);
  const report = JSON.parse(info.stdout) as { os: { platform: string }; providers: unknown[] };
  assert.equal(report.os.platform, process.platform);
});
