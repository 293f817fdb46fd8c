// Proves the test infrastructure: the session has an X display with a window manager and an answering
// accessibility bus; gtk3-demo and Chromium register on the AT-SPI registry; the libatspi reference sees their trees;
// stopping leaves nothing behind. Runs inside the desktop session started by scripts/test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Variant } from 'dbus-next';
import {
  CONTROLS_READY_TITLE,
  FIXTURE_PASSWORD,
  fixtureUrl,
  launchChromium,
  launchGtk3Demo,
  sessionEnv,
} from '../support/apps.js';
import { call, connectA11yBus, connectBus, getChildren, registeredApplications } from '../support/atspi-bus.js';
import { atspiReference } from '../support/reference.js';
import { atspiReferenceScript, projectRoot, SYSTEM_PYTHON } from '../support/paths.js';
import { isAlive } from '../support/processes.js';

const env = sessionEnv();

interface RefNode {
  role: string;
  name: string;
  childCount: number;
  states: string[];
  extents?: { x: number; y: number; width: number; height: number } | null;
  children: RefNode[];
}
interface RefDump {
  app: { name: string; pid: number; busName: string; childCount: number };
  nodes: number;
  truncated: boolean;
  elapsedMs: number;
  tree: RefNode;
}

function reference(args: string[]): { dump: RefDump; raw: string } {
  const r = spawnSync(SYSTEM_PYTHON, [atspiReferenceScript(), ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 60000,
  });
  assert.equal(r.status, 0, `atspi-reference failed: ${r.stderr}`);
  return { dump: JSON.parse(r.stdout) as RefDump, raw: r.stdout };
}

function* nodes(n: RefNode): Generator<RefNode> {
  yield n;
  for (const c of n.children) yield* nodes(c);
}

