// What both front ends of the virtual desktop do first (`virtual-desktop` and `serve --virtual-desktop`): check its
// packages, start it, launch the applications, and report any failure as the CLI's "could not start" (exit 3).
import { InspectorError } from '../../shared/model/errors.js';
import { aptCommand, isDebianLike, missingPackages, VIRTUAL_DESKTOP_PACKAGES } from './packages.js';
import {
  DESKTOP_ENV_NAMES,
  parseScreenSize,
  startVirtualDesktop,
  VirtualDesktopError,
  type LaunchedApplication,
  type ScreenSize,
  type VirtualDesktop,
} from './virtual-desktop.js';

export interface OpenedDesktop {
  desktop: VirtualDesktop;
  apps: LaunchedApplication[];
  /** Resolves with the first application's "failed to start" message; never when all of them started. */
  appFailure: Promise<string>;
}

export interface OpenDesktopOptions {
  size?: ScreenSize;
  /** Shell command lines, each started in the desktop once it is up. */
  apps: readonly string[];
  log?: (message: string) => void;
}

/** Starts a desktop with its applications; throws InspectorError('provider-unavailable') when it cannot. */
export async function openVirtualDesktop(options: OpenDesktopOptions): Promise<OpenedDesktop> {
  if (process.platform === 'linux' && isDebianLike()) {
    const missing = missingPackages(VIRTUAL_DESKTOP_PACKAGES);
    if (missing.length > 0) {
      throw new InspectorError(
        'provider-unavailable',
        `the virtual desktop needs these Debian packages: ${missing.join(' ')}; install them with: ${aptCommand(missing)}`,
      );
    }
  }
  let desktop: VirtualDesktop;
  try {
    desktop = await startVirtualDesktop({ ...(options.size ? { size: options.size } : {}), log: options.log });
  } catch (error) {
    if (error instanceof VirtualDesktopError) throw new InspectorError('provider-unavailable', error.message);
    throw error;
  }
  const apps = options.apps.map((command) => desktop.launch(command));
  const appFailure = Promise.race(apps.map((app) => app.failed));
  return { desktop, apps, appFailure };
}

/**
 * Points this process at the desktop (DISPLAY, XAUTHORITY, the session bus; no Wayland), as `serve` needs for its
 * runtime; libX11 reads XAUTHORITY from the real environment, which process.env writes through to.
 */
export function adoptDesktopEnvironment(desktop: VirtualDesktop): void {
  for (const name of DESKTOP_ENV_NAMES) {
    const value = desktop.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** `--size WxH` for commander: a usage error (exit 2) naming the value. */
export function parseSizeOption(value: string): ScreenSize {
  try {
    return parseScreenSize(value);
  } catch (error) {
    throw new InspectorError('usage', (error as Error).message);
  }
}

/** `--app <command>` for commander, repeatable. */
export function collectApp(value: string, previous: string[] = []): string[] {
  if (value.trim() === '') throw new InspectorError('usage', '--app needs a command, e.g. --app gtk3-demo');
  return [...previous, value];
}
