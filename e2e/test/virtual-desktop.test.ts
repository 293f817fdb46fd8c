// The product's own virtual desktop, end to end: `platynui-inspector virtual-desktop -- <command>` and
// `serve --virtual-desktop --app gtk3-demo`, each started with an environment that has no desktop at all (the test
// runner's DISPLAY, bus and marker removed), so what they show is the desktop they start themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DESKTOP_MARKER } from '../../main/desktop/virtual-desktop.js';
import { openInspectorPage, startServe } from '../support/inspector.js';
import { projectRoot } from '../support/paths.js';
import { descendantsOf, processesWithEnv } from '../support/processes.js';

const cli = path.join(projectRoot(), 'bin/platynui-inspector');

/** This process's environment without any desktop: what a CI runner or a server has. */
function noDesktopEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'vd-cfg-')) };
  for (const name of [
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'XAUTHORITY',
    'DBUS_SESSION_BUS_ADDRESS',
    'AT_SPI_BUS_ADDRESS',
    DESKTOP_MARKER,
  ]) {
    delete env[name];
  }
  return { ...env, ...extra };
}

function virtualDesktop(args: string[], env = noDesktopEnv()) {
  return spawnSync(process.execPath, [cli, 'virtual-desktop', ...args], { env, encoding: 'utf8', timeout: 60_000 });
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** The marker of the desktop a CLI process started (read from its Xvfb child's environment). */
function markerOf(pid: number): string {
  for (const child of descendantsOf([pid])) {
    try {
      const environ = readFileSync(`/proc/${child}/environ`, 'latin1').split('\0');
      const entry = environ.find((e) => e.startsWith(`${DESKTOP_MARKER}=`));
      if (entry) return entry.slice(DESKTOP_MARKER.length + 1);
    } catch {
      // gone
    }
  }
  throw new Error(`process ${pid} has no desktop process`);
}

const desktopProcesses = (marker: string) => processesWithEnv(DESKTOP_MARKER, marker);

function exitOf(child: ChildProcess): Promise<[number | null, NodeJS.Signals | null]> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
}

test('virtual-desktop runs the command in a private desktop of its own and passes its exit status on', () => {
  const script = [
    'echo "display=$DISPLAY"',
    'echo "bus=$DBUS_SESSION_BUS_ADDRESS"',
    'echo "cookie=$(stat -c %a "$XAUTHORITY")"',
    'xdpyinfo | grep dimensions',
    'XAUTHORITY=/dev/null xdpyinfo >/dev/null 2>&1 || echo "no cookie: refused"',
    'xdpyinfo -display "127.0.0.1$DISPLAY" >/dev/null 2>&1 || echo "tcp: refused"',
    'exit 7',
  ].join('; ');
  const r = virtualDesktop(['--size', '1024x768', '--', 'sh', '-c', script]);
  assert.equal(r.status, 7, r.stderr);
  assert.match(r.stdout, /^display=:\d+$/m);
  assert.notEqual(/^display=(.*)$/m.exec(r.stdout)?.[1], process.env.DISPLAY, "not the test runner's display");
  assert.match(r.stdout, /^bus=unix:path=.+platynui-desktop-.+\/bus/m);
  assert.match(r.stdout, /^cookie=600$/m);
  assert.match(r.stdout, /dimensions:\s+1024x768 pixels/);
  assert.match(r.stdout, /^no cookie: refused$/m);
  assert.match(r.stdout, /^tcp: refused$/m);
});

test("the product's X11 client (libX11 through koffi) and AT-SPI provider work in the desktop with its cookie", () => {
  const r = virtualDesktop(['--size', '800x600', '--', process.execPath, cli, 'info']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Platform: x11 /m);
  assert.match(r.stdout, /^Desktop: 800x600 at 0,0/m);
  assert.match(r.stdout, /^Provider atspi: ready/m);
});

test('virtual-desktop exit codes: 128 + signal, 127 for a missing command, 2 for bad options, 3 without a desktop', () => {
  assert.equal(virtualDesktop(['--', 'sh', '-c', 'kill -TERM $$']).status, 128 + 15);
  assert.equal(virtualDesktop(['--', 'platynui-no-such-command']).status, 127);
  const bad = virtualDesktop(['--size', '10x10', '--', 'true']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--size must be WIDTHxHEIGHT .* got "10x10"/);
  // An Xvfb that cannot start: the desktop cannot start, nothing runs, exit 3 with the reason.
  const dir = mkdtempSync(path.join(tmpdir(), 'vd-fake-'));
  try {
    writeFileSync(path.join(dir, 'Xvfb'), '#!/bin/sh\necho "no screen for you" >&2\nexit 1\n');
    chmodSync(path.join(dir, 'Xvfb'), 0o755);
    const env = noDesktopEnv({ PATH: `${dir}:${process.env.PATH ?? ''}` });
    const r = virtualDesktop(['--', 'sh', '-c', `touch '${dir}/ran'`], env);
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /virtual desktop could not start: Xvfb exited early .*no screen for you/);
    assert.equal(existsSync(path.join(dir, 'ran')), false, 'the command must not run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('virtual-desktop --app starts the application in the desktop before the command, and fails with 3 when it cannot', () => {
  const r = virtualDesktop(['--app', 'sleep 30', '--', 'sh', '-c', 'sleep 0.3; pgrep -f -x "sleep 30" >/dev/null']);
  assert.equal(r.status, 0, r.stderr);
  const failed = virtualDesktop(['--app', 'platynui-no-such-app', '--', 'sleep', '20']);
  assert.equal(failed.status, 3);
  assert.match(failed.stderr, /the application "platynui-no-such-app" failed to start: it was not found/);
});

async function startVirtualDesktopCommand(): Promise<{ child: ChildProcess; marker: string }> {
  const child = spawn(
    process.execPath,
    [cli, 'virtual-desktop', '--', 'sh', '-c', `echo "$${DESKTOP_MARKER}"; sleep 60`],
    {
      env: noDesktopEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const marker = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`virtual-desktop exited early with ${code}`)));
  });
  return { child, marker };
}

