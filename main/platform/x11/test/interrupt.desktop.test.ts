import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectRoot, sleep, startBareXServer, type BareXServer } from './support/desktop.js';
import { buttonsDown, keysDown, serverKeymap } from './support/x-state.js';

const bin = path.join(projectRoot, 'bin/platynui-inspector');

/**
 * Ctrl-C in the middle of `keyboard type` or `pointer drag` used to end the process with the key or button it was
 * holding still down on the desktop (a stuck Shift for the person at it). These run on an X server of their own, so
 * a failure cannot leave the shared test desktop with stuck keys.
 */
describe('CLI input interrupted by Ctrl-C (desktop)', () => {
  let x: BareXServer;

  before(async () => {
    x = await startBareXServer();
  });

  after(async () => {
    await x?.stop();
  });

  /** Starts the CLI, sends SIGINT once `busy` holds (the input is under way), and returns its exit and stderr. */
  async function interrupt(args: string[], busy: () => boolean) {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, DISPLAY: x.display },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    const deadline = Date.now() + 20_000;
    while (!busy()) {
      assert.equal(child.exitCode, null, `ended before the input was under way: ${stderr}`);
      assert.ok(Date.now() < deadline, 'the input never got under way');
      await sleep(5);
    }
    child.kill('SIGINT');
    const [code] = await exited;
    return { code: code as number | null, stderr };
  }

  it('keyboard type releases its keys and gives the borrowed keycodes back', async () => {
    const keymap = serverKeymap(x.display);
    // Upper case holds Shift; Ω is not on the layout and types through a borrowed spare keycode.
    const text = 'AΩBΩCΩDΩEΩFΩGΩHΩ'.repeat(20);
    const result = await interrupt(['keyboard', 'type', text], () => keysDown(x.display).length > 0);
    assert.equal(result.code, 4, result.stderr);
    assert.match(result.stderr, /interrupted by SIGINT; the keys and buttons the input held were released/);
    assert.deepEqual(keysDown(x.display), [], 'no key is left down');
    assert.deepEqual(serverKeymap(x.display), keymap, 'the spare keycodes are empty again');
  });

  it('pointer drag lets go of its button', async () => {
    const result = await interrupt(['pointer', 'drag', '--at', '20,20', '--to', '600,400', '--motion', 'linear'], () =>
      buttonsDown(x.display).includes(1),
    );
    assert.equal(result.code, 4, result.stderr);
    assert.deepEqual(buttonsDown(x.display), [], 'no button is left down');
  });
});
