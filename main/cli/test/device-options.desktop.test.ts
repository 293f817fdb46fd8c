import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { launchGtk3Demo, launchPythonGtkApp, sessionEnv } from '../../../e2e/support/apps.js';
import { projectRoot } from '../../../e2e/support/paths.js';
import { readSnapshotXml } from '../../../shared/snapshot/xml-reader.js';
import { decodePng } from '../../runtime/screenshot-png.js';
import { HIGHLIGHT_COLOR } from '../../platform/x11/highlight.js';

// The CLI's input and snapshot options as a user runs them: the CLI as a child process against real applications
// (e2e/fixtures/gtk3-input-target.py, which says in labels what it received, and gtk3-demo); every effect is read
// back through AT-SPI with `query`, the highlight through the X server's pixels.

const bin = path.join(projectRoot(), 'bin', 'platynui-inspector');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let target: LaunchedApp;
let demo: LaunchedApp;

function cli(args: string[], env: NodeJS.ProcessEnv = sessionEnv()) {
  const run = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function ok(args: string[], env?: NodeJS.ProcessEnv): string {
  const run = cli(args, env);
  assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** A label's text as AT-SPI reports it (the fixture names its status labels in their descriptions). */
function status(description: string): string {
  return ok(['query', `string(//Label[@Description='${description}']/@Name)`]).trim();
}

/** The AT-SPI states of a window of the fixture. */
function windowStates(name: string): string[] {
  return JSON.parse(ok(['query', `//Frame[@Name='${name}']/@native:Accessible.States`, '--format', 'json'])).map(
    (item: { value: string[] }) => item.value,
  )[0] as string[];
}

async function eventually<T>(read: () => T, accept: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = read();
    if (accept(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

const TARGET = "//Frame[@Name='Input target']";
const COVER = "//Frame[@Name='Input cover']";
const CLICK_TARGET = `${TARGET}//Button[@Name='Click target']`;

before(async () => {
  target = await launchPythonGtkApp('gtk3-input-target.py', sessionEnv(), { args: ['200', '200'] });
  demo = await launchGtk3Demo(sessionEnv());
  await eventually(
    () => cli(['query', `count(${COVER})`]).stdout.trim(),
    (count) => count === '1',
    'the cover',
  );
});

after(async () => {
  await target?.stop();
  await demo?.stop();
});

describe('pointer multi-click, --button, --no-activate', () => {
  test('with --no-activate the clicks go to the window on top; by default the element window comes first', async () => {
    ok(['window', COVER, '--activate']);
    assert.ok(windowStates('Input cover').includes('active'));
    ok(['pointer', 'multi-click', CLICK_TARGET, '--count', '2', '--no-activate']);
    await eventually(
      () => status('cover-status'),
      (text) => text === 'cover pressed 2 times with button 1',
      'cover',
    );
    assert.equal(status('click-status'), 'not pressed', 'the covered button got nothing');
    assert.ok(!windowStates('Input target').includes('active'));

    ok(['pointer', 'multi-click', CLICK_TARGET, '--count', '4', '--button', 'right']);
    await eventually(
      () => status('click-status'),
      (text) => text === 'pressed 4 times with button 3',
      'target',
    );
    assert.ok(windowStates('Input target').includes('active'), 'the target window was activated');
    assert.equal(status('cover-status'), 'cover pressed 2 times with button 1');
  });
});

describe('window --bring-to-front', () => {
  test('shows a minimized window again and makes it the active one', async () => {
    ok(['window', TARGET, '--minimize']);
    await eventually(
      () => windowStates('Input target'),
      (states) => states.includes('iconified'),
      'minimized',
    );
    const brought = ok(['window', TARGET, '--bring-to-front', '--wait-ms', '5000']);
    assert.match(brought, /"Input target" .* active\n$/);
    const states = windowStates('Input target');
    assert.ok(states.includes('active') && !states.includes('iconified'), states.join(' '));
  });
});

describe('keyboard --delay-ms and --between-keys-delay', () => {
  test('the application sees the keys that far apart, and the text arrives whole', async () => {
    ok(['focus', `${TARGET}//Text[@Name='Typing field']`]);
    ok(['keyboard', 'type', 'abc']);
    const plain = await eventually(
      () => status('key-status'),
      (text) => text.startsWith('3 key presses'),
      'plain',
    );
    const plainGap = Number(/smallest gap (\d+) ms/.exec(plain)![1]);
    // A new series of presses starts after 2 s without a key.
    await sleep(2100);
    ok(['keyboard', 'type', 'defgh', '--delay-ms', '40', '--between-keys-delay', '150']);
    const slow = await eventually(
      () => status('key-status'),
      (text) => text.startsWith('5 key presses'),
      'slow',
    );
    const slowGap = Number(/smallest gap (\d+) ms/.exec(slow)![1]);
    // Between two characters: the press delay, the release delay and the delay between keys.
    assert.ok(slowGap >= 40 + 40 + 150 - 10, `smallest gap ${slowGap} ms`);
    assert.ok(plainGap < slowGap, `without the options ${plainGap} ms`);
    assert.equal(ok(['query', `string(${TARGET}//Text[@Name='Typing field']/@Text)`]).trim(), 'abcdefgh');
  });
});

describe('snapshot --split, --output, --include, --exclude, --exclude-derived, --no-pretty', () => {
  test('one file per selected window, with the attributes the patterns name', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-split-desktop-'));
    const prefix = path.join(dir, 'window');
    const args = [`${TARGET} | ${COVER}`, '--split', prefix, '--format', 'json', '--max-depth', '2'];
    const written = ok(['snapshot', ...args, '--include', 'control:Bounds*', '--exclude-derived']);
    const files = readdirSync(dir).sort();
    assert.deepEqual(files, ['window-001.json', 'window-002.json']);
    assert.equal(written, files.map((name) => `${path.join(dir, name)}\n`).join(''));
    interface Node {
      name: string;
      attributes: Record<string, unknown>;
      children: Node[];
    }
    const names = files.map((name) => {
      const [tree] = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Node[];
      const all = [tree!, ...tree!.children, ...tree!.children.flatMap((child) => child.children)];
      for (const node of all) {
        assert.ok('Bounds' in node.attributes, `${node.name} has Bounds`);
        assert.deepEqual(
          Object.keys(node.attributes).filter((key) => key.includes('.')),
          [],
          `${node.name}: no derived aliases`,
        );
      }
      return { root: tree!.name, names: all.map((node) => node.name) };
    });
    const byRoot = new Map(names.map((entry) => [entry.root, entry.names]));
    assert.deepEqual([...byRoot.keys()].sort(), ['Input cover', 'Input target']);
    assert.ok(byRoot.get('Input target')!.includes('Click target'), byRoot.get('Input target')!.join(', '));
    assert.ok(byRoot.get('Input target')!.includes('Typing field'));
    assert.ok(byRoot.get('Input cover')!.includes('Cover button'));
  });

  test('gtk3-demo compactly to a file, native attributes only, one left out', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'snapshot-output-desktop-')), 'demo.xml');
    const app = "app:Application[@Name='gtk3-demo']";
    const args = [
      '--max-depth',
      '3',
      '--attrs',
      'none',
      '--include',
      'native:*',
      '--exclude',
      'native:Accessible.States',
    ];
    assert.equal(ok(['snapshot', app, ...args, '--no-pretty', '--output', file]), `${file}\n`);
    const xml = readFileSync(file, 'utf8');
    assert.equal(xml.split('\n').length, 3, 'declaration, one line of elements, final newline');
    const nodes = readSnapshotXml(xml);
    const all = [...nodes];
    for (let i = 0; i < all.length; i++) all.push(...all[i]!.children);
    assert.ok(all.length > 3, `${all.length} nodes`);
    for (const node of all) {
      assert.ok(
        node.attributes.every((entry) => entry.namespace === 'native' && entry.name !== 'Accessible.States'),
        `${node.role}: ${node.attributes.map((entry) => `${entry.namespace}:${entry.name}`).join(' ')}`,
      );
    }
    assert.ok(
      all.some((node) => node.attributes.length > 0),
      'native attributes were written',
    );
  });
});

