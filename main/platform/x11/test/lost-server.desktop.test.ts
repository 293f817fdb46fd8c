import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { InspectorError } from '../../../../shared/model/errors.js';
import { createX11Platform } from '../factory.js';
import { projectRoot, sleep, startBareXServer, type BareXServer } from './support/desktop.js';

const bin = path.join(projectRoot, 'bin/platynui-inspector');
const lostMessage = /the X server :\d+ closed the connection \(was it stopped or restarted\?\)/;

/** A CLI run in the background, its output collected. */
function background(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output, exited };
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('X11 platform when the X server is missing or goes away (desktop)', () => {
  const servers: BareXServer[] = [];
  const server = async () => {
    const started = await startBareXServer();
    servers.push(started);
    return started;
  };

  after(async () => {
    for (const s of servers) await s.stop();
  });

  it('a server that stops leaves the process running; every device call then fails with a clear error', async () => {
    const x = await server();
    const platform = await createX11Platform({ env: { DISPLAY: x.display } });
    await platform.highlight!.highlight({ rects: [{ x: 20, y: 20, width: 100, height: 50 }], durationMs: 60_000 });
    assert.deepEqual((await platform.desktopInfo!.describe()).bounds, { x: 0, y: 0, width: 640, height: 480 });
    const lost = platform.whenLost!();
    await x.stop();
    const error = await lost;
    assert.ok(error instanceof InspectorError);
    assert.equal(error.code, 'provider-unavailable');
    assert.match(error.message, lostMessage);
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['pointer.position', () => platform.pointer!.position()],
      ['pointer.moveTo', () => platform.pointer!.moveTo({ x: 5, y: 5 })],
      ['keyboard.send', () => platform.keyboard!.send(platform.keyboard!.keyCode('a'), 'press')],
      ['screenshot.capture', () => platform.screenshot!.capture()],
      ['highlight.highlight', () => platform.highlight!.highlight({ rects: [{ x: 1, y: 1, width: 9, height: 9 }] })],
      ['windowManager.list', () => platform.windowManager!.list()],
      ['windowManager.windowsAtPoint', () => platform.windowManager!.windowsAtPoint({ x: 5, y: 5 })],
      ['desktopInfo.describe', () => platform.desktopInfo!.describe()],
      ['pointer.doubleClickSettings', async () => platform.pointer!.doubleClickSettings!()],
    ];
    for (const [name, call] of calls) {
      await assert.rejects(
        Promise.resolve().then(call),
        (e: unknown) => e instanceof InspectorError && lostMessage.test(e.message),
        name,
      );
    }
    // Shutting down a lost platform is quiet, and stops the highlight's clear timer (the test would hang otherwise).
    await platform.shutdown();
  });

  it('highlight without --duration stays until Ctrl-C, then clears and exits 0', async () => {
    const x = await server();
    const run = background(['highlight', '--rect', '30,30,60,40'], { ...process.env, DISPLAY: x.display });
    await until(() => run.output.stderr.includes('press Ctrl-C'), 'the highlight to be shown');
    await sleep(600);
    assert.equal(run.child.exitCode, null, `still running (stderr: ${run.output.stderr})`);
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 0, run.output.stderr);
    assert.equal(run.output.stdout, '30,30,60,40\n');
  });

  it('highlight ends with exit 3 and the reason as soon as the X server stops, with or without --duration', async () => {
    for (const extra of [[], ['--duration', '60000']]) {
      const x = await server();
      const run = background(['highlight', '--rect', '30,30,60,40', ...extra], { ...process.env, DISPLAY: x.display });
      await until(() => run.output.stdout.includes('\n'), 'the highlight to be shown');
      const stoppedAt = Date.now();
      await x.stop();
      const code = await run.exited;
      const tookMs = Date.now() - stoppedAt;
      assert.equal(code, 3, run.output.stderr);
      assert.match(run.output.stderr, lostMessage);
      assert.doesNotMatch(run.output.stderr, /XIO|at .*\.js:\d+/, 'no Xlib message, no stack trace');
      assert.ok(tookMs < 5000, `exited ${tookMs} ms after the server stopped`);
    }
  });

  it('without DISPLAY or with no server behind it, device commands say so (exit 3, no stack trace)', () => {
    const env = { ...process.env };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    delete env.XDG_SESSION_TYPE;
    const cli = (args: string[], extraEnv: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [bin, ...args], { env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
    const commands = [
      ['pick', '--at', '10,10'],
      ['highlight', '--rect', '1,1,5,5', '--duration', '10'],
      ['screenshot', '/tmp/never-written.png'],
      ['pointer', 'position'],
      ['keyboard', 'type', 'a'],
    ];
    for (const args of commands) {
      const unset = cli(args, {});
      assert.equal(unset.status, 3, `${args[0]} without DISPLAY: ${unset.stderr}`);
      assert.match(unset.stderr, /is DISPLAY set\?|DISPLAY/, args[0]);
      const dead = cli(args, { DISPLAY: ':250' });
      assert.equal(dead.status, 3, `${args[0]} on :250: ${dead.stderr}`);
      assert.match(dead.stderr, /cannot open X display :250 \(is the X server running/, args[0]);
      for (const result of [unset, dead]) assert.doesNotMatch(result.stderr, /at .*\.js:\d+|XIO/, args[0]);
    }
  });
});
