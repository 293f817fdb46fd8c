#!/usr/bin/env node
// `npm start` (after the build): the Electron shell when an Electron binary is usable, else the browser host.
//
//   node scripts/start.mjs [serve options...]   e.g. --provider mock --no-open --port 0
//
// Electron is usable when ELECTRON_OVERRIDE_DIST_PATH names a directory with an Electron build, or when
// node_modules/electron/dist holds the downloaded binary. Otherwise one sentence says so and `serve` runs instead,
// with the arguments given here.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

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

const args = process.argv.slice(2);
const electron = findElectron();
if (electron.binary) {
  run(electron.binary, [root, ...args]);
} else {
  process.stdout.write(
    `Electron's binary is not available (${electron.reason}), so the inspector is served in the browser instead.\n`,
  );
  run(process.execPath, [path.join(root, 'bin/platynui-inspector'), 'serve', ...args]);
}
