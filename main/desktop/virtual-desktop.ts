/**
 * A private virtual accessible desktop (Linux): Xvfb (its display number chosen by the server through -displayfd, so
 * parallel desktops never collide; no TCP; a fresh MIT-MAGIC-COOKIE-1 in a 0600 file, so no other local user can
 * connect or inject input), a private D-Bus session bus, AT-SPI switched on (org.a11y.Status.IsEnabled) with its
 * registry awake, and openbox as the window manager. Applications launched into it are tracked too.
 *
 * Every process is started here, tracked by PID and an environment marker, and stopped here. Should this process die
 * without stopping the desktop (even by SIGKILL), two things still end it: each process is started through
 * `setpriv --pdeathsig`, and a small sentinel shell, detached in its own process group, holds the read end of a pipe
 * from this process; when the pipe closes it kills every process carrying the desktop's marker and removes its files.
 */
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { descendantsOf, isAlive, processesWithEnv, sendSignal, terminate } from './processes.js';
import { X11Probe } from './x11-probe.js';

/** Environment variable carried by every process of a desktop (how strays are found). */
export const DESKTOP_MARKER = 'PLATYNUI_DESKTOP_SESSION';

export interface ScreenSize {
  width: number;
  height: number;
}

export const DEFAULT_SCREEN: ScreenSize = { width: 1920, height: 1080 };
const MIN_SIDE = 64;
/** 8192 x 8192 x 4 bytes is a 256 MiB frame buffer: the most one desktop may take. */
const MAX_SIDE = 8192;

/** Parses `WxH` (`1280x800`); throws a message naming the value and the limits. */
export function parseScreenSize(text: string): ScreenSize {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(text.trim());
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) {
    throw new RangeError(
      `--size must be WIDTHxHEIGHT with each side from ${MIN_SIDE} to ${MAX_SIDE}, e.g. 1280x800; got "${text}"`,
    );
  }
  return { width, height };
}

/** Variables of the surrounding session that must not leak into the desktop's processes. */
const SCRUBBED_ENV = [
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SESSION_BUS_PID',
  'DBUS_SESSION_BUS_WINDOWID',
  'AT_SPI_BUS_ADDRESS',
  'NO_AT_BRIDGE',
  'SESSION_MANAGER',
  DESKTOP_MARKER,
];

/** The variables that point a process at a desktop (what `serve --virtual-desktop` adopts for itself). */
export const DESKTOP_ENV_NAMES = [
  'DISPLAY',
  'XAUTHORITY',
  'DBUS_SESSION_BUS_ADDRESS',
  'XDG_SESSION_TYPE',
  'GDK_BACKEND',
  'WAYLAND_DISPLAY',
  'AT_SPI_BUS_ADDRESS',
] as const;

// $1: marker value, $2: the desktop's directory. `read` returns when the pipe from the owner closes (its exit).
// Two passes: a process started (by D-Bus activation) while the first pass ran is caught by the second.
const SENTINEL_SCRIPT = `
while read -r _; do :; done
for pass in 1 2; do
  for f in /proc/[0-9]*/environ; do
    if grep -qzxF "${DESKTOP_MARKER}=$1" "$f" 2>/dev/null; then
      p=\${f#/proc/}; p=\${p%/environ}
      kill -CONT "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null
    fi
  done
  sleep 0.2
done
rm -rf "$2"
`;

const SETPRIV = '/usr/bin/setpriv';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class VirtualDesktopError extends Error {
  override readonly name = 'VirtualDesktopError';
}

export interface VirtualDesktopOptions {
  size?: ScreenSize;
  /** Start openbox (default true). */
  windowManager?: boolean;
  /** Overall start-up limit (default 20 s). */
  timeoutMs?: number;
  /** Progress messages (default: none). */
  log?: (message: string) => void;
}

export interface DesktopProcess {
  name: string;
  pid: number;
}

/** An application started in the desktop: its shell command, watched from launch. */
export interface LaunchedApplication {
  readonly command: string;
  readonly pid: number;
  /** Resolves when the process exits: its code or the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Resolves with a message when the application failed to start: it could not be spawned, or it exited with a
   * non-zero status within `startGraceMs` of its launch. Never resolves for an application that started.
   */
  readonly failed: Promise<string>;
  /** The last lines it wrote to stderr (for messages). */
  output(): string;
}

