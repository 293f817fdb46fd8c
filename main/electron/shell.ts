import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runtimeOptionsFrom, type RuntimeFlags } from '../backends/flags.js';
import type { RuntimeOptions } from '../runtime/runtime.js';
import type { HostCommand } from './runtime-host.js';
import {
  API_CHANNEL,
  APP_ENTRY,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  DEFAULT_PICK_SHORTCUT,
  SHELL_CSP,
  MAX_OVERLAYS,
  OVERLAY_PAGE,
  isAppUrl,
  mainWindowOptions,
  overlayWindowOptions,
  parseWindowState,
  type WindowState,
} from './security.js';

/**
 * The Electron main process, written against the small part of the electron module it uses (ElectronLike), so that
 * its logic is unit-tested with a fake where the real Electron cannot run. main.ts passes the real module.
 */

export interface WebContentsLike {
  readonly id: number;
  readonly mainFrame: unknown;
  send(channel: string, message: unknown): void;
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void }, url: string) => void,
  ): void;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): void;
  on(event: 'destroyed' | 'did-finish-load', listener: () => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  isDestroyed(): boolean;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  setIgnoreMouseEvents(ignore: boolean): void;
  showInactive(): void;
  close(): void;
  loadURL(url: string): Promise<void>;
  on(event: 'close' | 'closed' | 'resize' | 'move' | 'ready-to-show', listener: () => void): void;
  once(event: 'ready-to-show', listener: () => void): void;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  getNormalBounds(): { x: number; y: number; width: number; height: number };
}

export interface UtilityProcessLike {
  postMessage(message: HostCommand): void;
  on(event: 'message', listener: (message: unknown) => void): void;
  on(event: 'exit', listener: (code: number) => void): void;
  kill(): boolean;
}

export interface IpcEventLike {
  readonly sender: WebContentsLike;
  readonly senderFrame: { readonly url: string } | null;
}

export interface SessionLike {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { responseHeaders?: Record<string, string[] | string> },
        callback: (response: { responseHeaders: Record<string, string[] | string> }) => void,
      ) => void,
    ): void;
  };
}

export interface ElectronLike {
  app: {
    requestSingleInstanceLock(): boolean;
    quit(): void;
    exit(code?: number): void;
    whenReady(): Promise<unknown>;
    getPath(name: 'userData'): string;
    enableSandbox(): void;
    on(event: 'second-instance' | 'window-all-closed' | 'will-quit', listener: () => void): void;
    on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): void;
  };
  BrowserWindow: new (
    options: ReturnType<typeof mainWindowOptions> | ReturnType<typeof overlayWindowOptions>,
  ) => BrowserWindowLike;
  ipcMain: { on(channel: string, listener: (event: IpcEventLike, message: unknown) => void): void };
  protocol: {
    registerSchemesAsPrivileged(schemes: Array<{ scheme: string; privileges: typeof APP_SCHEME_PRIVILEGES }>): void;
    handle(scheme: string, handler: (request: { url: string }) => Promise<Response> | Response): void;
  };
  net: { fetch(url: string): Promise<Response> };
  session: { defaultSession: SessionLike };
  globalShortcut: { register(accelerator: string, callback: () => void): boolean; unregisterAll(): void };
  utilityProcess: {
    fork(
      modulePath: string,
      args: string[],
      options: { serviceName: string; stdio: 'inherit'; env: NodeJS.ProcessEnv },
    ): UtilityProcessLike;
  };
}

export interface FileAccess {
  readFile(file: string): string | undefined;
  writeFile(file: string, text: string): void;
}

export interface ShellOptions {
  /** dist/ of the app: dist/renderer, dist/preload/preload.cjs, dist/main/electron/runtime-host-main.js. */
  distDir: string;
  /** Runtime options for the utility process (from the command line: --provider, --mock-file, --platform). */
  runtime: RuntimeOptions;
  files: FileAccess;
  log?: (message: string) => void;
}

