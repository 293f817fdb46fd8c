// `npm start` on a machine without a desktop session (no DISPLAY, no WAYLAND_DISPLAY): scripts/start.mjs says so in
// one line, serves a virtual desktop with gtk3-demo, and SIGTERM (what Ctrl-C in npm sends on) ends all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DESKTOP_MARKER } from '../../main/desktop/virtual-desktop.js';
import { projectRoot } from '../support/paths.js';
import { processesWithEnv } from '../support/processes.js';

test('npm start without a desktop says so in one line, serves a virtual desktop with gtk3-demo, and stops it all', async () => {
  const tag = `npm-start-${process.pid}-${Date.now()}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'npm-start-cfg-')),
    PLATYNUI_TEST_RUN: tag,
  };
  for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS_ADDRESS']) {
    delete env[name];
  }
  delete env[DESKTOP_MARKER];
  const start = spawn(process.execPath, [path.join(projectRoot(), 'scripts/start.mjs'), '--no-open', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  start.stdout.setEncoding('utf8').on('data', (data: string) => (output += data));
  start.stderr.setEncoding('utf8').on('data', (data: string) => (output += data));
  const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 30_000;
    let url: string | undefined;
    while (!(url = /http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+/.exec(output)?.[0])) {
      if (Date.now() > deadline || start.exitCode !== null) assert.fail(`no address printed: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [first] = output.split('\n');
    assert.equal(
      first,
      'There is no desktop session here (neither DISPLAY nor WAYLAND_DISPLAY is set), so a virtual desktop with ' +
        'gtk3-demo is started and served in the browser.',
    );
    const page = await fetch(url.replace(/#.*/, ''));
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>PlatynUI Inspector<\/title>/);
    const started = processesWithEnv('PLATYNUI_TEST_RUN', tag);
    // serve, Xvfb, dbus-daemon, openbox, gtk3-demo and AT-SPI's processes
    assert.ok(started.length >= 5, `only ${started.length} processes: ${output}`);
  } finally {
    start.kill('SIGTERM');
  }
  assert.equal(await exited, 0, output);
  const deadline = Date.now() + 5000;
  while (processesWithEnv('PLATYNUI_TEST_RUN', tag).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(processesWithEnv('PLATYNUI_TEST_RUN', tag), [], output);
});
