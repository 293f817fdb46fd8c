// The test runner's virtual accessible desktop: the product's own (dist/main/desktop/virtual-desktop.js: Xvfb with a
// private cookie, a session bus, AT-SPI switched on, openbox), with the test tools' packages checked (and as root on
// Debian installed) first. Import it after the build (scripts/test.mjs and bench/run.mjs build first).
//
//   const s = await startDesktopSession();  spawn(cmd, { env: s.env });  await s.stop();
//
// To run a command in a desktop from a shell: platynui-inspector virtual-desktop -- <command...>
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureDesktopPackages } from './packages.mjs';

export { DESKTOP_PACKAGES, ensureDesktopPackages, missingPackages, aptCommand } from './packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const built = (file) => import(pathToFileURL(path.join(root, 'dist/main/desktop', file)).href);
const { DESKTOP_MARKER, startVirtualDesktop } = await built('virtual-desktop.js');
const { processesWithEnv } = await built('processes.js');

/** Environment variable carried by every process of a session (used to find strays at stop). */
export const SESSION_MARKER = DESKTOP_MARKER;

/** PIDs of processes whose environment carries the session's marker. */
export const processesWithMarker = (id) => processesWithEnv(DESKTOP_MARKER, id);

const activeSessions = new Set();
let handlersInstalled = false;

// On SIGINT/SIGTERM/SIGHUP the sessions stop first, then the signal is raised again (its default action).
function installSignalHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
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

/**
 * Starts a virtual accessible desktop session.
 *
 * @param {object} [options]
 * @param {boolean} [options.installPackages=true]  check (and as root on Debian install) the test tools' packages
 * @param {string} [options.screen='1920x1080x24']  screen geometry (the depth is always 24)
 * @param {boolean} [options.windowManager=true]    start openbox
 * @param {number} [options.timeoutMs=20000]        overall start-up timeout
 * @param {boolean} [options.handleSignals=true]    stop the session on SIGINT/SIGTERM/SIGHUP of this process
 * @param {(msg: string) => void} [options.log]     progress messages (default: silent)
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
  const t = performance.now();
  if (installPackages) ensureDesktopPackages({ log });
  const packagesMs = Math.round(performance.now() - t);
  const [width, height] = screen.split('x').map(Number);
  const desktop = await startVirtualDesktop({ size: { width, height }, windowManager, timeoutMs, log });
  const session = {
    id: desktop.id,
    env: desktop.env,
    display: desktop.display,
    displayNumber: desktop.displayNumber,
    tmpDir: desktop.dir,
    timings: { packagesMs, ...desktop.timings },
    startupMs: desktop.startupMs,
    get pids() {
      return desktop.processes();
    },
    stop: async () => {
      activeSessions.delete(session);
      return desktop.stop();
    },
  };
  activeSessions.add(session);
  if (handleSignals) installSignalHandlers();
  return session;
}
