import '../../backends/mock.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runRuntimeHost, type HostCommand, type HostPort } from '../runtime-host.js';
import type {
  BrowserWindowLike,
  ElectronLike,
  IpcEventLike,
  SessionLike,
  UtilityProcessLike,
  WebContentsLike,
} from '../shell.js';

type Listener = (...args: never[]) => unknown;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  once(event: string, listener: Listener): void {
    this.on(event, listener);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => unknown)(...args);
  }
}

let nextContentsId = 1;

export class FakeWebContents extends Emitter implements WebContentsLike {
  readonly id = nextContentsId++;
  readonly mainFrame = { url: '' };
  readonly sent: Array<{ channel: string; message: unknown }> = [];
  openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  destroyed = false;
  send(channel: string, message: unknown): void {
    this.sent.push({ channel, message });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Returns true when a listener prevented the default. */
  fire(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url?: string): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

export class FakeBrowserWindow extends Emitter implements BrowserWindowLike {
  static created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loaded: string | undefined;
  shown = false;
  maximized = false;
  destroyed = false;
  bounds: { x: number; y: number; width: number; height: number };
  constructor(readonly options: { x?: number; y?: number; width: number; height: number; focusable?: boolean }) {
    super();
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width, height: options.height };
    FakeBrowserWindow.created.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loaded = url;
    this.webContents.mainFrame.url = url;
  }
  show(): void {
    this.shown = true;
  }
  ignoreMouse = false;
  closed = false;
  setIgnoreMouseEvents(ignore: boolean): void {
    this.ignoreMouse = ignore;
  }
  showInactive(): void {
    this.shown = true;
  }
  close(): void {
    this.closed = true;
    this.destroyed = true;
  }
  focus(): void {}
  restore(): void {}
  maximize(): void {
    this.maximized = true;
  }
  isMinimized(): boolean {
    return false;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
}

/** Runs the real runtime host in this process, as the utility process would. */
export class InProcessUtility extends Emitter implements UtilityProcessLike {
  readonly commands: HostCommand[] = [];
  private readonly portListeners: Array<(event: { data: unknown }) => void> = [];
  readonly stopped: Promise<void>;
  constructor(args: string[]) {
    super();
    const port: HostPort = {
      postMessage: (message) => this.emit('message', message),
      on: (_event, listener) => this.portListeners.push(listener),
    };
    const options = JSON.parse(args[0] ?? '{}') as Parameters<typeof runRuntimeHost>[1];
    this.stopped = runRuntimeHost(port, options).then((host) => host.stopped);
  }
  postMessage(message: HostCommand): void {
    this.commands.push(message);
    void this.stopped; // the host may still be starting: deliver once it listens
    queueMicrotask(() => this.deliver(message));
  }
  private deliver(message: HostCommand): void {
    if (this.portListeners.length === 0) {
      setTimeout(() => this.deliver(message), 10);
      return;
    }
    for (const listener of this.portListeners) listener({ data: message });
  }
  kill(): boolean {
    return true;
  }
}

export interface FakeElectron extends ElectronLike {
  readonly record: {
    lock: boolean;
    quit: number;
    sandboxEnabled: boolean;
    schemes: unknown[];
    protocolHandler: ((request: { url: string }) => Promise<Response> | Response) | undefined;
    permissionRequest: Parameters<SessionLike['setPermissionRequestHandler']>[0] | undefined;
    permissionCheck: (() => boolean) | undefined;
    headers: Parameters<SessionLike['webRequest']['onHeadersReceived']>[0] | undefined;
    shortcuts: Map<string, () => void>;
    ipc: Map<string, (event: IpcEventLike, message: unknown) => void>;
    forks: Array<{ modulePath: string; args: string[]; env: NodeJS.ProcessEnv; process: InProcessUtility }>;
  };
  readonly appEvents: Emitter;
  ready(): Promise<void>;
}

export function fakeElectron(options: { userData: string; lock?: boolean }): FakeElectron {
  let resolveReady: () => void = () => undefined;
  const whenReady = new Promise<void>((resolve) => (resolveReady = resolve));
  const appEvents = new Emitter();
  const record: FakeElectron['record'] = {
    lock: options.lock ?? true,
    quit: 0,
    sandboxEnabled: false,
    schemes: [],
    protocolHandler: undefined,
    permissionRequest: undefined,
    permissionCheck: undefined,
    headers: undefined,
    shortcuts: new Map(),
    ipc: new Map(),
    forks: [],
  };
  const fake: FakeElectron = {
    record,
    appEvents,
    ready: async () => {
      resolveReady();
      await whenReady;
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    app: {
      requestSingleInstanceLock: () => record.lock,
      quit: () => {
        record.quit++;
      },
      exit: () => undefined,
      whenReady: () => whenReady,
      getPath: () => options.userData,
      enableSandbox: () => {
        record.sandboxEnabled = true;
      },
      on: (event: string, listener: Listener) => appEvents.on(event, listener),
    },
    BrowserWindow: FakeBrowserWindow as unknown as ElectronLike['BrowserWindow'],
    ipcMain: { on: (channel, listener) => record.ipc.set(channel, listener) },
    protocol: {
      registerSchemesAsPrivileged: (schemes) => record.schemes.push(...schemes),
      handle: (_scheme, handler) => {
        record.protocolHandler = handler;
      },
    },
    net: {
      fetch: async (url) =>
        new Response(readFileSync(fileURLToPath(url)), { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler) => {
          record.permissionRequest = handler;
        },
        setPermissionCheckHandler: (handler) => {
          record.permissionCheck = handler;
        },
        webRequest: {
          onHeadersReceived: (listener) => {
            record.headers = listener;
          },
        },
      },
    },
    globalShortcut: {
      register: (accelerator, callback) => {
        record.shortcuts.set(accelerator, callback);
        return true;
      },
      unregisterAll: () => record.shortcuts.clear(),
    },
    utilityProcess: {
      fork: (modulePath, args, forkOptions) => {
        const child = new InProcessUtility(args);
        record.forks.push({ modulePath, args, env: forkOptions.env, process: child });
        return child;
      },
    },
  };
  return fake;
}
