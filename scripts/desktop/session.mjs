#!/usr/bin/env node
// A private virtual accessible desktop: Xvfb (display chosen by the server via -displayfd, so parallel sessions never
// collide), a private D-Bus session bus, AT-SPI switched on (org.a11y.Status.IsEnabled), and openbox as the window
// manager. Every process is started here, tracked by PID and stopped here, also on SIGINT/SIGTERM and on errors.
//
// As a module:   const s = await startDesktopSession();  spawn(cmd, { env: s.env });  await s.stop();
// As a command:  node scripts/desktop/session.mjs [--quiet] -- <command...>   (exit code of the command)
//                node scripts/desktop/session.mjs            (prints the env, runs until Ctrl-C)
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dbus from 'dbus-next';
import { ensureDesktopPackages } from './packages.mjs';
import { X11Connection } from './x11.mjs';

export { DESKTOP_PACKAGES, ensureDesktopPackages, missingPackages, aptCommand } from './packages.mjs';

/** Environment variable carried by every process of a session (used to find strays at stop). */
export const SESSION_MARKER = 'PLATYNUI_DESKTOP_SESSION';

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
  SESSION_MARKER,
];

// $1: PID to watch, $2: session id, $3: session directory. `tail --pid` blocks until that process is gone.
const REAPER_SCRIPT = `
tail --pid="$1" -s 0.2 -f /dev/null 2>/dev/null || while kill -0 "$1" 2>/dev/null; do sleep 0.5; done
for f in /proc/[0-9]*/environ; do
  if grep -qzxF "${SESSION_MARKER}=$2" "$f" 2>/dev/null; then
    q=\${f#/proc/}; q=\${q%/environ}
    kill -CONT "$q" 2>/dev/null; kill -KILL "$q" 2>/dev/null
  fi
done
rm -rf "$3"
`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Converts a D-Bus address to one dbus-next connects to without its optional native `usocket` module. */
export function dbusNextAddress(address) {
  for (const part of address.split(';')) {
    const m = /^unix:(.*)$/.exec(part);
    if (!m) continue;
    const params = Object.fromEntries(
      m[1].split(',').map((kv) => {
        const i = kv.indexOf('=');
        return [kv.slice(0, i), decodeURIComponent(kv.slice(i + 1))];
      }),
    );
    if (params.path) return `unix:socket=${params.path}`;
    if (params.abstract) return `unix:socket=\0${params.abstract}`;
    if (params.socket) return `unix:socket=${params.socket}`;
  }
  throw new Error(`Unsupported D-Bus address: ${address}`);
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]);
}

function callDbus(bus, msg, timeoutMs = 1000) {
  return withTimeout(bus.call(new dbus.Message(msg)), timeoutMs, `D-Bus ${msg.interface}.${msg.member}`);
}

function connectBus(address) {
  const bus = dbus.sessionBus({ busAddress: dbusNextAddress(address) });
  // A dbus-next connection emits 'error' on close; we handle failures per call instead.
  bus.on('error', () => {});
  return bus;
}

// ---------------------------------------------------------------- process bookkeeping

function readPpidMap() {
  const map = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(entry), ppid);
    } catch {
      // the process went away
    }
  }
  return map;
}

/** All descendants of the given PIDs (children, grandchildren, ...), from /proc. */
export function descendantsOf(pids) {
  const ppids = readPpidMap();
  const children = new Map();
  for (const [pid, ppid] of ppids) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const out = new Set();
  const stack = [...pids];
  while (stack.length) {
    for (const c of children.get(stack.pop()) ?? []) {
      if (!out.has(c)) {
        out.add(c);
        stack.push(c);
      }
    }
  }
  return [...out];
}

function ancestorsOfSelf() {
  const ppids = readPpidMap();
  const out = new Set([process.pid]);
  let p = process.pid;
  while (ppids.has(p) && p > 1) {
    p = ppids.get(p);
    out.add(p);
  }
  return out;
}

