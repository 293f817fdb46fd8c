// Debian packages the virtual accessible desktop needs, checked with dpkg-query and installed with apt-get when we
// are root on a Debian/Ubuntu machine. Anywhere else we print the exact command and fail: no silent partial setup.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const DESKTOP_PACKAGES = Object.freeze([
  'xvfb',
  'dbus',
  'dbus-x11',
  'at-spi2-core',
  'openbox',
  'x11-utils',
  'xdotool',
  'gtk-3-examples',
  'chromium',
  'python3-gi',
  'gir1.2-atspi-2.0',
  'imagemagick',
  'python3-dogtail',
  'gir1.2-gtk-4.0',
]);

const APT_OPTIONS = ['-o', 'DPkg::Lock::Timeout=600', '-o', 'Dpkg::Options::=--force-confdef'];

/** The exact command a person should run to install the given packages. */
export function aptCommand(packages) {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  return `${sudo}apt-get update && ${sudo}DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

function isDebianLike() {
  return existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get') && existsSync('/usr/bin/dpkg-query');
}

/** Packages from `packages` that dpkg does not report as installed. */
export function missingPackages(packages = DESKTOP_PACKAGES) {
  const result = spawnSync('dpkg-query', ['-W', '-f', '${Package} ${db:Status-Status}\n', ...packages], {
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  const installed = new Set();
  for (const line of result.stdout.split('\n')) {
    const [name, status] = line.trim().split(' ');
    if (name && status === 'installed') installed.add(name.split(':')[0]);
  }
  return packages.filter((p) => !installed.has(p));
}

export class DesktopPackagesError extends Error {
  constructor(message, missing) {
    super(message);
    this.name = 'DesktopPackagesError';
    this.missing = missing;
  }
}

/**
 * Makes sure the desktop packages are installed. Installs them with apt-get (non-interactive) when they are missing,
 * we are root and the machine is Debian-like; otherwise throws a DesktopPackagesError naming the apt command.
 * Returns the list of packages it installed (empty when all were present).
 */
export function ensureDesktopPackages({
  packages = DESKTOP_PACKAGES,
  log = (m) => process.stderr.write(m + '\n'),
  aptGet = 'apt-get', // the apt-get to run (tests pass a stand-in)
  debianLike = isDebianLike(),
  root = process.getuid?.() === 0,
} = {}) {
  if (!debianLike) {
    throw new DesktopPackagesError(
      `The virtual desktop needs a Debian/Ubuntu machine with these packages: ${packages.join(' ')}.\n` +
        `On Debian/Ubuntu run: ${aptCommand(packages)}`,
      [...packages],
    );
  }
  const missing = missingPackages(packages);
  if (missing.length === 0) return [];
  if (!root) {
    throw new DesktopPackagesError(
      `Missing Debian packages for the virtual desktop: ${missing.join(' ')}.\nInstall them with: ${aptCommand(missing)}`,
      missing,
    );
  }
  log(`[desktop] installing missing packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync(aptGet, [...APT_OPTIONS, 'install', '-y', '--no-install-recommends', ...missing], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env,
    });
  let result = install();
  if (result.status !== 0) {
    // The package lists may be missing or stale: refresh them once and try again.
    const update = spawnSync(aptGet, [...APT_OPTIONS, 'update'], { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (update.status === 0) result = install();
  }
  const still = missingPackages(packages);
  if (result.status !== 0 || still.length > 0) {
    throw new DesktopPackagesError(
      `apt-get could not install ${still.join(' ') || missing.join(' ')} (exit ${result.status}).\n` +
        `Run it by hand: ${aptCommand(still.length ? still : missing)}`,
      still,
    );
  }
  return missing;
}
