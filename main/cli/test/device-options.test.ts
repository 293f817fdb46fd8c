import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { displayKey, registryDirectory } from '../highlight-registry.js';
import { keyboardOverrides } from '../commands/keyboard.js';
import { parseClickCount } from '../commands/pointer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An environment without a display, with a runtime directory of the test's own. */
function privateEnv(display?: string): NodeJS.ProcessEnv {
  const runtimeDir = mkdtempSync(path.join(tmpdir(), 'device-options-'));
  chmodSync(runtimeDir, 0o700);
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtimeDir };
  delete env.DISPLAY;
  if (display !== undefined) env.DISPLAY = display;
  return env;
}

function cli(env: NodeJS.ProcessEnv, ...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args, '--provider', 'mock'], {
    encoding: 'utf8',
    timeout: 60_000,
    env,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A running `highlight --rect` on the mock platform, once it has shown its frame and entered the registry. */
async function runningHighlight(
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [bin, 'highlight', '--rect', '10,10,50,20', '--provider', 'mock'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; i < 400 && !stderr.includes('press Ctrl-C'); i++) await sleep(25);
  assert.match(stderr, /press Ctrl-C to clear/);
  return { child, exit };
}

describe('option values are checked, naming the option and the value', () => {
  it('pointer --count is a whole number from 2 to 100', () => {
    assert.equal(parseClickCount('3'), 3);
    for (const bad of ['1', '101', 'x', '2.5', '']) {
      assert.throws(
        () => parseClickCount(bad),
        new RegExp(`--count must be a whole number from 2 to 100, got "${bad}"`),
      );
    }
  });

  it('keyboard --delay-ms sets every delay, --between-keys-delay the one between keys', () => {
    assert.deepEqual(keyboardOverrides({}), {});
    const uniform = keyboardOverrides({ delayMs: 30 });
    assert.equal(Object.keys(uniform).length, 7);
    assert.ok(Object.values(uniform).every((ms) => ms === 30));
    assert.deepEqual(keyboardOverrides({ delayMs: 30, betweenKeysDelay: 200 }), {
      ...uniform,
      betweenKeysDelayMs: 200,
    });
  });

  it('the CLI refuses bad values and options that do not go together with exit 2', () => {
    const env = privateEnv();
    const cases: Array<[string[], RegExp]> = [
      [['keyboard', 'type', 'ab', '--delay-ms', '-5'], /--delay-ms must be a whole number of milliseconds .*got "-5"/],
      [['keyboard', 'type', 'ab', '--between-keys-delay', 'soon'], /--between-keys-delay must be .*got "soon"/],
      [
        ['pointer', 'multi-click', '--at', '5,5', '--count', '1'],
        /--count must be a whole number from 2 to 100, got "1"/,
      ],
      [['pointer', 'click', '--at', '5,5', '--count', '3'], /--count goes with pointer multi-click, not pointer click/],
      [['pointer', 'multi-click'], /needs an <xpath> or --at/],
      [
        ['window', "//Window[@Name='Sign in']", '--activate', '--wait-ms', '10'],
        /--wait-ms goes with --bring-to-front/,
      ],
      [
        ['window', "//Window[@Name='Sign in']", '--bring-to-front', '--wait-ms', '1e3'],
        /--wait-ms must be .*got "1e3"/,
      ],
      [['window', '--bring-to-front'], /window --bring-to-front needs an <xpath>/],
      [['highlight'], /needs an <xpath>, --rect or --clear/],
      [['highlight', '--clear', '--duration', '10'], /--duration goes with a highlight to show/],
    ];
    for (const [args, message] of cases) {
      const result = cli(env, ...args);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
    }
  });
});

describe('pointer multi-click and window --bring-to-front on the mock platform', () => {
  it('multi-clicks an element at its activation point', () => {
    const result = cli(privateEnv(), 'pointer', 'multi-click', "//CheckBox[@Name='Auto save']", '--count', '3');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'multi-click 360,130\n');
  });

  it('brings the window of an element to the front and prints it active', () => {
    const result = cli(privateEnv(), 'window', "//Window[@Name='Sign in']", '--bring-to-front', '--wait-ms', '200');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /"Sign in" .* active\n$/);
  });
});

describe('highlight --clear', () => {
  it('ends the running highlights of this display and user, and leaves those of another display', async () => {
    const here = privateEnv(':42');
    const elsewhere = { ...here, DISPLAY: ':43.0' };
    const first = await runningHighlight(here);
    const second = await runningHighlight({ ...here, DISPLAY: ':42.0' });
    const other = await runningHighlight(elsewhere);
    try {
      const directory = path.join(here.XDG_RUNTIME_DIR!, 'platynui-inspector', 'highlights');
      assert.equal(readdirSync(directory).length, 3);
      const cleared = cli(here, 'highlight', '--clear');
      assert.equal(cleared.status, 0, cleared.stderr);
      assert.equal(cleared.stdout, 'cleared 2 highlights\n');
      assert.equal(await first.exit, 0, 'a cleared highlight clears its frame and exits 0');
      assert.equal(await second.exit, 0);
      assert.equal(other.child.exitCode, null, 'the highlight of another display runs on');
      assert.deepEqual(readdirSync(directory), [`_43.${other.child.pid}.json`]);
      assert.equal(cli(elsewhere, 'highlight', '--clear').stdout, 'cleared 1 highlight\n');
      assert.equal(await other.exit, 0);
      assert.deepEqual(readdirSync(directory), []);
    } finally {
      for (const running of [first, second, other]) running.child.kill('SIGKILL');
    }
  });

  it('removes stale entries without signalling: a process that is gone, or a pid now used by another process', () => {
    const env = privateEnv(':7');
    const directory = registryDirectory(env);
    const gone = path.join(directory, `${displayKey(':7')}.999999999.json`);
    writeFileSync(gone, JSON.stringify({ pid: 999_999_999, startTime: '1', display: ':7' }));
    // This test process is alive, but not the one that wrote the entry (another start time).
    const reused = path.join(directory, `${displayKey(':7')}.${process.pid}.json`);
    writeFileSync(reused, JSON.stringify({ pid: process.pid, startTime: 'not-its-start-time', display: ':7' }));
    const cleared = cli(env, 'highlight', '--clear');
    assert.equal(cleared.status, 0, cleared.stderr);
    assert.equal(cleared.stdout, 'cleared 0 highlights\n');
    assert.ok(!existsSync(gone) && !existsSync(reused));
  });

  it('keeps its entries in a private directory and refuses one that others can read', () => {
    const env = privateEnv();
    const directory = registryDirectory(env);
    chmodSync(directory, 0o755);
    const refused = cli(env, 'highlight', '--clear');
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /is not a private directory of this user/);
    assert.equal(displayKey(':1.0'), displayKey(':1'));
    assert.notEqual(displayKey(':1'), displayKey(':10'));
  });
});