export function parseShellArgs(argv: readonly string[]): { runtime: RuntimeOptions; shortcut?: string } {
  const flags: RuntimeFlags = {};
  let shortcut: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => argv[++i];
    if (arg === '--provider') flags.provider = [...(flags.provider ?? []), value() ?? ''];
    else if (arg === '--mock-file') flags.mockFile = value() ?? '';
    else if (arg === '--mock-max-depth') flags.mockMaxDepth = Number(value());
    else if (arg === '--platform') flags.platform = value() ?? '';
    else if (arg === '--pick-shortcut') shortcut = value() ?? '';
  }
  return { runtime: runtimeOptionsFrom(flags), ...(shortcut !== undefined ? { shortcut } : {}) };
}

/** The runtime process's environment: picking must never select the inspector's own windows (owned by this process). */
export function runtimeEnv(env: NodeJS.ProcessEnv, mainPid: number): NodeJS.ProcessEnv {
  const excluded = (env.PLATYNUI_EXCLUDE_PIDS ?? '').split(',').filter((part) => part.trim() !== '');
  return { ...env, PLATYNUI_EXCLUDE_PIDS: [...excluded, String(mainPid)].join(',') };
}

/** Resolves a request for platynui://inspector/<path> to a file inside the renderer directory, or undefined. */
export function rendererFile(rendererDir: string, url: string): string | undefined {
  if (!isAppUrl(url)) return undefined;
  const pathname = decodeURIComponent(new URL(url).pathname);
  const file = path.resolve(rendererDir, pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, ''));
  return file.startsWith(rendererDir + path.sep) ? file : undefined;
}

export interface Shell {
  readonly window: BrowserWindowLike | undefined;
  readonly host: UtilityProcessLike | undefined;
  /** Messages that were refused because they did not come from the app's own frame. */
  readonly refused: number;
  /** Highlight outline windows on screen (only where the platform has no native highlight). */
  readonly overlays: number;
}

