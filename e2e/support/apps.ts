// Launch real applications inside a desktop session and wait until they are registered on the AT-SPI registry.
//
//   const app = await launchGtk3Demo(process.env);
//   const page = await launchChromium(process.env, fixtureUrl('controls.html'), { title: CONTROLS_READY_TITLE });
//   ... app.busName / app.path address the application root on the accessibility bus ...
//   await page.stop();
//
// Every launched process runs in its own process group and carries a private environment marker, so stop() finds and
// ends its whole family (Chromium's zygotes, renderers and crash handler included) by PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessageBus } from 'dbus-next';
import {
  call,
  connectA11yBus,
  connectionPid,
  getChildren,
  getName,
  getProperty,
  REGISTRY_BUS_NAME,
  ROOT_PATH,
  type ObjectRef,
} from './atspi-bus.js';
import { descendantsOf, isAlive, processesWithEnv, terminate } from './processes.js';
import { projectRoot } from './paths.js';

export const APP_MARKER = 'PLATYNUI_TEST_APP';

export { CONTROLS_READY_TITLE, FIXTURE_PASSWORD, TABLE_READY_TITLE, tableReadyTitle } from './fixtures.js';

export interface LaunchedApp {
  /** PID of the launched process; the same PID the application registered with on the accessibility bus. */
  readonly pid: number;
  /** The application's unique name on the accessibility bus. */
  readonly busName: string;
  /** Object path of the application's root accessible. */
  readonly path: string;
  /** The application's accessible name (e.g. "gtk3-demo", "Chromium"). */
  readonly name: string;
  /** Milliseconds from spawn until registered (and ready, as far as the launcher waits). */
  readonly startupMs: number;
  /** Temporary directory owned by the app (Chromium's profile), removed by stop(). */
  readonly tempDir: string | undefined;
  alive(): boolean;
  /** Freezes the application (SIGSTOP to the launched process): it stops answering D-Bus, as a hung app would. */
  pause(): void;
  /** Lets a paused application run again (SIGCONT). */
  resume(): void;
  /** PIDs of the application's live processes: the launched one, its descendants and strays carrying its marker. */
  processes(): number[];
  /** Ends the application and all its processes, removes its temporary files. Safe to call twice. */
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** How long to wait for registration (default 30 s). */
  timeoutMs?: number;
  /** Extra command-line arguments. */
  args?: string[];
  /** Extra environment variables. */
  env?: NodeJS.ProcessEnv;
}

export interface ChromiumOptions extends LaunchOptions {
  /** Wait until a top-level frame's accessible name contains this (fixtures set a "ready" title when loaded). */
  title?: string;
  /**
   * Also wait until the page's "document web" node is exposed with children (default true). This walks the browser's
   * own UI (a few hundred nodes) to find the document, never the page's content: the page stays cold.
   */
  waitForDocument?: boolean;
  /** Window size (default 1280x900). */
  windowSize?: { width: number; height: number };
}

const launched = new Set<{ killNow(): void }>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const app of launched) app.killNow();
  });
}

