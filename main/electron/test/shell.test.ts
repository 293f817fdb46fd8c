import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { API_CHANNEL, APP_ENTRY, SHELL_CSP, mainWindowOptions, parseWindowState } from '../security.js';
import { parseShellArgs, rendererFile, runtimeEnv, startShell } from '../shell.js';
import { FakeBrowserWindow, fakeElectron, type FakeWebContents } from './fake-electron.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

function files(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files(full, out);
    else if (/\.(c|m)?tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

test('static check: the window is isolated and sandboxed, the CSP is strict', () => {
  const options = mainWindowOptions('/app/preload.cjs', parseWindowState(undefined));
  assert.deepEqual(
    {
      contextIsolation: options.webPreferences.contextIsolation,
      sandbox: options.webPreferences.sandbox,
      nodeIntegration: options.webPreferences.nodeIntegration,
      nodeIntegrationInWorker: options.webPreferences.nodeIntegrationInWorker,
      nodeIntegrationInSubFrames: options.webPreferences.nodeIntegrationInSubFrames,
      webSecurity: options.webPreferences.webSecurity,
      allowRunningInsecureContent: options.webPreferences.allowRunningInsecureContent,
      webviewTag: options.webPreferences.webviewTag,
      preload: options.webPreferences.preload,
    },
    {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/preload.cjs',
    },
  );
  const directives = new Map(
    SHELL_CSP.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values] as const;
    }),
  );
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  assert.deepEqual(directives.get('script-src'), ["'self'"]);
  assert.deepEqual(directives.get('connect-src'), ["'self'"]);
  assert.deepEqual(directives.get('object-src'), ["'none'"]);
  assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
  assert.ok(!SHELL_CSP.includes('unsafe-eval'));
  assert.ok(!/script-src[^;]*unsafe-inline/.test(SHELL_CSP));
  assert.ok(!SHELL_CSP.includes('*'));
});