describe('highlight --clear', () => {
  test('ends the running highlight of this display: its frame goes and it exits 0', async () => {
    // A runtime directory of the test's own: no other highlight on this desktop is ended by it.
    const runtimeDir = mkdtempSync(path.join(tmpdir(), 'highlight-clear-'));
    chmodSync(runtimeDir, 0o700);
    const env = { ...sessionEnv(), XDG_RUNTIME_DIR: runtimeDir };
    const child = spawn(process.execPath, [bin, 'highlight', '--rect', '600,650,60,30'], { env, stdio: 'pipe' });
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      for (let i = 0; i < 400 && !stderr.includes('press Ctrl-C'); i++) await sleep(25);
      const framePixel = () => {
        const file = path.join(runtimeDir, 'pixel.png');
        ok(['screenshot', file, '--rect', '630,648,1,1']);
        const pixels = decodePng(readFileSync(file)).pixels;
        return pixels[0] === HIGHLIGHT_COLOR.red && pixels[1] === HIGHLIGHT_COLOR.green;
      };
      assert.ok(framePixel(), 'the frame is on screen');
      assert.equal(ok(['highlight', '--clear'], env), 'cleared 1 highlight\n');
      assert.equal(await exited, 0);
      assert.ok(!framePixel(), 'the frame is gone');
      assert.deepEqual(readdirSync(path.join(runtimeDir, 'platynui-inspector', 'highlights')), []);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