/** Wires the app: call before `ready`. Returns undefined when another instance already runs (it gets focused). */
export function startShell(electron: ElectronLike, options: ShellOptions & { shortcut?: string }): Shell | undefined {
  const { app } = electron;
  const log = options.log ?? (() => undefined);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }
  app.enableSandbox();
  electron.protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

  const rendererDir = path.join(options.distDir, 'renderer');
  const stateFile = path.join(app.getPath('userData'), 'window-state.json');
  const state: {
    window: BrowserWindowLike | undefined;
    host: UtilityProcessLike | undefined;
    refused: number;
    overlays: BrowserWindowLike[];
    overlayTimer: ReturnType<typeof setTimeout> | undefined;
  } = { window: undefined, host: undefined, refused: 0, overlays: [], overlayTimer: undefined };

  const clearOverlays = () => {
    if (state.overlayTimer) clearTimeout(state.overlayTimer);
    state.overlayTimer = undefined;
    for (const overlay of state.overlays.splice(0)) if (!overlay.isDestroyed()) overlay.close();
  };
  const showOverlays = (request: {
    rects: Array<{ x: number; y: number; width: number; height: number }>;
    durationMs?: number;
  }) => {
    clearOverlays();
    for (const rect of request.rects.slice(0, MAX_OVERLAYS)) {
      const overlay = new electron.BrowserWindow(overlayWindowOptions(rect));
      overlay.setIgnoreMouseEvents(true);
      state.overlays.push(overlay);
      void overlay.loadURL(OVERLAY_PAGE).then(() => {
        if (!overlay.isDestroyed()) overlay.showInactive();
      });
    }
    if (request.durationMs) state.overlayTimer = setTimeout(clearOverlays, request.durationMs);
  };

  const readState = (): WindowState => {
    const text = options.files.readFile(stateFile);
    try {
      return parseWindowState(text ? JSON.parse(text) : undefined);
    } catch {
      return parseWindowState(undefined);
    }
  };
  const saveState = () => {
    const window = state.window;
    if (!window || window.isDestroyed()) return;
    const bounds = window.getNormalBounds();
    const next: WindowState = { ...bounds, maximized: window.isMaximized() };
    try {
      options.files.writeFile(stateFile, `${JSON.stringify(next)}\n`);
    } catch (error) {
      log(`window state not saved: ${String(error)}`);
    }
  };

  app.on('second-instance', () => {
    const window = state.window;
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  // Every web contents (the window, and any the page might try to create): no navigation away, no new windows,
  // no webviews.
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });

  /** Only the app's own main frame, showing the app's own page, may talk to the runtime. */
  const trusted = (event: IpcEventLike): boolean => {
    const window = state.window;
    return (
      !!window &&
      event.sender === window.webContents &&
      event.senderFrame !== null &&
      event.senderFrame === window.webContents.mainFrame &&
      isAppUrl(event.senderFrame.url)
    );
  };

  electron.ipcMain.on(API_CHANNEL, (event, message) => {
    if (!trusted(event)) {
      state.refused++;
      log(`refused an IPC message from ${event.senderFrame?.url ?? 'an unknown frame'}`);
      return;
    }
    state.host?.postMessage({ type: 'message', connection: event.sender.id, message });
  });

  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => {
    electron.globalShortcut.unregisterAll();
    clearOverlays();
    state.host?.postMessage({ type: 'shutdown' });
  });

  void app.whenReady().then(async () => {
    const session = electron.session.defaultSession;
    session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.setPermissionCheckHandler(() => false);
    session.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...(details.responseHeaders ?? {}), 'Content-Security-Policy': [SHELL_CSP] } });
    });
    electron.protocol.handle(APP_SCHEME, async (request) => {
      const file = rendererFile(rendererDir, request.url);
      if (!file) return new Response('not found', { status: 404 });
      let response: Response;
      try {
        response = await electron.net.fetch(pathToFileURL(file).toString());
      } catch {
        return new Response('not found', { status: 404 });
      }
      if (!response.ok) return new Response('not found', { status: 404 });
      const headers = new Headers(response.headers);
      headers.set('Content-Security-Policy', SHELL_CSP);
      headers.set('X-Content-Type-Options', 'nosniff');
      return new Response(response.body, { status: response.status, headers });
    });

    const host = electron.utilityProcess.fork(
      path.join(options.distDir, 'main/electron/runtime-host-main.js'),
      [JSON.stringify({ runtime: options.runtime })],
      { serviceName: 'PlatynUI Inspector runtime', stdio: 'inherit', env: runtimeEnv(process.env, process.pid) },
    );
    state.host = host;
    host.on('exit', (code) => {
      if (state.host === host) state.host = undefined;
      log(`runtime process exited with ${code}`);
    });

    const saved = readState();
    const window = new electron.BrowserWindow(
      mainWindowOptions(path.join(options.distDir, 'preload/preload.cjs'), saved),
    );
    state.window = window;
    const connection = window.webContents.id;
    host.on('message', (raw) => {
      const data = raw as {
        type?: string;
        connection?: number;
        message?: unknown;
        error?: string;
        request?: { rects: Array<{ x: number; y: number; width: number; height: number }>; durationMs?: number } | null;
      };
      if (data.type === 'highlight') {
        if (data.request) showOverlays(data.request);
        else clearOverlays();
        return;
      }
      if (data.type === 'message' && data.connection === connection && !window.webContents.isDestroyed()) {
        window.webContents.send(API_CHANNEL, data.message);
      } else if (data.type === 'failed') {
        log(`the runtime could not start: ${data.error}`);
      }
    });
    host.postMessage({ type: 'open', connection });
    window.once('ready-to-show', () => {
      if (saved.maximized) window.maximize();
      window.show();
    });
    window.on('resize', saveState);
    window.on('move', saveState);
    window.on('close', saveState);
    window.on('closed', () => {
      host.postMessage({ type: 'close', connection });
      state.window = undefined;
    });

    const accelerator = options.shortcut || DEFAULT_PICK_SHORTCUT;
    const registered = electron.globalShortcut.register(accelerator, () =>
      host.postMessage({ type: 'shortcut', connection }),
    );
    if (!registered) log(`the pick shortcut ${accelerator} is taken by another application`);

    await window.loadURL(APP_ENTRY);
  });

  return {
    get window() {
      return state.window;
    },
    get host() {
      return state.host;
    },
    get refused() {
      return state.refused;
    },
    get overlays() {
      return state.overlays.length;
    },
  };
}
