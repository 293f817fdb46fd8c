import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The X desktop the X11 desktop tests run on: the session `npm test` started (DISPLAY is set), or, when the tests
 * are run alone, an Xvfb with openbox of their own on a free display, stopped again by PID.
 */
export interface TestDesktop {
  env: NodeJS.ProcessEnv;
  display: string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` every 20 ms until it gives a value; fails the test naming `what` after `timeoutMs`. */
export async function until<T>(read: () => T | undefined, what: string, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function hasWindowManager(env: NodeJS.ProcessEnv): boolean {
  const result = spawnSync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], { env, encoding: 'utf8' });
  return result.status === 0 && /window id/.test(result.stdout);
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([once(child, 'exit'), new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
  clearTimeout(timer);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

interface DesktopSession {
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** The project root (the tests run from dist/main/platform/x11/test/support). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../..');

export async function useDesktop(): Promise<TestDesktop> {
  if (process.env.DISPLAY) {
    const env = { ...process.env };
    let wm: ChildProcess | undefined;
    if (!hasWindowManager(env)) {
      wm = spawn('openbox', [], { env, stdio: 'ignore' });
      for (let i = 0; i < 100 && !hasWindowManager(env); i++) await sleep(50);
    }
    return { env, display: env.DISPLAY!, stop: () => stopChild(wm) };
  }
  // Run alone: the project's own session (Xvfb, D-Bus, AT-SPI, openbox), stopped by PID afterwards.
  const modulePath = path.join(projectRoot, 'scripts/desktop/session.mjs');
  const { startDesktopSession } = (await import(modulePath)) as {
    startDesktopSession(options: { screen?: string; handleSignals?: boolean }): Promise<DesktopSession>;
  };
  const session = await startDesktopSession({ screen: '1280x800x24', handleSignals: false });
  // Providers read the session from this process's environment, as they do under `npm test`.
  const saved = new Map<string, string | undefined>();
  for (const name of [
    'DISPLAY',
    'XAUTHORITY',
    'DBUS_SESSION_BUS_ADDRESS',
    'XDG_SESSION_TYPE',
    'XDG_RUNTIME_DIR',
    'AT_SPI_BUS_ADDRESS',
  ]) {
    saved.set(name, process.env[name]);
    if (session.env[name] === undefined) delete process.env[name];
    else process.env[name] = session.env[name];
  }
  return {
    env: session.env,
    display: session.env.DISPLAY!,
    async stop() {
      await session.stop();
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ProbeEvent {
  event: string;
  text?: string;
  active?: boolean;
  xid?: number;
  window?: Rect;
  entry?: Rect;
  check?: Rect;
  label?: Rect;
  /** "press": the button press kind GTK made of it (button-press, 2button-press, 3button-press). */
  kind?: string;
  /** "settings": GTK's gtk-double-click-time and gtk-double-click-distance. */
  time?: number;
  distance?: number;
}

/** The probe app's source (tests run from dist/, the script stays in the source tree). */
export const probeScript = path.join(projectRoot, 'main/platform/x11/test/support/probe-app.py');

/** The GTK 3 probe window: an entry, a check box and a label, reporting its state as JSON lines. */
export class ProbeApp {
  readonly events: ProbeEvent[] = [];
  readonly child: ChildProcess;
  private waiters: Array<() => void> = [];

  private constructor(child: ChildProcess) {
    this.child = child;
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        try {
          this.events.push(JSON.parse(line) as ProbeEvent);
        } catch {
          continue;
        }
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
  }

  /** With `accessible`, the app registers on the AT-SPI bus; otherwise it stays off it (faster, quieter). */
  static async start(env: NodeJS.ProcessEnv, title: string, x = 100, y = 100, accessible = false): Promise<ProbeApp> {
    const child = spawn('/usr/bin/python3', [probeScript, title, String(x), String(y)], {
      env: { ...env, GTK_THEME: 'Adwaita', ...(accessible ? {} : { NO_AT_BRIDGE: '1' }) },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const app = new ProbeApp(child);
    await app.waitFor((e) => e.event === 'ready', 10000);
    return app;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get ready(): ProbeEvent {
    return this.events.find((e) => e.event === 'ready')!;
  }

  last(kind: string): ProbeEvent | undefined {
    return this.events.filter((e) => e.event === kind).at(-1);
  }

  /** Waits for an event satisfying `match` (looking at those already received too). */
  async waitFor(match: (event: ProbeEvent) => boolean, timeoutMs = 3000): Promise<ProbeEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`probe app: no matching event; got ${JSON.stringify(this.events)}`);
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
  }

  /** Waits until `match` holds for the latest event of a kind. */
  async waitForLast(kind: string, match: (event: ProbeEvent) => boolean, timeoutMs = 3000): Promise<ProbeEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const latest = this.last(kind);
      if (latest && match(latest)) return latest;
      if (Date.now() >= deadline) throw new Error(`probe app: last ${kind} was ${JSON.stringify(latest)}`);
      await sleep(20);
    }
  }

  async bounds(): Promise<ProbeEvent> {
    return this.request('bounds');
  }

  /** GTK's double-click settings as the app sees them now. */
  async settings(): Promise<ProbeEvent> {
    return this.request('settings');
  }

  /** Sends a command line and waits for the event of the same name it answers with. */
  private async request(command: string): Promise<ProbeEvent> {
    const before = this.events.length;
    this.child.stdin!.write(`${command}\n`);
    return this.waitFor((e) => e.event === command && this.events.indexOf(e) >= before);
  }

  async stop(): Promise<void> {
    await stopChild(this.child);
  }
}

/** Runs an X utility and returns its stdout (binary for images). */
export function runTool(command: string, args: string[], env: NodeJS.ProcessEnv): Buffer {
  const result = spawnSync(command, args, { env, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr?.toString()}`);
  return result.stdout;
}

/** Window geometry as xwininfo sees it (client area, absolute). */
export function xwininfo(id: number, env: NodeJS.ProcessEnv): Rect {
  const text = runTool('xwininfo', ['-id', String(id)], env).toString();
  const read = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(text)![1]);
  return {
    x: read('Absolute upper-left X'),
    y: read('Absolute upper-left Y'),
    width: read('Width'),
    height: read('Height'),
  };
}

export { sleep };

/** A bare X server of the test's own (no window manager, no buses; -noreset, so its state outlives each client). */
export interface BareXServer {
  display: string;
  readonly child: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL) and waits until it has gone. */
  stop(): Promise<void>;
}

export async function startBareXServer(): Promise<BareXServer> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '640x480x24', '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not report its display in 10 s')), 10_000);
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(text.trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited with ${code} before reporting its display`));
    });
  });
  return { display: `:${number}`, child, stop: () => stopChild(child) };
}
