#!/usr/bin/env node
// `npm start` (after the build): the Electron shell when an Electron binary is usable, else the browser host.
//
//   node scripts/start.mjs [serve options...]   e.g. --provider mock --no-open --port 0
//
// Electron is usable when ELECTRON_OVERRIDE_DIST_PATH names a directory with an Electron build, or when
// node_modules/electron/dist holds the downloaded binary. Otherwise one sentence says so and `serve` runs instead,
// with the arguments given here.
//
// On Linux without a desktop session (neither DISPLAY nor WAYLAND_DISPLAY), one line says so and the browser host
// serves a virtual desktop with gtk3-demo in it (`--app "<command>"` names other applications): Electron needs a
// display too. Missing system packages are installed when running as root (saying which); otherwise the apt-get
// command is printed and the exit code is 3.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const EXIT_PROVIDER = 3;
const DEMO_APPLICATION = 'gtk3-demo';

function executableName() {
  if (process.platform === 'win32') return 'electron.exe';
  if (process.platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  return 'electron';
}

/** The Electron executable to run, or undefined with the reason. */
export function findElectron(env = process.env) {
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const binary = path.join(override, executableName());
    if (existsSync(binary)) return { binary };
    return { reason: `ELECTRON_OVERRIDE_DIST_PATH (${override}) has no ${executableName()}` };
  }
  const dist = path.join(root, 'node_modules/electron/dist');
  const pathFile = path.join(root, 'node_modules/electron/path.txt');
  if (existsSync(dist)) {
    const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : executableName();
    const binary = path.join(dist, relative);
    if (existsSync(binary)) return { binary };
  }
  return { reason: 'node_modules/electron/dist is missing and ELECTRON_OVERRIDE_DIST_PATH is not set' };
}

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit', cwd: root });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => {
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
    process.exitCode = code ?? (signal ? 1 : 0);
  });
  child.on('error', (error) => {
    process.stderr.write(`platynui-inspector: could not start ${command}: ${error.message}\n`);
    process.exitCode = 1;
  });
}

/** True on Linux when there is no desktop session to inspect. */
export function lacksDesktop(env = process.env) {
  return process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY;
}

async function serveVirtualDesktop(args) {
  const ownApps = args.some((a) => a === '--app' || a.startsWith('--app='));
  process.stdout.write(
    `There is no desktop session here (neither DISPLAY nor WAYLAND_DISPLAY is set), so a virtual desktop with ` +
      `${ownApps ? 'your applications' : DEMO_APPLICATION} is started and served in the browser.\n`,
  );
  const packages = await import(pathToFileURL(path.join(root, 'dist/main/desktop/packages.js')).href);
  if (packages.isDebianLike()) {
    const needed = [...packages.VIRTUAL_DESKTOP_PACKAGES, ...(ownApps ? [] : [packages.DEMO_APPLICATION_PACKAGE])];
    try {
      packages.ensurePackages({ packages: needed, log: (m) => process.stderr.write(`platynui-inspector: ${m}\n`) });
    } catch (error) {
      if (!(error instanceof packages.MissingPackagesError)) throw error;
      process.stderr.write(`platynui-inspector: ${error.message}\n`);
      process.exitCode = EXIT_PROVIDER;
      return;
    }
  }
  const apps = ownApps ? [] : ['--app', DEMO_APPLICATION];
  run(process.execPath, [path.join(root, 'bin/platynui-inspector'), 'serve', '--virtual-desktop', ...apps, ...args]);
}

const args = process.argv.slice(2);
const electron = findElectron();
if (lacksDesktop()) {
  await serveVirtualDesktop(args);
} else if (electron.binary) {
  run(electron.binary, [root, ...args]);
} else {
  process.stdout.write(
    `Electron's binary is not available (${electron.reason}), so the inspector is served in the browser instead.\n`,
  );
  run(process.execPath, [path.join(root, 'bin/platynui-inspector'), 'serve', ...args]);
}
