import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FuseV1Options } from '@electron/fuses';
import { ELECTRON_FUSES, electronBinary, fuseConfig } from '../fuses.js';
import { RuntimeSupervisor } from '../runtime-supervisor.js';
import { API_CHANNEL, mainWindowOptions, parseWindowState } from '../security.js';
import { parseShellArgs, rendererFile, startShell, type UtilityProcessLike } from '../shell.js';
import { fakeElectron, type FakeWebContents } from './fake-electron.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

class DyingProcess implements UtilityProcessLike {
  readonly posted: unknown[] = [];
  private exitListener: ((code: number) => void) | undefined;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  on(event: 'message' | 'exit', listener: (value: never) => void): void {
    if (event === 'exit') this.exitListener = listener as (code: number) => void;
  }
  kill(): boolean {
    return true;
  }
  die(code: number): void {
    this.exitListener?.(code);
  }
}

test('the runtime process is restarted when it dies, with a growing pause, and given up on when it keeps dying', () => {
  const processes: DyingProcess[] = [];
  const timers: Array<{ callback: () => void; ms: number }> = [];
  let now = 0;
  const logs: string[] = [];
  const starts: boolean[] = [];
  const supervisor = new RuntimeSupervisor({
    fork: () => {
      const process = new DyingProcess();
      processes.push(process);
      return process;
    },
    onStart: (_host, restart) => starts.push(restart),
    log: (message) => logs.push(message),
    maxRestarts: 3,
    windowMs: 60_000,
    baseDelayMs: 250,
    setTimeout: (callback, ms) => timers.push({ callback, ms }),
    now: () => now,
  });
  supervisor.start();
  assert.deepEqual(starts, [false]);
  for (const expected of [250, 500, 1000]) {
    processes.at(-1)!.die(1);
    assert.equal(supervisor.host, undefined, 'no process while it waits');
    assert.equal(timers.at(-1)!.ms, expected);
    now += 10;
    timers.at(-1)!.callback();
    assert.ok(supervisor.host === processes.at(-1));
  }
  assert.deepEqual(starts, [false, true, true, true]);
  assert.equal(supervisor.restarts, 3);
  processes.at(-1)!.die(9);
  assert.equal(timers.length, 3, 'the fourth death within a minute is not restarted');
  assert.equal(supervisor.gaveUp, true);
  assert.match(logs.at(-1)!, /4 times within 60000 ms; not restarted/);

  // deaths far apart are each restarted, without the pause growing
  const spaced = new RuntimeSupervisor({
    fork: () => {
      const process = new DyingProcess();
      processes.push(process);
      return process;
    },
    onStart: () => undefined,
    setTimeout: (callback, ms) => timers.push({ callback, ms }),
    now: () => now,
  });
  spaced.start();
  for (let i = 0; i < 8; i++) {
    now += 120_000;
    processes.at(-1)!.die(1);
    assert.equal(timers.at(-1)!.ms, 250);
    timers.at(-1)!.callback();
  }
  assert.equal(spaced.restarts, 8);
  // a stopped supervisor (the app quits) starts nothing
  spaced.stop();
  processes.at(-1)!.die(0);
  assert.equal(spaced.host, undefined);
  assert.equal(spaced.restarts, 8);
});