export interface LaunchOptions {
  /** How long after launch a non-zero exit counts as "failed to start" (default 2000 ms). */
  startGraceMs?: number;
  /** Where the application's stdout and stderr go (default: this process's stderr). */
  output?: NodeJS.WritableStream | 'ignore';
}

interface Tracked {
  name: string;
  child: ChildProcess;
  exited: boolean;
}

function tail(stream: Readable | null | undefined, forward?: NodeJS.WritableStream, max = 4000): () => string {
  let text = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (data: string) => {
    text = (text + data).slice(-max);
    forward?.write(data);
  });
  return () => text;
}

function firstLine(
  stream: Readable,
  what: string,
  child: ChildProcess,
  stderr: () => string,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    const timer = setTimeout(() => finish(new Error(`${what} did not report within ${timeoutMs} ms`)), timeoutMs);
    const onExit = (code: number | null, signal: string | null) =>
      finish(new Error(`${what} exited early (${signal ?? code}): ${stderr().trim().slice(-1500)}`));
    const onData = (chunk: string) => {
      data += chunk;
      const newline = data.indexOf('\n');
      if (newline >= 0) finish(undefined, data.slice(0, newline).trim());
    };
    function finish(error: Error | undefined, value = '') {
      clearTimeout(timer);
      child.removeListener('exit', onExit);
      stream.removeListener('data', onData);
      if (error) reject(error);
      else resolve(value);
    }
    stream.setEncoding('utf8');
    stream.on('data', onData);
    child.once('exit', onExit);
  });
}

/** A running virtual desktop; made by startVirtualDesktop. */
export class VirtualDesktop {
  readonly id = randomUUID();
  /** `:N` once Xvfb reported its display. */
  display = '';
  displayNumber = -1;
  /** The environment for processes in the desktop (DISPLAY, XAUTHORITY, DBUS_SESSION_BUS_ADDRESS, the marker). */
  readonly env: NodeJS.ProcessEnv;
  /** The desktop's private directory (0700): the cookie, the bus socket, XDG_RUNTIME_DIR. */
  readonly dir: string;
  readonly xauthority: string;
  readonly timings: Record<string, number> = {};
  startupMs = 0;

  private readonly cookie = randomBytes(16);
  private readonly tracked: Tracked[] = [];
  private readonly apps: Tracked[] = [];
  private readonly sentinel: ChildProcess;
  private stopping: Promise<{ killedHard: number[] }> | undefined;
  private readonly onExit = () => this.killNow();
  private stopped = false;

