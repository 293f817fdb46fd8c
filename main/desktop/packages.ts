// Debian packages, checked with dpkg-query and installed with apt-get only when we are root on a Debian/Ubuntu
// machine (and the caller asks for it). Anywhere else the exact command is named: no silent partial setup.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What the virtual desktop itself runs: Xvfb, xauth for its cookie, a session bus, AT-SPI and openbox. */
export const VIRTUAL_DESKTOP_PACKAGES: readonly string[] = Object.freeze([
  'xvfb',
  'xauth',
  'dbus',
  'at-spi2-core',
  'openbox',
]);

/** The demo application `npm start` shows when it starts a virtual desktop (gtk3-demo). */
export const DEMO_APPLICATION_PACKAGE = 'gtk-3-examples';

const APT_OPTIONS = ['-o', 'DPkg::Lock::Timeout=600', '-o', 'Dpkg::Options::=--force-confdef'];

/** The exact command a person should run to install the given packages. */
export function aptCommand(packages: readonly string[], root = process.getuid?.() === 0): string {
  const sudo = root ? '' : 'sudo ';
  return (
    `${sudo}apt-get update && ${sudo}DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ` +
    packages.join(' ')
  );
}

export function isDebianLike(): boolean {
  return existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get') && existsSync('/usr/bin/dpkg-query');
}

/** Packages from `packages` that dpkg does not report as installed (all of them where there is no dpkg). */
export function missingPackages(packages: readonly string[]): string[] {
  const result = spawnSync('dpkg-query', ['-W', '-f', '${Package} ${db:Status-Status}\n', ...packages], {
    encoding: 'utf8',
  });
  if (result.error) return [...packages];
  const installed = new Set<string>();
  for (const line of result.stdout.split('\n')) {
    const [name, status] = line.trim().split(' ');
    if (name && status === 'installed') installed.add(name.split(':')[0] ?? name);
  }
  return packages.filter((p) => !installed.has(p));
}

export class MissingPackagesError extends Error {
  constructor(
    message: string,
    readonly missing: readonly string[],
  ) {
    super(message);
    this.name = 'MissingPackagesError';
  }
}

export interface EnsurePackagesOptions {
  packages: readonly string[];
  /** What needs them, for the messages ("the virtual desktop"). */
  purpose?: string;
  /** Install what is missing when root on Debian; false: only report. */
  install?: boolean;
  log?: (message: string) => void;
  /** The apt-get to run (tests pass a stand-in). */
  aptGet?: string;
  debianLike?: boolean;
  root?: boolean;
}

/**
 * Makes sure the packages are installed: as root on a Debian-like machine (and with `install`) missing ones are
 * installed non-interactively, saying which; otherwise throws a MissingPackagesError naming the apt command.
 * Returns the packages it installed (empty when all were there).
 */
export function ensurePackages(options: EnsurePackagesOptions): string[] {
  const {
    packages,
    purpose = 'the virtual desktop',
    install = true,
    log = (message: string) => process.stderr.write(`${message}\n`),
    aptGet = 'apt-get',
    debianLike = isDebianLike(),
    root = process.getuid?.() === 0,
  } = options;
  if (!debianLike) {
    throw new MissingPackagesError(
      `${purpose} needs a Debian/Ubuntu machine with these packages: ${packages.join(' ')}.\n` +
        `On Debian/Ubuntu run: ${aptCommand(packages, root)}`,
      [...packages],
    );
  }
  const missing = missingPackages(packages);
  if (missing.length === 0) return [];
  if (!root || !install) {
    throw new MissingPackagesError(
      `Missing Debian packages for ${purpose}: ${missing.join(' ')}.\nInstall them with: ${aptCommand(missing, root)}`,
      missing,
    );
  }
  log(`installing missing packages for ${purpose}: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) => spawnSync(aptGet, [...APT_OPTIONS, ...args], { stdio: ['ignore', 2, 2], env });
  let result = run(['install', '-y', '--no-install-recommends', ...missing]);
  if (result.status !== 0) {
    // The package lists may be missing or stale: refresh them once and try again.
    if (run(['update']).status === 0) result = run(['install', '-y', '--no-install-recommends', ...missing]);
  }
  const still = missingPackages(packages);
  if (result.status !== 0 || still.length > 0) {
    const left = still.length > 0 ? still : missing;
    throw new MissingPackagesError(
      `apt-get could not install ${left.join(' ')} (exit ${result.status}).\nRun it by hand: ${aptCommand(left, root)}`,
      left,
    );
  }
  return missing;
}