test('the shell restarts a dead runtime, answers what it left unanswered, and size-checks IPC objects', async () => {
  const userData = mkdtempSync(path.join(tmpdir(), 'platynui-shell-'));
  process.env.XDG_CONFIG_HOME = userData;
  const distDir = path.join(userData, 'dist');
  mkdirSync(path.join(distDir, 'renderer'), { recursive: true });
  writeFileSync(path.join(distDir, 'renderer/index.html'), '<!doctype html><title>x</title>');
  const electron = fakeElectron({ userData });
  const logs: string[] = [];
  const shell = startShell(electron, {
    distDir,
    runtime: { providers: ['mock'], platform: 'mock' },
    files: { readFile: () => undefined, writeFile: () => undefined },
    log: (message) => logs.push(message),
  });
  assert.ok(shell);
  await electron.ready();
  const window = shell.window!;
  const contents = window.webContents as FakeWebContents;
  const send = (message: unknown) =>
    electron.record.ipc.get(API_CHANNEL)!({ sender: contents, senderFrame: contents.mainFrame }, message);
  const responses = () =>
    contents.sent
      .filter((entry) => entry.channel === API_CHANNEL)
      .map((entry) => entry.message as { kind: string; id: number | null; ok: boolean; error?: { message: string } });
  const until = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(check(), what);
  };

  // an object nested 100,000 deep, sent as an object (not text), is refused in the main process with an answer
  let deep: unknown = 0;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  send({ kind: 'request', id: 7, method: 'settings.set', params: { values: { deep } } });
  const refusedDeep = responses().find((message) => message.id === 7);
  assert.equal(refusedDeep?.ok, false);
  assert.match(refusedDeep!.error!.message, /nested too deeply/);
  send({ kind: 'request', id: 8, method: 'settings.set', params: { values: { big: 'x'.repeat(70 * 1024 * 1024) } } });
  assert.match(responses().find((message) => message.id === 8)!.error!.message, /too large/);
  assert.equal(shell.refused, 2);

  // the runtime dies while it evaluates: the request is answered with an error, the runtime comes back
  const first = electron.record.forks[0]!.process;
  send({
    kind: 'request',
    id: 9,
    method: 'evaluate',
    params: { id: 'e1', xpath: 'count(for $i in 1 to 200000000 return $i)' },
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  first.emit('exit', 134);
  const lost = responses().find((message) => message.id === 9);
  assert.equal(lost?.ok, false);
  assert.match(lost!.error!.message, /runtime process exited with 134; it is restarted/);
  await until(() => electron.record.forks.length === 2, 'a second runtime process');
  assert.equal(shell.restarts, 1);
  const second = electron.record.forks[1]!.process;
  assert.deepEqual(second.commands[0], { type: 'open', connection: contents.id }, 'the window is connected again');
  send({ kind: 'request', id: 10, method: 'desktop', params: {} });
  await until(() => responses().some((message) => message.id === 10), 'an answer from the new runtime');
  assert.equal(responses().find((message) => message.id === 10)?.ok, true);

  first.postMessage({ type: 'shutdown' });
  electron.appEvents.emit('will-quit');
  await second.stopped;
  assert.equal(electron.record.forks.length, 2, 'quitting restarts nothing');
});

test('DevTools only with --devtools; source maps only then; the fuses turn Node off in the packaged binary', () => {
  assert.equal(mainWindowOptions('/p.cjs', parseWindowState(undefined)).webPreferences.devTools, false);
  assert.equal(mainWindowOptions('/p.cjs', parseWindowState(undefined), true).webPreferences.devTools, true);
  assert.equal(parseShellArgs([]).devTools, undefined);
  assert.equal(parseShellArgs(['--devtools']).devTools, true);
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-renderer-'));
  assert.equal(rendererFile(dir, 'platynui://inspector/app.js.map'), undefined);
  assert.equal(
    rendererFile(dir, 'platynui://inspector/app.js.map', { sourceMaps: true }),
    path.join(dir, 'app.js.map'),
  );
  assert.equal(rendererFile(dir, 'platynui://inspector/test/a.test.js', { sourceMaps: true }), undefined);

  assert.equal(ELECTRON_FUSES.runAsNode, false);
  assert.equal(ELECTRON_FUSES.enableNodeOptionsEnvironmentVariable, false);
  assert.equal(ELECTRON_FUSES.enableNodeCliInspectArguments, false);
  const context = {
    appOutDir: '/out/linux-unpacked',
    electronPlatformName: 'linux',
    arch: 1,
    packager: { appInfo: { productFilename: 'PlatynUI Inspector' }, executableName: 'platynui-inspector' },
  };
  const config = fuseConfig(context);
  assert.equal(config[FuseV1Options.RunAsNode], false);
  assert.equal(config[FuseV1Options.EnableNodeOptionsEnvironmentVariable], false);
  assert.equal(config[FuseV1Options.EnableNodeCliInspectArguments], false);
  assert.equal(config[FuseV1Options.OnlyLoadAppFromAsar], true);
  assert.equal(electronBinary(context), '/out/linux-unpacked/platynui-inspector');
  assert.equal(
    electronBinary({ ...context, electronPlatformName: 'win32' }),
    '/out/linux-unpacked/PlatynUI Inspector.exe',
  );
  assert.equal(fuseConfig({ ...context, electronPlatformName: 'darwin', arch: 3 }).resetAdHocDarwinSignature, true);

  // electron-builder runs the hook that flips them, and the hook uses this configuration
  const builder = readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
  assert.match(builder, /^afterPack: scripts\/after-pack\.cjs$/m);
  const hook = readFileSync(path.join(root, 'scripts/after-pack.cjs'), 'utf8');
  assert.ok(hook.includes("import('../dist/main/electron/fuses.js')"), 'the hook loads the built fuse list');
  assert.match(hook, /flipElectronFuses\(context\)/);
});

test('npm ci needs no newer Node than this one: no package of the lock wants more (no EBADENGINE)', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    engines: { node: string };
    devDependencies: { [name: string]: string };
  };
  assert.equal(pkg.engines.node, '>=20');
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: { [at: string]: { engines?: { node?: string } } };
  };
  // the Node this runs on (CI: Node 20); a package wanting more makes npm ci warn EBADENGINE
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  const tooNew: string[] = [];
  for (const [at, entry] of Object.entries(lock.packages)) {
    const wanted = entry.engines?.node;
    const minimum = /^>=\s*(\d+)(?:\.(\d+))?/.exec(wanted ?? '');
    if (minimum && (Number(minimum[1]) > major || (Number(minimum[1]) === major && Number(minimum[2] ?? 0) > minor))) {
      tooNew.push(`${at} wants node ${wanted}`);
    }
  }
  assert.deepEqual(tooNew, []);
});