/** PIDs of processes whose environment carries `SESSION_MARKER=<id>` (strays of a session). */
export function processesWithMarker(id) {
  const needle = `${SESSION_MARKER}=${id}\0`;
  const exclude = ancestorsOfSelf();
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || exclude.has(Number(entry))) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(needle)) out.push(Number(entry));
    } catch {
      // gone or not readable
    }
  }
  return out;
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A zombie still answers kill(0); it is dead for our purposes.
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length && Date.now() < deadline) {
    await sleep(20);
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** SIGTERM, wait up to `graceMs`, then SIGKILL whatever is left. Returns the PIDs that needed SIGKILL. */
export async function terminate(pids, graceMs = 2000) {
  const list = [...new Set(pids)].filter(isAlive);
  for (const pid of list) signal(pid, 'SIGTERM');
  const left = await waitGone(list, graceMs);
  for (const pid of left) signal(pid, 'SIGKILL');
  await waitGone(left, 1000);
  return left;
}

// ---------------------------------------------------------------- sessions

const activeSessions = new Set();
let handlersInstalled = false;

function installProcessHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const s of activeSessions) s.killNow();
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    const handler = async () => {
      await Promise.allSettled([...activeSessions].map((s) => s.stop()));
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, handler);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, handler);
  }
}

function captureTail(stream, max = 4000) {
  const state = { text: '' };
  stream?.setEncoding('utf8');
  stream?.on('data', (d) => {
    state.text = (state.text + d).slice(-max);
  });
  return state;
}

function readLineFrom(stream, what, child, stderrTail, timeoutMs) {
  return new Promise((resolve, reject) => {
    let data = '';
    const timer = setTimeout(() => finish(new Error(`${what} did not report within ${timeoutMs} ms`)), timeoutMs);
    const onExit = (code, sig) =>
      finish(new Error(`${what} exited early (${sig ?? code}): ${stderrTail.text.trim().slice(-1500)}`));
    function finish(err, value) {
      clearTimeout(timer);
      child.removeListener('exit', onExit);
      stream.removeAllListeners('data');
      if (err) reject(err);
      else resolve(value);
    }
    stream.setEncoding('utf8');
    stream.on('data', (d) => {
      data += d;
      const nl = data.indexOf('\n');
      if (nl >= 0) finish(undefined, data.slice(0, nl).trim());
    });
    child.once('exit', onExit);
  });
}

/**
 * Starts a virtual accessible desktop session.
 *
 * @param {object} [options]
 * @param {boolean} [options.installPackages=true]  check (and as root on Debian install) the needed packages
 * @param {string} [options.screen='1920x1080x24']  Xvfb screen geometry and depth
 * @param {boolean} [options.windowManager=true]    start openbox
 * @param {number} [options.timeoutMs=20000]        overall start-up timeout
 * @param {boolean} [options.handleSignals=true]    stop the session on SIGINT/SIGTERM/SIGHUP of this process
 * @param {(msg: string) => void} [options.log]     progress messages (default: silent)
 * @returns {Promise<DesktopSession>}
 */