function x(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', timeout: 10000 });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

test('the session has an X display of 1920x1080', () => {
  assert.match(env.DISPLAY ?? '', /^:\d+$/);
  const info = x('xdpyinfo', []);
  assert.match(info, /dimensions:\s+1920x1080 pixels/);
  assert.match(info, /depth of root window:\s+24 planes/);
});

test('openbox is the window manager and manages a launched window', async () => {
  const check = x('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK']);
  const wmWindow = /window id # (0x[0-9a-f]+)/.exec(check)?.[1];
  assert.ok(wmWindow, check);
  assert.match(x('xprop', ['-id', wmWindow, '_NET_WM_NAME']), /"Openbox"/);

  const app = await launchGtk3Demo(env);
  try {
    // openbox lists managed windows in _NET_CLIENT_LIST; one of them belongs to gtk3-demo's PID.
    let owned = false;
    for (let i = 0; i < 100 && !owned; i++) {
      const list = x('xprop', ['-root', '_NET_CLIENT_LIST']);
      for (const id of list.match(/0x[0-9a-f]+/g) ?? []) {
        if (x('xprop', ['-id', id, '_NET_WM_PID']).includes(`= ${app.pid}`)) owned = true;
      }
      if (!owned) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(owned, 'gtk3-demo window is not in _NET_CLIENT_LIST');
  } finally {
    await app.stop();
  }
});

test('accessibility is enabled and the accessibility bus and registry answer', async () => {
  const session = connectBus(env.DBUS_SESSION_BUS_ADDRESS ?? '');
  try {
    const [enabled] = await call(session, {
      destination: 'org.a11y.Bus',
      path: '/org/a11y/bus',
      interface: 'org.freedesktop.DBus.Properties',
      member: 'Get',
      signature: 'ss',
      body: ['org.a11y.Status', 'IsEnabled'],
    });
    assert.ok(enabled instanceof Variant);
    assert.equal(enabled.value, true);
  } finally {
    session.disconnect();
  }
  const bus = await connectA11yBus(env);
  try {
    const apps = await registeredApplications(bus);
    assert.ok(Array.isArray(apps));
  } finally {
    bus.disconnect();
  }
});

test('gtk3-demo registers and the libatspi reference sees more than 100 nodes', async () => {
  const app = await launchGtk3Demo(env);
  try {
    assert.equal(app.name, 'gtk3-demo');
    assert.match(app.busName, /^:\d+\.\d+$/);
    const { dump } = reference(['--pid', String(app.pid), '--extents']);
    assert.equal(dump.app.pid, app.pid);
    assert.equal(dump.app.busName, app.busName);
    assert.equal(dump.tree.role, 'application');
    assert.equal(dump.tree.name, 'gtk3-demo');
    assert.ok(dump.nodes > 100, `only ${dump.nodes} nodes`);
    assert.equal(dump.truncated, false);
    const all = [...nodes(dump.tree)];
    assert.equal(all.length, dump.nodes);
    const frame = all.find((n) => n.role === 'frame');
    assert.ok(frame, 'no frame');
    assert.ok(frame.extents && frame.extents.width > 0 && frame.extents.height > 0, JSON.stringify(frame.extents));
    assert.ok(
      all.some((n) => n.role === 'tree table' || n.role === 'tree'),
      'no demo tree',
    );

    const limited = reference(['--pid', String(app.pid), '--max-nodes', '10', '--summary']).dump;
    assert.equal(limited.nodes, 10);
    assert.equal(limited.truncated, true);

    const listed = reference(['--list']).dump as unknown as { apps: { pid: number; name: string }[] };
    assert.ok(listed.apps.some((a) => a.pid === app.pid && a.name === 'gtk3-demo'));
  } finally {
    await app.stop();
  }
  assert.equal(app.alive(), false);
});

test('Chromium shows the controls fixture and registers with its document', async () => {
  const app = await launchChromium(env, fixtureUrl('controls.html'), { title: CONTROLS_READY_TITLE });
  try {
    assert.equal(app.name, 'Chromium');
    assert.ok(app.tempDir && existsSync(app.tempDir));
    const { dump, raw } = reference(['--pid', String(app.pid)]);
    const all = [...nodes(dump.tree)];
    const doc = all.find((n) => n.role === 'document web');
    assert.ok(doc, 'no document web');
    assert.equal(doc.name, CONTROLS_READY_TITLE);
    const inDoc = [...nodes(doc)];
    assert.equal(inDoc.filter((n) => n.role === 'push button' && n.name === 'Save').length, 2);
    assert.ok(inDoc.some((n) => n.role === 'check box' && n.name === 'I agree' && n.states.includes('checked')));
    assert.ok(inDoc.some((n) => n.role === 'password text'));
    assert.ok(inDoc.some((n) => n.role === 'entry' && n.name === 'User name'));
    assert.ok(inDoc.some((n) => n.role === 'list'));
    assert.ok(!raw.includes(FIXTURE_PASSWORD), 'the reference dump leaked the password');
    // A real window on the session's display (not headless).
    assert.match(x('xdotool', ['search', '--pid', String(app.pid), '--onlyvisible', '--name', 'Controls']), /\d+/);
  } finally {
    await app.stop();
  }
  assert.equal(app.alive(), false);
  assert.equal(existsSync(app.tempDir ?? ''), false);
});

test('Chromium with the table fixture exposes about 5 nodes per row', async () => {
  const rows = 200;
  const { tableReadyTitle } = await import('../support/fixtures.js');
  const app = await launchChromium(env, fixtureUrl('table.html', { rows }), { title: tableReadyTitle(rows) });
  try {
    const { dump } = reference(['--pid', String(app.pid)]);
    const doc = [...nodes(dump.tree)].find((n) => n.role === 'document web');
    assert.ok(doc);
    const inDoc = [...nodes(doc)];
    assert.equal(inDoc.filter((n) => n.role === 'table row').length, rows + 1);
    assert.equal(inDoc.filter((n) => n.role === 'check box').length, rows);
    assert.ok(inDoc.some((n) => n.role === 'push button' && n.name === 'Find me'));
  } finally {
    await app.stop();
  }
});

test('stopping an app ends its whole process family', async () => {
  const app = await launchChromium(env, fixtureUrl('controls.html'), { title: CONTROLS_READY_TITLE });
  let family: number[] = [];
  try {
    family = app.processes();
    assert.ok(family.includes(app.pid));
    assert.ok(family.length >= 3, `Chromium should run several processes, got ${family.join(' ')}`);
  } finally {
    await app.stop();
  }
  assert.deepEqual(family.filter(isAlive), []);
  assert.deepEqual(app.processes(), []);
  // Nothing that used the app's profile directory survives.
  const leftovers = spawnSync('pgrep', ['-f', app.tempDir ?? '/nonexistent'], { encoding: 'utf8' }).stdout.trim();
  assert.equal(leftovers, '');
});

interface SessionModule {
  startDesktopSession(options?: { log?: (m: string) => void }): Promise<{
    env: NodeJS.ProcessEnv;
    display: string;
    tmpDir: string;
    startupMs: number;
    pids: { name: string; pid: number }[];
    stop(): Promise<unknown>;
  }>;
  processesWithMarker(id: string): number[];
}

test('a second session gets its own display and stops without leftovers', async () => {
  const mod = (await import(
    pathToFileURL(path.join(projectRoot(), 'scripts/desktop/session.mjs')).href
  )) as SessionModule;
  const s = await mod.startDesktopSession();
  const id = s.env.PLATYNUI_DESKTOP_SESSION ?? '';
  assert.notEqual(s.display, env.DISPLAY);
  assert.deepEqual(s.pids.map((p) => p.name).sort(), ['Xvfb', 'dbus-daemon', 'openbox']);
  const r = spawnSync('xdpyinfo', [], { env: s.env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(mod.processesWithMarker(id).length >= 3);
  await s.stop();
  for (const p of s.pids) assert.equal(isAlive(p.pid), false, `${p.name} ${p.pid} still alive`);
  assert.deepEqual(mod.processesWithMarker(id), []);
  assert.equal(existsSync(s.tmpDir), false);
});

test('a paused app stops answering D-Bus, resumes, and can be stopped while paused', async () => {
  const app = await launchGtk3Demo(env);
  const bus = await connectA11yBus(env);
  try {
    const ref = { busName: app.busName, path: app.path };
    assert.ok((await getChildren(bus, ref, 2000)).length > 0);
    app.pause();
    await assert.rejects(getChildren(bus, ref, 300), /timed out/);
    app.resume();
    assert.ok((await getChildren(bus, ref, 5000)).length > 0);
    const dump = await atspiReference(env, { pid: app.pid, summary: true });
    assert.equal(dump.tree, undefined);
    assert.ok(dump.nodes > 100);
    assert.ok(dump.elapsedMs > 0);
    app.pause();
  } finally {
    bus.disconnect();
    await app.stop();
  }
  assert.equal(app.alive(), false);
});