test('static check: only main/electron and preload import electron; the preload exposes exactly the API', () => {
  const offenders = [...files(path.join(root, 'main')), ...files(path.join(root, 'shared'))]
    .filter((file) => !file.includes(`${path.sep}main${path.sep}electron${path.sep}`))
    .filter((file) => /from 'electron'|require\('electron'\)/.test(readFileSync(file, 'utf8')));
  assert.deepEqual(offenders, []);
  const preload = readFileSync(path.join(root, 'preload/preload.cts'), 'utf8');
  const exposed = [...preload.matchAll(/exposeInMainWorld\('([^']+)'/g)].map((match) => match[1]);
  assert.deepEqual(exposed, ['platynui']);
  assert.match(preload, /const CHANNEL = '([^']+)'/);
  assert.equal(/const CHANNEL = '([^']+)'/.exec(preload)![1], API_CHANNEL);
  assert.ok(!/ipcRenderer\.(invoke|sendSync)|require\('(fs|child_process|node:)/.test(preload));
  assert.ok(existsSync(path.join(root, 'dist/preload/preload.cjs')), 'the preload compiles to CommonJS');
  const compiled = readFileSync(path.join(root, 'dist/preload/preload.cjs'), 'utf8');
  assert.ok(!/^\s*import\s/m.test(compiled), 'a sandboxed preload cannot use ESM imports');
});

test('a second instance focuses the first and quits', () => {
  const electron = fakeElectron({ userData: mkdtempSync(path.join(tmpdir(), 'platynui-shell-')), lock: false });
  const shell = startShell(electron, {
    distDir: path.join(root, 'dist'),
    runtime: {},
    files: { readFile: () => undefined, writeFile: () => undefined },
  });
  assert.equal(shell, undefined);
  assert.equal(electron.record.quit, 1);
});

test('shell args select the provider; renderer files never leave the renderer directory', () => {
  assert.deepEqual(parseShellArgs(['--provider', 'mock', '--platform', 'x11']), {
    runtime: { providers: ['mock'], providerOptions: {}, backendOptions: {}, platform: 'x11' },
  });
  assert.deepEqual(parseShellArgs(['--mock-file', 'a.xml', '--pick-shortcut', 'F9']), {
    runtime: { providers: [], providerOptions: {}, backendOptions: { mock: { file: 'a.xml' } } },
    shortcut: 'F9',
  });
  assert.equal(rendererFile('/r', 'platynui://inspector/app.js'), '/r/app.js');
  assert.equal(rendererFile('/r', 'platynui://inspector/'), '/r/index.html');
  assert.equal(rendererFile('/r', 'platynui://inspector/..%2F..%2Fetc%2Fpasswd'), undefined);
  assert.equal(rendererFile('/r', 'https://inspector/app.js'), undefined);
  assert.equal(rendererFile('/r', 'platynui://elsewhere/app.js'), undefined);
});

async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function responses(contents: FakeWebContents): Array<{ kind: string; id?: number; ok?: boolean; result?: unknown }> {
  return contents.sent
    .filter((entry) => entry.channel === API_CHANNEL)
    .map((entry) => entry.message as { kind: string; id?: number; ok?: boolean; result?: unknown });
}

test('the main process wires window, security handlers, IPC to the runtime process, shortcut and window state', async () => {
  const userData = mkdtempSync(path.join(tmpdir(), 'platynui-shell-'));
  process.env.XDG_CONFIG_HOME = userData;
  writeFileSync(path.join(userData, 'window-state.json'), JSON.stringify({ x: 10, y: 20, width: 1000, height: 700 }));
  const distDir = mkdtempSync(path.join(tmpdir(), 'platynui-dist-'));
  mkdirSync(path.join(distDir, 'renderer'));
  writeFileSync(path.join(distDir, 'renderer/index.html'), '<!doctype html><title>x</title>');
  const written = new Map<string, string>();
  const electron = fakeElectron({ userData });
  const logs: string[] = [];
  const shell = startShell(electron, {
    distDir,
    runtime: { providers: ['mock'], platform: 'mock' },
    files: {
      readFile: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
      writeFile: (file, text) => written.set(file, text),
    },
    log: (message) => logs.push(message),
  });
  assert.ok(shell);
  assert.equal(electron.record.sandboxEnabled, true);
  assert.deepEqual(electron.record.schemes, [
    {
      scheme: 'platynui',
      privileges: {
        standard: true,
        secure: true,
        supportFetchAPI: true,
        corsEnabled: false,
        bypassCSP: false,
        stream: true,
      },
    },
  ]);
  FakeBrowserWindow.created.length = 0;
  await electron.ready();
  await until(() => FakeBrowserWindow.created.length === 1 && !!FakeBrowserWindow.created[0]!.loaded, 'the window');
  const window = FakeBrowserWindow.created[0]!;
  assert.equal(window.loaded, APP_ENTRY);
  assert.deepEqual(window.bounds, { x: 10, y: 20, width: 1000, height: 700 }, 'the remembered state');
  window.emit('ready-to-show');
  assert.equal(window.shown, true);

  // permissions, navigation, new windows
  let granted: boolean | undefined;
  electron.record.permissionRequest!(window.webContents, 'media', (value) => (granted = value));
  assert.equal(granted, false);
  assert.equal(electron.record.permissionCheck!(), false);
  electron.appEvents.emit('web-contents-created', {}, window.webContents);
  assert.equal(window.webContents.fire('will-navigate', 'https://evil.example/'), true);
  assert.equal(window.webContents.fire('will-redirect', 'file:///etc/passwd'), true);
  assert.equal(window.webContents.fire('will-navigate', 'platynui://inspector/index.html'), false);
  assert.equal(window.webContents.fire('will-attach-webview'), true);
  assert.deepEqual(window.webContents.openHandler!({ url: 'https://evil.example/' }), { action: 'deny' });

  // CSP on the app's files, refusal outside the renderer directory
  const page = await electron.record.protocolHandler!({ url: 'platynui://inspector/index.html' });
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-security-policy'), SHELL_CSP);
  assert.match(await page.text(), /<title>x<\/title>/);
  assert.equal((await electron.record.protocolHandler!({ url: 'platynui://inspector/../../etc/passwd' })).status, 404);
  let headers: Record<string, string[] | string> | undefined;
  electron.record.headers!({ responseHeaders: {} }, (response) => (headers = response.responseHeaders));
  assert.deepEqual(headers, { 'Content-Security-Policy': [SHELL_CSP] });

  // IPC: the app's own frame reaches the runtime (in its utility process), a foreign frame does not
  assert.equal(electron.record.forks.length, 1);
  assert.match(electron.record.forks[0]!.modulePath, /main[/\\]electron[/\\]runtime-host-main\.js$/);
  assert.ok(
    electron.record.forks[0]!.env.PLATYNUI_EXCLUDE_PIDS?.split(',').includes(String(process.pid)),
    'picking skips the windows of the shell itself',
  );
  const ipc = electron.record.ipc.get(API_CHANNEL)!;
  ipc(
    { sender: window.webContents, senderFrame: { url: 'https://evil.example/' } },
    { kind: 'request', id: 99, method: 'desktop', params: {} },
  );
  const foreignContents = { ...window.webContents, id: 12345 } as unknown as FakeWebContents;
  ipc(
    { sender: foreignContents, senderFrame: window.webContents.mainFrame },
    { kind: 'request', id: 98, method: 'desktop' },
  );
  assert.equal(shell.refused, 2);
  ipc(
    { sender: window.webContents, senderFrame: window.webContents.mainFrame },
    { kind: 'request', id: 1, method: 'desktop', params: {} },
  );
  ipc({ sender: window.webContents, senderFrame: window.webContents.mainFrame }, 'not json at all');
  await until(() => responses(window.webContents).filter((m) => m.kind === 'response').length >= 2, 'the answers');
  const answers = responses(window.webContents).filter((m) => m.kind === 'response');
  const desktop = answers.find((m) => m.id === 1);
  assert.equal(desktop?.ok, true);
  assert.equal((desktop?.result as { node: { runtimeId: string } }).node.runtimeId, 'platynui:Desktop');
  assert.ok(
    answers.some((m) => m.id === null && m.ok === false),
    'a malformed message gets an error reply',
  );
  assert.ok(!answers.some((m) => m.id === 98 || m.id === 99));

  // the global shortcut starts picking: hover events reach the window
  const shortcut = electron.record.shortcuts.get('CommandOrControl+Shift+F12');
  assert.ok(shortcut);
  shortcut();
  await until(
    () => responses(window.webContents).some((m) => m.kind === 'event' && JSON.stringify(m).includes('pick.hover')),
    'a pick.hover event',
  );
  shortcut();
  await until(
    () => responses(window.webContents).some((m) => m.kind === 'event' && JSON.stringify(m).includes('pick.stopped')),
    'picking to stop',
  );

  // window state is remembered; closing tells the runtime; quitting shuts it down
  window.bounds = { x: 50, y: 60, width: 1200, height: 800 };
  window.maximized = true;
  window.emit('close');
  const saved = JSON.parse(written.get(path.join(userData, 'window-state.json'))!) as unknown;
  assert.deepEqual(saved, { x: 50, y: 60, width: 1200, height: 800, maximized: true });
  window.emit('closed');
  electron.appEvents.emit('will-quit');
  const utility = electron.record.forks[0]!.process;
  assert.deepEqual(
    utility.commands.map((command) => command.type).filter((type) => type !== 'message'),
    ['open', 'shortcut', 'shortcut', 'close', 'shutdown'],
  );
  await utility.stopped;
  assert.equal(electron.record.shortcuts.size, 0, 'shortcuts are released');
  assert.ok(logs.some((line) => line.startsWith('refused an IPC message')));
});

test('the runtime environment adds the main process to the excluded pids', () => {
  assert.equal(runtimeEnv({ PLATYNUI_EXCLUDE_PIDS: '12,34' }, 99).PLATYNUI_EXCLUDE_PIDS, '12,34,99');
  assert.equal(runtimeEnv({}, 7).PLATYNUI_EXCLUDE_PIDS, '7');
});

test('remembered window state is validated', () => {
  assert.deepEqual(parseWindowState({ width: 10, height: 'x', x: 5 }), { width: 1400, height: 900, maximized: false });
  assert.deepEqual(parseWindowState({ width: 800, height: 600, x: 1, y: 2, maximized: true }), {
    width: 800,
    height: 600,
    x: 1,
    y: 2,
    maximized: true,
  });
});

test('without a native highlight, the shell outlines with click-through overlay windows', async () => {
  const userData = mkdtempSync(path.join(tmpdir(), 'platynui-shell-'));
  process.env.XDG_CONFIG_HOME = userData;
  const electron = fakeElectron({ userData });
  FakeBrowserWindow.created.length = 0;
  const shell = startShell(electron, {
    distDir: path.join(root, 'dist'),
    runtime: { providers: ['mock'], platform: 'none' },
    files: { readFile: () => undefined, writeFile: () => undefined },
  });
  assert.ok(shell);
  await electron.ready();
  await until(() => FakeBrowserWindow.created.length === 1 && !!FakeBrowserWindow.created[0]!.loaded, 'the window');
  const window = FakeBrowserWindow.created[0]!;
  const ipc = electron.record.ipc.get(API_CHANNEL)!;
  const send = (message: unknown) =>
    ipc({ sender: window.webContents, senderFrame: window.webContents.mainFrame }, message);
  send({
    kind: 'request',
    id: 1,
    method: 'highlight',
    params: {
      rects: [
        { x: 10, y: 20, width: 30, height: 40 },
        { x: 100, y: 100, width: 5, height: 5 },
      ],
      durationMs: 300,
    },
  });
  await until(() => shell.overlays === 2 && FakeBrowserWindow.created.slice(1).every((w) => w.shown), 'two overlays');
  const overlays = FakeBrowserWindow.created.slice(1);
  const options = overlays[0]!.options as unknown as { [key: string]: unknown };
  assert.deepEqual(
    [options.x, options.y, options.width, options.height, options.transparent, options.frame, options.alwaysOnTop],
    [10, 20, 30, 40, true, false, true],
  );
  assert.equal(options.focusable, false);
  assert.ok(
    overlays.every((overlay) => overlay.ignoreMouse),
    'click-through',
  );
  const answer = responses(window.webContents).find((m) => m.kind === 'response' && m.id === 1);
  assert.equal((answer?.result as { shown: boolean }).shown, true);
  await until(() => overlays.every((overlay) => overlay.closed), 'the overlays to clear after their duration');
  send({ kind: 'request', id: 2, method: 'highlight', params: { rects: [{ x: 1, y: 1, width: 9, height: 9 }] } });
  await until(() => shell.overlays === 1, 'one overlay');
  send({ kind: 'request', id: 3, method: 'highlight.clear', params: {} });
  await until(() => shell.overlays === 0, 'clear');
  electron.appEvents.emit('will-quit');
  await electron.record.forks[0]!.process.stopped;
});
