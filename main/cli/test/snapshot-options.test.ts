import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readSnapshotXml } from '../../../shared/snapshot/xml-reader.js';
import { matchesAny, parseAttributePattern } from '../../services/attribute-filter.js';
import { DEFAULT_MOCK_SECRET } from '../../providers/mock/default-tree.js';
import { splitFileName } from '../snapshot-output.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface JsonNode {
  role: string;
  attributes: { [key: string]: unknown };
  children: JsonNode[];
}

/** `snapshot --format json` over the mock provider (the general path) and over a mock file (the fast path). */
function bothPaths(...args: string[]): JsonNode[][] {
  const mockFile = path.join(mkdtempSync(path.join(tmpdir(), 'snapshot-options-')), 'desktop.xml');
  const whole = cli('snapshot', '--provider', 'mock', '--attrs', 'all', '--output', mockFile);
  assert.equal(whole.status, 0, whole.stderr);
  return [
    ['--provider', 'mock'],
    ['--mock-file', mockFile],
  ].map((source) => {
    const result = cli('snapshot', ...args, '--format', 'json', ...source);
    assert.equal(result.status, 0, `${source.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout) as JsonNode[];
  });
}

describe('attribute patterns', () => {
  it('match NS:NAME with * for any characters, in that namespace only', () => {
    const bounds = parseAttributePattern('--include', 'control:Bounds*');
    const entry = (namespace: 'control' | 'native', name: string) => ({
      namespace,
      name,
      value: { type: 'String' as const, value: '' },
    });
    assert.ok(matchesAny([bounds], entry('control', 'Bounds')));
    assert.ok(matchesAny([bounds], entry('control', 'Bounds.Width')));
    assert.ok(!matchesAny([bounds], entry('native', 'Bounds')));
    assert.ok(!matchesAny([bounds], entry('control', 'ActivationBounds')));
    const middle = parseAttributePattern('--exclude', 'control:Is*ed');
    assert.ok(matchesAny([middle], entry('control', 'IsEnabled')));
    assert.ok(!matchesAny([middle], entry('control', 'IsVisible')));
    // Regular expression characters are literal.
    const dotted = parseAttributePattern('--include', 'control:Bounds.X');
    assert.ok(!matchesAny([dotted], entry('control', 'BoundsaX')));
  });

  it('refuse a value that is not NS:NAME, naming the option and the value', () => {
    for (const value of ['Name', 'widget:Name', 'control:', ':Name', `control:${'x'.repeat(300)}`]) {
      assert.throws(
        () => parseAttributePattern('--exclude', value),
        (error: Error) => error.message.startsWith('--exclude must be NS:NAME') && error.message.includes(`"${value}"`),
        value,
      );
    }
  });
});

describe('snapshot --include, --exclude, --exclude-derived', () => {
  it('adds matching attributes to --attrs, on the general path and the mock-file path alike', () => {
    const [general, fast] = bothPaths("//CheckBox[@Name='Auto save']", '--include', 'control:Bounds*', 'native:*');
    assert.deepEqual(general, fast);
    const attributes = Object.keys(general![0]!.attributes);
    assert.ok(attributes.includes('Name'), 'the default set stays');
    assert.ok(attributes.includes('Bounds') && attributes.includes('Bounds.Width'), attributes.join(' '));
    assert.ok(!attributes.includes('ActivationPoint'), 'nothing the patterns do not name');
  });

  it('excludes last, also what --include and --include-runtime-id added, and drops derived aliases', () => {
    const [general, fast] = bothPaths(
      "//CheckBox[@Name='Auto save']",
      '--attrs',
      'all',
      '--exclude',
      'control:Is*',
      '--exclude',
      'control:RuntimeId',
      '--exclude-derived',
      '--include-runtime-id',
    );
    assert.deepEqual(general, fast);
    const attributes = Object.keys(general![0]!.attributes);
    assert.ok(attributes.includes('Bounds') && attributes.includes('Name'), attributes.join(' '));
    assert.deepEqual(
      attributes.filter((name) => name.startsWith('Is') || name.includes('.') || name === 'RuntimeId'),
      [],
    );
  });

  it('never writes a secret value, whatever the patterns name', () => {
    for (const format of ['xml', 'json', 'text']) {
      const result = cli('snapshot', '--provider', 'mock', '--include', 'control:*', 'native:*', '--format', format);
      assert.equal(result.status, 0, result.stderr);
      if (format !== 'text') assert.ok(result.stdout.includes('IsSecure'), 'the password field is in the output');
      assert.ok(!result.stdout.includes(DEFAULT_MOCK_SECRET), format);
    }
  });

  it('refuses a bad pattern with exit 2 before reading the tree', () => {
    const result = cli('snapshot', '--provider', 'mock', '--include', 'Bounds');
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--include must be NS:NAME .*got "Bounds"/);
  });
});

describe('snapshot --pretty, --output, --split', () => {
  it('--no-pretty writes the same tree compactly; --pretty is the default layout', () => {
    for (const format of ['xml', 'json']) {
      const pretty = cli('snapshot', '--provider', 'mock', '--format', format, '--pretty');
      const plain = cli('snapshot', '--provider', 'mock', '--format', format);
      const compact = cli('snapshot', '--provider', 'mock', '--format', format, '--no-pretty');
      assert.equal(pretty.stdout, plain.stdout, format);
      assert.equal(compact.status, 0, compact.stderr);
      assert.ok(compact.stdout.split('\n').length <= 3, `${format}: ${compact.stdout.split('\n').length} lines`);
      if (format === 'json') assert.deepEqual(JSON.parse(compact.stdout), JSON.parse(pretty.stdout));
      else assert.deepEqual(readSnapshotXml(compact.stdout), readSnapshotXml(pretty.stdout));
    }
  });

  it('--output writes the file stdout would have got and names it', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'snapshot-output-')), 'tree.json');
    const written = cli('snapshot', '//Window', '--provider', 'mock', '--format', 'json', '--output', file);
    assert.equal(written.status, 0, written.stderr);
    assert.equal(written.stdout, `${file}\n`);
    const printed = cli('snapshot', '//Window', '--provider', 'mock', '--format', 'json');
    assert.equal(readFileSync(file, 'utf8'), printed.stdout);
  });

  it('--split writes one numbered file per root, each a whole document', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-split-'));
    const prefix = path.join(dir, 'window');
    const split = cli('snapshot', '//Window', '--provider', 'mock', '--split', prefix, '--max-depth', '1');
    assert.equal(split.status, 0, split.stderr);
    const count = cli('query', 'count(//Window)', '--provider', 'mock').stdout.trim();
    const files = readdirSync(dir).sort();
    assert.equal(String(files.length), count);
    assert.deepEqual(
      split.stdout.trim().split('\n'),
      files.map((name) => path.join(dir, name)),
    );
    assert.equal(files[0], 'window-001.xml');
    const whole = readSnapshotXml(cli('snapshot', '//Window', '--provider', 'mock', '--max-depth', '1').stdout);
    files.forEach((name, index) => {
      assert.deepEqual(readSnapshotXml(readFileSync(path.join(dir, name), 'utf8')), [whole[index]], name);
    });
    assert.equal(splitFileName('out/tree', 1233, 'text'), 'out/tree-1234.txt');
  });

  it('refuses --output with --split, and a file it cannot write, naming the option and the file', () => {
    const both = cli('snapshot', '--provider', 'mock', '--output', 'a.xml', '--split', 'b');
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--output FILE or --split PREFIX, not both/);
    const missing = cli('snapshot', '--provider', 'mock', '--output', '/nonexistent-dir/tree.xml');
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--output: cannot write "\/nonexistent-dir\/tree.xml": its directory does not exist/);
    const empty = cli('snapshot', '--provider', 'mock', '--split', '');
    assert.equal(empty.status, 2);
    assert.match(empty.stderr, /--split needs a file name, got ""/);
  });
});