function signalQuietly(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** file:// URL of a page in e2e/fixtures, with optional query parameters (e.g. { rows: 500 }). */
export function fixtureUrl(name: string, params: Record<string, string | number> = {}): string {
  const file = path.join(projectRoot(), 'e2e', 'fixtures', name);
  if (!existsSync(file)) throw new Error(`no such fixture: ${file}`);
  const url = pathToFileURL(file);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  return url.href;
}

/** The Chromium executable (Debian's wrapper execs the browser, so the PID stays the same). */
export function chromiumExecutable(): string {
  for (const p of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium']) {
    if (existsSync(p)) return p;
  }
  throw new Error('Chromium is not installed (Debian package "chromium")');
}

/**
 * The environment of the desktop session this test process runs in (npm test starts one and passes DISPLAY,
 * DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR ...). Throws a clear error when run outside a session.
 */
export function sessionEnv(): NodeJS.ProcessEnv {
  requireSessionEnv(process.env);
  return process.env;
}

function requireSessionEnv(env: NodeJS.ProcessEnv): void {
  if (!env.DISPLAY || !env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error(
      'DISPLAY and DBUS_SESSION_BUS_ADDRESS must be set: run inside the desktop session ' +
        '(npm test, or platynui-inspector virtual-desktop -- <command>)',
    );
  }
}

export interface ReadyCheck {
  (bus: MessageBus, app: ObjectRef): Promise<boolean>;
}

/**
 * Waits until a process with `pid` is registered on the AT-SPI registry and `ready` says yes.
 * Polls the registry root's children (PIDs cached per bus name) every 50 ms.
 */
export async function waitForRegistration(
  env: NodeJS.ProcessEnv,
  pid: number,
  options: { timeoutMs?: number; ready?: ReadyCheck; isAlive?: () => boolean; describe?: () => string } = {},
): Promise<{ busName: string; path: string; name: string }> {
  const { timeoutMs = 30000, ready = async () => true } = options;
  const deadline = Date.now() + timeoutMs;
  const bus = await connectA11yBus(env);
  const pids = new Map<string, number>();
  let lastError: unknown;
  let registered = false;
  try {
    while (Date.now() < deadline) {
      if (options.isAlive && !options.isAlive()) {
        throw new Error(
          `process ${pid} exited before it registered${options.describe ? ': ' + options.describe() : ''}`,
        );
      }
      try {
        const apps = await getChildren(bus, { busName: REGISTRY_BUS_NAME, path: ROOT_PATH }, 2000);
        // PIDs of new registrations, in parallel; a failed lookup is retried on the next round.
        await Promise.all(
          apps
            .filter((app) => !pids.has(app.busName))
            .map((app) =>
              connectionPid(bus, app.busName, 1000).then(
                (p) => pids.set(app.busName, p),
                () => undefined,
              ),
            ),
        );
        for (const app of apps) {
          if (pids.get(app.busName) !== pid) continue;
          registered = true;
          if (await ready(bus, app)) return { ...app, name: await getName(bus, app) };
        }
      } catch (err) {
        lastError = err;
      }
      await sleep(50);
    }
    const why = registered ? 'registered but never became ready' : 'never registered on the AT-SPI registry';
    throw new Error(
      `process ${pid} ${why} within ${timeoutMs} ms` +
        (lastError instanceof Error ? ` (last error: ${lastError.message})` : '') +
        (options.describe ? `: ${options.describe()}` : ''),
    );
  } finally {
    bus.disconnect();
  }
}

function tail(child: ChildProcess): () => string {
  let text = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    text = (text + d).slice(-3000);
  });
  return () => text.trim();
}