  /** Use startVirtualDesktop. */
  constructor(readonly size: ScreenSize) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'platynui-desktop-'));
    const runtimeDir = path.join(this.dir, 'runtime');
    mkdirSync(runtimeDir, { mode: 0o700 });
    this.xauthority = path.join(this.dir, 'xauthority');
    const base = { ...process.env };
    for (const name of SCRUBBED_ENV) delete base[name];
    this.env = {
      ...base,
      XAUTHORITY: this.xauthority,
      XDG_RUNTIME_DIR: runtimeDir,
      XDG_SESSION_TYPE: 'x11',
      GDK_BACKEND: 'x11',
      [DESKTOP_MARKER]: this.id,
    };
    this.sentinel = spawn('/bin/sh', ['-c', SENTINEL_SCRIPT, 'platynui-desktop-sentinel', this.id, this.dir], {
      env: base,
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    this.sentinel.on('error', () => undefined);
    this.sentinel.stdin?.on('error', () => undefined);
    this.sentinel.unref();
    (this.sentinel.stdin as unknown as { unref?(): void } | null)?.unref?.();
    process.on('exit', this.onExit);
  }

  /** The processes the desktop started itself (Xvfb, dbus-daemon, openbox) and the applications launched in it. */
  processes(): DesktopProcess[] {
    return [...this.tracked, ...this.apps].map((t) => ({ name: t.name, pid: t.child.pid ?? -1 }));
  }

  /** Every live process of the desktop: its own, theirs (the at-spi launcher, bus and registry), the applications. */
  allProcesses(): number[] {
    const own = this.processes().map((p) => p.pid);
    return [...new Set([...own.filter(isAlive), ...descendantsOf(own), ...processesWithEnv(DESKTOP_MARKER, this.id)])];
  }

  /** Starts a process in the desktop, tied to this process's life by PR_SET_PDEATHSIG where setpriv exists. */
  spawnTied(command: string, args: readonly string[], stdio: StdioOptions, env = this.env): ChildProcess {
    const [file, argv] = existsSync(SETPRIV)
      ? [SETPRIV, ['--pdeathsig', 'SIGTERM', '--', command, ...args]]
      : [command, [...args]];
    return spawn(file, argv, { env, stdio, detached: true });
  }

  private start(name: string, command: string, args: string[], stdio: StdioOptions): Tracked {
    const child = this.spawnTied(command, args, stdio);
    const entry: Tracked = { name, child, exited: false };
    child.once('exit', () => (entry.exited = true));
    child.once('error', () => (entry.exited = true));
    this.tracked.push(entry);
    if (child.pid === undefined) throw new VirtualDesktopError(`could not start ${command}`);
    return entry;
  }

  /** Writes the cookie (FamilyWild, any display number) with xauth into a 0600 file. */
  private writeCookie(): void {
    const name = Buffer.from('MIT-MAGIC-COOKIE-1', 'latin1');
    const hex4 = (n: number) => n.toString(16).padStart(4, '0');
    const entry = `ffff 0000 0000 ${hex4(name.length)} ${name.toString('hex')} ${hex4(16)} ${this.cookie.toString('hex')}\n`;
    const result = spawnSync('xauth', ['-q', '-f', this.xauthority, 'nmerge', '-'], {
      input: entry,
      encoding: 'utf8',
      timeout: 5000,
    });
    if (result.error || result.status !== 0) {
      throw new VirtualDesktopError(
        `xauth could not write the desktop's cookie: ${result.error?.message ?? result.stderr.trim()}`,
      );
    }
    chmodSync(this.xauthority, 0o600);
  }

  /** Starts everything; on failure everything started is stopped again and the error thrown. */
  async startUp(options: VirtualDesktopOptions): Promise<void> {
    const { windowManager = true, timeoutMs = 20_000, log = () => undefined } = options;
    const started = performance.now();
    const mark = (name: string, since: number) => (this.timings[name] = Math.round(performance.now() - since));
    const deadline = Date.now() + timeoutMs;
    const remaining = () => Math.max(100, deadline - Date.now());
    try {
      let t = performance.now();
      this.writeCookie();
      mark('cookieMs', t);

      // 1. The X server and the session bus, in parallel.
      t = performance.now();
      const screen = `${this.size.width}x${this.size.height}x24`;
      const xvfb = this.start(
        'Xvfb',
        'Xvfb',
        ['-displayfd', '3', '-screen', '0', screen, '-nolisten', 'tcp', '-auth', this.xauthority, '-noreset'],
        ['ignore', 'ignore', 'pipe', 'pipe'],
      );
      const xvfbErr = tail(xvfb.child.stderr);
      const busSocket = path.join(this.dir, 'bus');
      const daemon = this.start(
        'dbus-daemon',
        'dbus-daemon',
        ['--session', '--nofork', '--nopidfile', `--address=unix:path=${busSocket}`, '--print-address=3'],
        ['ignore', 'ignore', 'pipe', 'pipe'],
      );
      const daemonErr = tail(daemon.child.stderr);
      const [displayNumber, busAddress] = await Promise.all([
        firstLine(xvfb.child.stdio[3] as Readable, 'Xvfb', xvfb.child, xvfbErr, remaining()).then((n) => {
          mark('xvfbMs', t);
          return n;
        }),
        firstLine(daemon.child.stdio[3] as Readable, 'dbus-daemon', daemon.child, daemonErr, remaining()).then((a) => {
          mark('dbusMs', t);
          return a;
        }),
      ]);
      if (!/^\d+$/.test(displayNumber)) throw new VirtualDesktopError(`Xvfb reported an odd display: ${displayNumber}`);
      this.displayNumber = Number(displayNumber);
      this.display = `:${displayNumber}`;
      this.env.DISPLAY = this.display;
      this.env.DBUS_SESSION_BUS_ADDRESS = busAddress;
      log(`virtual desktop: Xvfb on ${this.display}, session bus ${busAddress}`);

      // 2. Accessibility on the session bus, and openbox, in parallel.
      t = performance.now();
      await Promise.all([
        this.switchAccessibilityOn(busAddress, deadline, remaining).then(() => mark('a11yMs', t)),
        windowManager ? this.startWindowManager(deadline, remaining).then(() => mark('openboxMs', t)) : undefined,
      ]);
      this.startupMs = Math.round(performance.now() - started);
      this.timings.totalMs = this.startupMs;
      log(`virtual desktop: ready in ${this.startupMs} ms ${JSON.stringify(this.timings)}`);
    } catch (error) {
      await this.stop();
      const text = error instanceof Error ? error.message : String(error);
      throw new VirtualDesktopError(`the virtual desktop could not start: ${text}`);
    }
  }

  private async switchAccessibilityOn(busAddress: string, deadline: number, remaining: () => number) {
    // Loaded here, not with the module: the CLI registers this command, and no other command should load dbus-next.
    const { DbusClient } = await import('../dbus/dbus-client.js');
    const bus = await DbusClient.connect(busAddress, { callTimeoutMs: 5000 });
    try {
      await bus.call({
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'UpdateActivationEnvironment',
        signature: 'a{ss}',
        body: [{ DISPLAY: this.display, XAUTHORITY: this.xauthority, GDK_BACKEND: 'x11' }],
      });
      const a11yAddress = await this.retry(deadline, 'the accessibility bus', async () => {
        await bus.setProperty('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Status', 'IsEnabled', 'b', true);
        const [address] = await bus.call({
          destination: 'org.a11y.Bus',
          path: '/org/a11y/bus',
          interface: 'org.a11y.Bus',
          member: 'GetAddress',
        });
        if (typeof address !== 'string' || !address) throw new Error('org.a11y.Bus gave no address');
        return address;
      });
      // Wake the registry now, so the first client does not pay for its activation.
      const a11y = await DbusClient.connect(a11yAddress, { callTimeoutMs: Math.min(5000, remaining()) });
      try {
        await this.retry(deadline, 'the AT-SPI registry', () =>
          a11y.call({
            destination: 'org.a11y.atspi.Registry',
            path: '/org/a11y/atspi/accessible/root',
            interface: 'org.a11y.atspi.Accessible',
            member: 'GetChildren',
          }),
        );
      } finally {
        a11y.close();
      }
    } finally {
      bus.close();
    }
  }

  private async startWindowManager(deadline: number, remaining: () => number): Promise<void> {
    const openbox = this.start('openbox', 'openbox', ['--sm-disable'], ['ignore', 'ignore', 'pipe']);
    const openboxErr = tail(openbox.child.stderr);
    const x = await X11Probe.connect(this.displayNumber, this.cookie, remaining());
    try {
      while (!this.stopped && Date.now() < deadline) {
        if (openbox.exited) throw new VirtualDesktopError(`openbox exited: ${openboxErr().trim().slice(-1500)}`);
        if ((await x.selectionOwner('WM_S0')) !== 0) return;
        await sleep(15);
      }
      throw new VirtualDesktopError('openbox did not take the WM_S0 selection in time');
    } finally {
      x.close();
    }
  }

  private async retry<T>(deadline: number, what: string, attempt: () => Promise<T>): Promise<T> {
    let last: unknown;
    while (!this.stopped && Date.now() < deadline) {
      try {
        return await attempt();
      } catch (error) {
        last = error;
        await sleep(25);
      }
    }
    const text = last instanceof Error ? last.message : this.stopped ? 'stopped' : 'no answer';
    throw new VirtualDesktopError(`${what} did not answer: ${text}`);
  }

  /** Starts `command` (a shell command line) in the desktop. */
  launch(command: string, options: LaunchOptions = {}): LaunchedApplication {
    if (this.stopped) throw new VirtualDesktopError('the virtual desktop is stopped');
    const { startGraceMs = 2000, output = process.stderr } = options;
    const child = this.spawnTied('/bin/sh', ['-c', command], ['ignore', 'pipe', 'pipe']);
    const entry: Tracked = { name: command, child, exited: false };
    this.apps.push(entry);
    const forward = output === 'ignore' ? undefined : output;
    tail(child.stdout, forward);
    const stderr = tail(child.stderr, forward);
    const launchedAt = Date.now();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('error', () => {
        entry.exited = true;
        resolve({ code: 127, signal: null });
      });
      child.once('exit', (code, signal) => {
        entry.exited = true;
        resolve({ code, signal });
      });
    });
    const failed = exited.then(({ code, signal }) => {
      const early = Date.now() - launchedAt <= startGraceMs;
      if (!early || code === 0 || this.stopped) return new Promise<string>(() => undefined);
      const how = signal
        ? `was killed by ${signal}`
        : code === 127
          ? 'was not found (exit 127)'
          : `exited with ${code}`;
      const said = stderr().trim().split('\n').slice(-5).join('\n');
      return `the application "${command}" failed to start: it ${how}${said ? `:\n${said}` : ''}`;
    });
    return { command, pid: child.pid ?? -1, exited, failed, output: stderr };
  }

  /** Stops every process of the desktop and removes its files. Idempotent. */
  stop(): Promise<{ killedHard: number[] }> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<{ killedHard: number[] }> {
    this.stopped = true;
    process.off('exit', this.onExit);
    const killedHard: number[] = [];
    // Applications (whole process groups) first, then the window manager, the bus (which takes the at-spi
    // launcher and registry with it), the X server, and whatever is left with the marker.
    const appPids = this.apps.map((a) => a.child.pid ?? -1).filter((pid) => pid > 0);
    for (const pid of appPids) sendSignal(-pid, 'SIGTERM');
    killedHard.push(...(await terminate([...appPids, ...descendantsOf(appPids)], 2000)));
    for (const name of ['openbox', 'dbus-daemon', 'Xvfb']) {
      const entry = this.tracked.find((e) => e.name === name);
      if (entry?.child.pid !== undefined) killedHard.push(...(await terminate([entry.child.pid], 2000)));
    }
    killedHard.push(...(await terminate(this.allProcesses(), 2000)));
    this.removeStaleLock(killedHard);
    rmSync(this.dir, { recursive: true, force: true });
    this.endSentinel();
    return { killedHard };
  }

  /** Xvfb removes its lock and socket on SIGTERM; after a SIGKILL we do, if the lock is still its own. */
  private removeStaleLock(killedHard: number[]): void {
    const xvfb = this.tracked.find((e) => e.name === 'Xvfb');
    if (!xvfb?.child.pid || this.displayNumber < 0 || !killedHard.includes(xvfb.child.pid)) return;
    const lock = `/tmp/.X${this.displayNumber}-lock`;
    try {
      if (Number(readFileSync(lock, 'latin1').trim()) === xvfb.child.pid) {
        rmSync(lock, { force: true });
        rmSync(`/tmp/.X11-unix/X${this.displayNumber}`, { force: true });
      }
    } catch {
      // already gone
    }
  }

  private endSentinel(): void {
    if (this.sentinel.pid !== undefined) sendSignal(-this.sentinel.pid, 'SIGKILL');
  }

  /** Synchronous last resort when this process exits without stop(): SIGKILL everything known. */
  killNow(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const pid of this.allProcesses()) sendSignal(pid, 'SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
    this.endSentinel();
  }
}

/** Starts a virtual desktop; rejects with a VirtualDesktopError (after cleaning up) when it cannot. */
export async function startVirtualDesktop(options: VirtualDesktopOptions = {}): Promise<VirtualDesktop> {
  if (process.platform !== 'linux') {
    throw new VirtualDesktopError('the virtual desktop needs Linux (Xvfb, D-Bus and AT-SPI)');
  }
  const desktop = new VirtualDesktop(options.size ?? DEFAULT_SCREEN);
  await desktop.startUp(options);
  return desktop;
}
