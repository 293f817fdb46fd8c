// The Debian packages of the test desktop: the product's virtual desktop (main/desktop/packages.ts) and the tools the
// tests drive it with. Checked with dpkg-query, installed with apt-get when we are root on Debian/Ubuntu; anywhere
// else the exact command is printed and nothing is half set up. Import it after the build.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const packages = await import(pathToFileURL(path.join(root, 'dist/main/desktop/packages.js')).href);

export const { aptCommand, DEMO_APPLICATION_PACKAGE, MissingPackagesError, VIRTUAL_DESKTOP_PACKAGES } = packages;

export const DESKTOP_PACKAGES = Object.freeze([
  ...VIRTUAL_DESKTOP_PACKAGES,
  'dbus-x11',
  'x11-utils',
  'xdotool',
  DEMO_APPLICATION_PACKAGE,
  'chromium',
  'python3-gi',
  'gir1.2-atspi-2.0',
  'imagemagick',
  'python3-dogtail',
  'gir1.2-gtk-4.0',
]);

/** Packages from `list` (default: all of the test desktop's) that dpkg does not report as installed. */
export const missingPackages = (list = DESKTOP_PACKAGES) => packages.missingPackages(list);

/**
 * Makes sure the test desktop's packages are installed (as root on Debian: installs the missing ones); otherwise
 * throws naming the apt command. Returns the packages it installed.
 */
export function ensureDesktopPackages(options = {}) {
  return packages.ensurePackages({
    packages: DESKTOP_PACKAGES,
    purpose: 'the test desktop',
    log: (m) => process.stderr.write(`[desktop] ${m}\n`),
    ...options,
  });
}