export async function startDesktopSession(options = {}) {
  const {
    installPackages = true,
    screen = '1920x1080x24',
    windowManager = true,
    timeoutMs = 20000,
    handleSignals = true,
    log = () => {},
  } = options;
  const t0 = performance.now();
  const timings = {};
  const mark = (name, since) => (timings[name] = Math.round(performance.now() - since));

  let t = performance.now();
  if (installPackages) ensureDesktopPackages({ log });
  mark('packagesMs', t);

  const id = randomUUID();
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-desktop-'));
  const runtimeDir = path.join(dir, 'runtime');
  mkdirSync(runtimeDir, { mode: 0o700 });

  const baseEnv = { ...process.env };
  for (const k of SCRUBBED_ENV) delete baseEnv[k];
  const env = {
    ...baseEnv,
    XDG_RUNTIME_DIR: runtimeDir,
    XDG_SESSION_TYPE: 'x11',
    GDK_BACKEND: 'x11',
    [SESSION_MARKER]: id,
  };

  const procs = []; // { name, child, pid }
  const buses = [];
  let stopped = false;
  let stopPromise;
  // Use setpriv --pdeathsig so the session's processes die even if this process is SIGKILLed.
  const setpriv = existsSync('/usr/bin/setpriv') ? '/usr/bin/setpriv' : undefined;

  function start(name, command, args, stdio) {
    const [cmd, argv] = setpriv ? [setpriv, ['--pdeathsig', 'SIGTERM', '--', command, ...args]] : [command, args];
    const child = spawn(cmd, argv, { env, stdio, detached: true });
    const entry = { name, child, pid: child.pid, exited: false };
    child.once('exit', () => (entry.exited = true));
    child.once('error', () => (entry.exited = true));
    procs.push(entry);
    if (!child.pid) throw new Error(`could not start ${command}`);
    return entry;
  }

  const session = {
    id,
    env,
    display: '',
    displayNumber: -1,
    a11yBusAddress: '',
    tmpDir: dir,
    timings,
    startupMs: 0,
    get pids() {
      return procs.map((p) => ({ name: p.name, pid: p.pid }));
    },
    stop: () => (stopPromise ??= doStop()),
    killNow,
  };

  async function doStop() {
    stopped = true;
    activeSessions.delete(session);
    for (const b of buses.splice(0)) b.disconnect();
    const own = procs.map((p) => p.pid);
    const strays = [...descendantsOf(own), ...processesWithMarker(id)].filter((p) => !own.includes(p));
    // Window manager first, then the bus (takes the at-spi launcher and registry with it), then the X server.
    const killedHard = [];
    for (const name of ['openbox', 'dbus-daemon', 'Xvfb']) {
      const p = procs.find((e) => e.name === name);
      if (p) killedHard.push(...(await terminate([p.pid], 2000)));
    }
    killedHard.push(...(await terminate([...strays, ...descendantsOf(own), ...processesWithMarker(id)], 2000)));
    cleanupXFiles(killedHard);
    rmSync(dir, { recursive: true, force: true });
    if (reaper.pid) signal(-reaper.pid, 'SIGKILL'); // its process group: sh and tail
    return { killedHard };
  }

  function cleanupXFiles(killedHard) {
    const xvfb = procs.find((e) => e.name === 'Xvfb');
    if (!xvfb || session.displayNumber < 0 || !killedHard.includes(xvfb.pid)) return;
    const lock = `/tmp/.X${session.displayNumber}-lock`;
    try {
      if (Number(readFileSync(lock, 'latin1').trim()) === xvfb.pid) {
        rmSync(lock, { force: true });
        rmSync(`/tmp/.X11-unix/X${session.displayNumber}`, { force: true });
      }
    } catch {
      // already gone
    }
  }

  // Synchronous last resort for process 'exit': SIGKILL everything we know of.
  function killNow() {
    if (stopped && !activeSessions.has(session)) return;
    stopped = true;
    activeSessions.delete(session);
    const own = procs.map((p) => p.pid);
    for (const pid of [...descendantsOf(own), ...own, ...processesWithMarker(id)]) signal(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    if (reaper.pid) signal(-reaper.pid, 'SIGKILL'); // its process group: sh and tail
  }

  // A reaper outlives this process: should it die without stopping the session (even by SIGKILL), the reaper ends
  // every process carrying the session's marker and removes the session's files. It carries no marker itself.
  const reaper = spawn('/bin/sh', ['-c', REAPER_SCRIPT, 'platynui-desktop-reaper', String(process.pid), id, dir], {
    env: baseEnv,
    stdio: 'ignore',
    detached: true,
  });
  reaper.unref();

  activeSessions.add(session);
  if (handleSignals) installProcessHandlers();
  else if (!handlersInstalled) {
    process.on('exit', () => {
      for (const s of activeSessions) s.killNow();
    });
    handlersInstalled = 'exit-only';
  }

  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(100, deadline - Date.now());
  try {
    // 1. X server and session bus, in parallel (DISPLAY reaches the bus's activation environment afterwards).
    t = performance.now();
    const xvfb = start(
      'Xvfb',
      'Xvfb',
      ['-displayfd', '3', '-screen', '0', screen, '-nolisten', 'tcp', '-noreset'],
      ['ignore', 'ignore', 'pipe', 'pipe'],
    );
    const xvfbErr = captureTail(xvfb.child.stderr);
    const busSocket = path.join(dir, 'bus');
    const daemon = start(
      'dbus-daemon',
      'dbus-daemon',
      ['--session', '--nofork', '--nopidfile', `--address=unix:path=${busSocket}`, '--print-address=3'],
      ['ignore', 'ignore', 'pipe', 'pipe'],
    );
    const daemonErr = captureTail(daemon.child.stderr);
    const [displayNumber, busAddress] = await Promise.all([
      readLineFrom(xvfb.child.stdio[3], 'Xvfb', xvfb.child, xvfbErr, remaining()).then((n) => {
        mark('xvfbMs', t);
        return n;
      }),
      readLineFrom(daemon.child.stdio[3], 'dbus-daemon', daemon.child, daemonErr, remaining()).then((a) => {
        mark('dbusMs', t);
        return a;
      }),
    ]);
    if (!/^\d+$/.test(displayNumber)) throw new Error(`Xvfb reported an odd display: ${displayNumber}`);
    session.displayNumber = Number(displayNumber);
    session.display = `:${displayNumber}`;
    env.DISPLAY = session.display;
    env.DBUS_SESSION_BUS_ADDRESS = busAddress;
    log(`[desktop] Xvfb on ${session.display}, session bus ${busAddress}`);

    // 2. Accessibility on the session bus, and openbox, in parallel.
    t = performance.now();
    const bus = connectBus(busAddress);
    buses.push(bus);
    const a11y = (async () => {
      await callDbus(bus, {
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'UpdateActivationEnvironment',
        signature: 'a{ss}',
        body: [{ DISPLAY: session.display, XDG_RUNTIME_DIR: runtimeDir, GDK_BACKEND: 'x11' }],
      });
      let lastError;
      while (!stopped && Date.now() < deadline) {
        try {
          await callDbus(
            bus,
            {
              destination: 'org.a11y.Bus',
              path: '/org/a11y/bus',
              interface: 'org.freedesktop.DBus.Properties',
              member: 'Set',
              signature: 'ssv',
              body: ['org.a11y.Status', 'IsEnabled', new dbus.Variant('b', true)],
            },
            remaining(),
          );
          const reply = await callDbus(bus, {
            destination: 'org.a11y.Bus',
            path: '/org/a11y/bus',
            interface: 'org.a11y.Bus',
            member: 'GetAddress',
          });
          const address = reply?.body?.[0];
          if (typeof address === 'string' && address) return address;
        } catch (err) {
          lastError = err;
        }
        await sleep(25);
      }
      throw new Error(`the accessibility bus did not answer: ${lastError?.message ?? 'stopped'}`);
    })().then(async (address) => {
      mark('a11yBusMs', t);
      session.a11yBusAddress = address;
      // Wake the registry daemon now, so the first client does not pay for its activation.
      const a11yBus = connectBus(address);
      buses.push(a11yBus);
      let lastError;
      while (!stopped && Date.now() < deadline) {
        try {
          await callDbus(a11yBus, {
            destination: 'org.a11y.atspi.Registry',
            path: '/org/a11y/atspi/accessible/root',
            interface: 'org.a11y.atspi.Accessible',
            member: 'GetChildren',
          });
          mark('registryMs', t);
          return;
        } catch (err) {
          lastError = err;
          await sleep(25);
        }
      }
      throw new Error(`the AT-SPI registry did not answer: ${lastError?.message ?? 'stopped'}`);
    });

    const wm = windowManager
      ? (async () => {
          const tw = performance.now();
          const openbox = start('openbox', 'openbox', ['--sm-disable'], ['ignore', 'ignore', 'pipe']);
          const openboxErr = captureTail(openbox.child.stderr);
          const x = await X11Connection.connect(session.displayNumber, { timeoutMs: remaining() });
          try {
            while (!stopped && Date.now() < deadline) {
              if (openbox.exited) throw new Error(`openbox exited: ${openboxErr.text.trim().slice(-1500)}`);
              if ((await x.getSelectionOwner('WM_S0')) !== 0) {
                mark('openboxMs', tw);
                return;
              }
              await sleep(15);
            }
            throw new Error('openbox did not take the WM_S0 selection in time');
          } finally {
            x.close();
          }
        })()
      : Promise.resolve();

    await Promise.all([a11y, wm]);
    // Keep no bus connection open: tests and apps make their own.
    for (const b of buses.splice(0)) b.disconnect();
    session.startupMs = Math.round(performance.now() - t0);
    timings.totalMs = session.startupMs;
    log(`[desktop] ready in ${session.startupMs} ms ${JSON.stringify(timings)}`);
    return session;
  } catch (err) {
    await session.stop();
    throw err;
  }
}

// ---------------------------------------------------------------- command line

async function main(argv) {
  const dash = argv.indexOf('--');
  const flags = dash >= 0 ? argv.slice(0, dash) : argv;
  const command = dash >= 0 ? argv.slice(dash + 1) : [];
  const quiet = flags.includes('--quiet');
  const log = quiet ? () => {} : (m) => process.stderr.write(m + '\n');
  const unknown = flags.filter((f) => f !== '--quiet' && f !== '--no-packages');
  if (unknown.length || (dash >= 0 && command.length === 0)) {
    process.stderr.write(
      'usage: node scripts/desktop/session.mjs [--quiet] [--no-packages] -- <command...>\n' +
        '       node scripts/desktop/session.mjs            (print the session env, run until Ctrl-C)\n',
    );
    return 2;
  }
  let session;
  try {
    session = await startDesktopSession({
      log,
      handleSignals: false,
      installPackages: !flags.includes('--no-packages'),
    });
  } catch (err) {
    process.stderr.write(`[desktop] could not start the desktop session: ${err.message}\n`);
    return 1;
  }
  if (command.length === 0) {
    for (const k of ['DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', SESSION_MARKER]) {
      process.stdout.write(`export ${k}='${session.env[k]}'\n`);
    }
    process.stderr.write('[desktop] running; press Ctrl-C to stop\n');
    await new Promise((resolve) => {
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, () => resolve(sig));
    });
    await session.stop();
    return 0;
  }
  // The command dies with us too (pdeathsig), so even a SIGKILLed session leaves nothing running.
  const [cmd, args] = existsSync('/usr/bin/setpriv')
    ? ['/usr/bin/setpriv', ['--pdeathsig', 'SIGTERM', '--', ...command]]
    : [command[0], command.slice(1)];
  const child = spawn(cmd, args, { env: session.env, stdio: 'inherit' });
  const forward = (sig) => {
    if (child.exitCode === null) child.kill(sig);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, forward);
  const [code, sig] = await new Promise((resolve) => {
    child.once('error', (err) => {
      process.stderr.write(`[desktop] could not run ${command[0]}: ${err.message}\n`);
      resolve([127, null]);
    });
    child.once('exit', (c, s) => resolve([c, s]));
  });
  const t = performance.now();
  await session.stop();
  log(`[desktop] stopped in ${Math.round(performance.now() - t)} ms`);
  if (sig) {
    const signals = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
    return 128 + (signals[sig] ?? 1);
  }
  return code ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`[desktop] ${err?.stack ?? err}\n`);
      process.exit(1);
    },
  );
}