async function launch(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: LaunchOptions & { tempDir?: string; ready?: ReadyCheck },
): Promise<LaunchedApp> {
  requireSessionEnv(env);
  installExitHook();
  const marker = randomUUID();
  const t0 = performance.now();
  const child = spawn(command, args, {
    env: { ...env, ...options.env, [APP_MARKER]: marker },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const stderr = tail(child);
  // A leaked app must not keep the test process alive; the exit hook kills it when the process ends.
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  let exited = false;
  child.once('exit', () => (exited = true));
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (err) => reject(new Error(`could not start ${command}: ${err.message}`))),
  );
  spawnError.catch(() => {});
  const pid = child.pid;

  const family = (): number[] => {
    if (pid === undefined) return [];
    return [pid, ...descendantsOf([pid]), ...processesWithEnv(APP_MARKER, marker)];
  };
  const cleanupFiles = () => {
    if (options.tempDir) rmSync(options.tempDir, { recursive: true, force: true });
  };
  const handle = {
    killNow() {
      for (const p of family()) signalQuietly(p, 'SIGKILL');
      cleanupFiles();
    },
  };
  launched.add(handle);
  let stopPromise: Promise<void> | undefined;
  const stop = () =>
    (stopPromise ??= (async () => {
      launched.delete(handle);
      if (pid !== undefined) {
        // A paused process would hold SIGTERM pending forever.
        for (const p of family()) signalQuietly(p, 'SIGCONT');
        try {
          process.kill(-pid, 'SIGTERM'); // the whole process group
        } catch {
          // group gone
        }
        await terminate(family(), 3000);
        // Processes that daemonized away (e.g. a crash handler) still carry the marker.
        await terminate(processesWithEnv(APP_MARKER, marker), 1000);
      }
      cleanupFiles();
    })());

  try {
    if (pid === undefined) await spawnError;
    const reg = await Promise.race([
      waitForRegistration(env, pid as number, {
        timeoutMs: options.timeoutMs,
        ready: options.ready,
        isAlive: () => !exited,
        describe: () => `${name} stderr: ${stderr().slice(-1500) || '(empty)'}`,
      }),
      spawnError,
    ]);
    const startupMs = Math.round(performance.now() - t0);
    return {
      pid: pid as number,
      busName: reg.busName,
      path: reg.path,
      name: reg.name,
      startupMs,
      tempDir: options.tempDir,
      alive: () => !exited && isAlive(pid as number),
      pause: () => signalQuietly(pid as number, 'SIGSTOP'),
      resume: () => signalQuietly(pid as number, 'SIGCONT'),
      processes: () => [...new Set(family())].filter(isAlive),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

const ROLE_DOCUMENT_WEB = 95;

/**
 * The "document web" nodes under `root`, found breadth-first with pipelined calls, never descending into a document
 * (so a page's own accessible objects are not created). Gives up after `limit` nodes.
 */
export async function findDocuments(bus: MessageBus, root: ObjectRef, limit = 3000): Promise<ObjectRef[]> {
  const found: ObjectRef[] = [];
  let level: ObjectRef[] = [root];
  let seen = 0;
  while (level.length && seen < limit) {
    seen += level.length;
    const roles = await Promise.all(
      level.map((ref) =>
        call(bus, {
          destination: ref.busName,
          path: ref.path,
          interface: 'org.a11y.atspi.Accessible',
          member: 'GetRole',
        })
          .then(([r]) => Number(r))
          .catch(() => -1),
      ),
    );
    const descend = level.filter((ref, i) => {
      if (roles[i] === ROLE_DOCUMENT_WEB) found.push(ref);
      return roles[i] !== ROLE_DOCUMENT_WEB && roles[i] !== -1;
    });
    const children = await Promise.all(descend.map((ref) => getChildren(bus, ref).catch(() => [])));
    level = children.flat();
  }
  return found;
}

/** At least one child (a window) under the application root. */
const hasWindow: ReadyCheck = async (bus, app) =>
  Number(await getProperty(bus, app, 'org.a11y.atspi.Accessible', 'ChildCount')) > 0;

/**
 * Starts a small GTK application of e2e/fixtures written in Python (python3-gi; GTK 3 or 4 as the script chooses)
 * and waits until its window is registered.
 */
export async function launchPythonGtkApp(
  script: string,
  env: NodeJS.ProcessEnv,
  options: LaunchOptions = {},
): Promise<LaunchedApp> {
  const file = path.join(projectRoot(), 'e2e/fixtures', script);
  return launch(script, '/usr/bin/python3', [file, ...(options.args ?? [])], env, { ...options, ready: hasWindow });
}

/** Starts gtk3-demo (Debian's gtk-3-examples) and waits until its main window is registered. */
export async function launchGtk3Demo(env: NodeJS.ProcessEnv, options: LaunchOptions = {}): Promise<LaunchedApp> {
  return launch('gtk3-demo', 'gtk3-demo', options.args ?? [], env, { ...options, ready: hasWindow });
}

/** The command-line flags launchChromium uses (NOT headless: a real window on the session's X display). */
export function chromiumArgs(userDataDir: string, url: string, options: ChromiumOptions = {}): string[] {
  const size = options.windowSize ?? { width: 1280, height: 900 };
  return [
    '--force-renderer-accessibility',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${userDataDir}`,
    '--ozone-platform=x11',
    '--password-store=basic',
    '--no-default-browser-check',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-features=Translate,MediaRouter,OptimizationHints',
    '--disable-session-crashed-bubble',
    `--window-size=${size.width},${size.height}`,
    '--window-position=0,0',
    ...(options.args ?? []),
    url,
  ];
}

/**
 * Starts Chromium with accessibility forced on, showing `url` in a real window, and waits until it is registered on
 * the AT-SPI registry with a top-level frame (whose name contains `options.title` when given). A fresh profile
 * directory is used and removed by stop(). The accessible tree of the page is not walked here (cold stays cold).
 */
export async function launchChromium(
  env: NodeJS.ProcessEnv,
  url: string,
  options: ChromiumOptions = {},
): Promise<LaunchedApp> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'platynui-chromium-'));
  const title = options.title;
  const ready: ReadyCheck = async (bus, app) => {
    const frames = await getChildren(bus, app, 2000);
    if (frames.length === 0) return false;
    if (title !== undefined) {
      const names = await Promise.all(frames.map((f) => getName(bus, f, 2000).catch(() => '')));
      if (!names.some((n) => n.includes(title))) return false;
    }
    if (options.waitForDocument === false) return true;
    const docs = await findDocuments(bus, app);
    for (const doc of docs) {
      const [name, count] = await Promise.all([
        getName(bus, doc),
        getProperty(bus, doc, 'org.a11y.atspi.Accessible', 'ChildCount').then(Number),
      ]);
      if (count > 0 && (title === undefined || name.includes(title))) return true;
    }
    return false;
  };
  return launch('chromium', chromiumExecutable(), chromiumArgs(userDataDir, url, options), env, {
    ...options,
    tempDir: userDataDir,
    ready,
  });
}