test('SIGTERM to virtual-desktop stops the command and every desktop process', async () => {
  const { child, marker } = await startVirtualDesktopCommand();
  // Xvfb, dbus-daemon, openbox, the command, and the at-spi launcher, bus and registry
  assert.ok(desktopProcesses(marker).length >= 5, `only ${desktopProcesses(marker).join(' ')}`);
  const exit = exitOf(child);
  child.kill('SIGTERM');
  assert.deepEqual(await exit, [128 + 15, null]);
  assert.deepEqual(desktopProcesses(marker), []);
});

test('even a SIGKILLed virtual-desktop leaves no process behind', async () => {
  const { child, marker } = await startVirtualDesktopCommand();
  assert.ok(desktopProcesses(marker).length >= 5);
  child.kill('SIGKILL');
  const gone = await eventually(() => desktopProcesses(marker).length === 0, 5000);
  assert.ok(gone, `left behind: ${desktopProcesses(marker).join(' ')}`);
});

const SERVE_GTK = ['--virtual-desktop', '--size', '1280x800', '--app', 'gtk3-demo'];

test('serve --virtual-desktop --app gtk3-demo serves a page whose tree shows gtk3-demo; Stop ends everything', async () => {
  const { url, host, log } = await startServe(noDesktopEnv(), SERVE_GTK);
  const marker = markerOf(host.pid!);
  const exit = exitOf(host);
  const { browser, page } = await openInspectorPage(url);
  try {
    const tree = page.getByRole('tree');
    const gtk = tree.getByRole('treeitem', { name: 'app:Application "gtk3-demo"', exact: true });
    await gtk.waitFor({ timeout: 20_000 });
    assert.equal(await gtk.getAttribute('aria-level'), '2');
    const statusBar = page.getByRole('contentinfo', { name: 'Status bar' });
    assert.match((await statusBar.textContent()) ?? '', /platform x11/, 'serve adopted the desktop for its X11 client');
    assert.ok(desktopProcesses(marker).length >= 5, log());
    await page.getByRole('contentinfo', { name: 'Status bar' }).getByRole('button', { name: 'Stop host' }).click();
    const [code] = await exit;
    assert.equal(code, 0, log());
  } finally {
    await browser.close().catch(() => undefined);
    if (host.exitCode === null) host.kill('SIGKILL');
  }
  assert.deepEqual(desktopProcesses(marker), [], log());
  assert.match(log(), /stopping \(Stop in the page\)/);
});

test('serve --virtual-desktop leaves nothing running after SIGTERM, SIGKILL, or an application that fails', async () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    const { host, log } = await startServe(noDesktopEnv(), SERVE_GTK);
    const marker = markerOf(host.pid!);
    assert.ok(
      await eventually(() => desktopProcesses(marker).length >= 5, 5000),
      `${signal}: ${desktopProcesses(marker).join(' ')}`,
    );
    const exit = exitOf(host);
    host.kill(signal);
    const [code, killedBy] = await exit;
    if (signal === 'SIGTERM') assert.equal(code, 0, log());
    else assert.equal(killedBy, 'SIGKILL');
    const gone = await eventually(() => desktopProcesses(marker).length === 0, 5000);
    assert.ok(gone, `${signal} left behind: ${desktopProcesses(marker).join(' ')}`);
  }
  // Every process the host starts inherits this tag: none may be left once it exited.
  const tag = `failing-${process.pid}-${Date.now()}`;
  const failing = spawnSync(
    process.execPath,
    [cli, 'serve', '--no-open', '--virtual-desktop', '--app', 'gtk3-demo', '--app', 'exit 9'],
    { env: noDesktopEnv({ PLATYNUI_TEST_RUN: tag }), encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(failing.status, 3, failing.stderr);
  assert.match(failing.stderr, /the application "exit 9" failed to start: it exited with 9/);
  assert.match(failing.stderr, /virtual desktop :\d+/);
  assert.deepEqual(processesWithEnv('PLATYNUI_TEST_RUN', tag), []);
});
