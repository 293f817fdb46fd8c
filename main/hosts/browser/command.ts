import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { InspectorSession } from '../../api/session.js';
import { addRuntimeOptions, runtimeOptionsFrom, type RuntimeFlags } from '../../backends/flags.js';
import {
  adoptDesktopEnvironment,
  collectApp,
  openVirtualDesktop,
  parseSizeOption,
  type OpenedDesktop,
} from '../../desktop/open.js';
import type { ScreenSize } from '../../desktop/virtual-desktop.js';
import { isLoopback, startBrowserHost } from './server.js';

interface ServeOptions extends RuntimeFlags {
  port: number;
  host?: string;
  open: boolean;
  renderer?: string;
  settingsFile?: string;
  virtualDesktop?: boolean;
  size?: ScreenSize;
  app?: string[];
  /** The environment the system browser opens in (not the virtual desktop's). */
  browserEnv?: NodeJS.ProcessEnv;
}

/** dist/renderer next to dist/main (this file is dist/main/hosts/browser/command.js). */
export function defaultRendererDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../renderer');
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new InspectorError('usage', `--port must be a number from 0 to 65535, got "${value}"`);
  }
  return Number(value);
}

/** Opens the address in the system browser when there is a display; never fails the host. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return false;
  try {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore', env });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

export interface ServeHandle {
  url: string;
  stop(reason: string): Promise<void>;
  stopped: Promise<void>;
}

/** Starts the session and the host; resolves once the address is printed. */
export async function serve(options: ServeOptions): Promise<ServeHandle> {
  if (options.host !== undefined && options.host.trim() === '') {
    throw new InspectorError('usage', '--host needs an address, e.g. --host 0.0.0.0');
  }
  const session = await InspectorSession.open({
    runtime: runtimeOptionsFrom(options),
    ...(options.settingsFile ? { settingsFile: options.settingsFile } : {}),
  });
  let host;
  try {
    host = await startBrowserHost({
      session,
      port: options.port,
      ...(options.host ? { host: options.host } : {}),
      rendererDir: options.renderer ?? defaultRendererDir(),
    });
  } catch (error) {
    await session.close();
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      throw new InspectorError('usage', `port ${options.port} is already in use; try --port 0`);
    throw error;
  }
  if (options.host && !isLoopback(options.host)) {
    process.stderr.write(
      `warning: listening on ${options.host}, reachable from other machines; anyone with the token can control this desktop\n`,
    );
  }
  let resolveStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping: Promise<void> | undefined;
  const stop = (reason: string) => {
    stopping ??= (async () => {
      process.stderr.write(`platynui-inspector: stopping (${reason})\n`);
      await host.close();
      await session.close();
      resolveStopped();
    })();
    return stopping;
  };
  // "Stop" in the page; deferred so that the request's answer leaves before the host closes.
  session.hostStop = () => setImmediate(() => void stop('Stop in the page'));
  process.stdout.write(`${host.url}\n`);
  if (options.open) openBrowser(host.url, options.browserEnv);
  return { url: host.url, stop, stopped };
}

export function registerServe(program: Command): void {
  addRuntimeOptions(
    program
      .command('serve')
      .description('serve the inspector to a web browser: the UI over HTTP, the API over a WebSocket at /api/ws')
      .option('--port <n>', 'port to listen on; 0 picks a free one', parsePort, 0)
      .option('--host <address>', 'address to listen on (default 127.0.0.1; anything else is reachable from outside)')
      .option('--no-open', 'do not open the system browser')
      .option('--renderer <dir>', 'directory with the built UI (default: dist/renderer)')
      .option('--settings-file <file>', 'where settings persist (default: $XDG_CONFIG_HOME/platynui-inspector)'),
  )
    .option('--virtual-desktop', 'start a private virtual desktop (Xvfb, D-Bus, AT-SPI, openbox) and inspect it')
    .option('--size <WxH>', 'with --virtual-desktop: its screen size (default 1920x1080)', parseSizeOption)
    .option('--app <command>', 'with --virtual-desktop: start this shell command in it (repeatable)', collectApp)
    .action(async (options: ServeOptions) => {
      if (!options.virtualDesktop && (options.app !== undefined || options.size !== undefined)) {
        const flag = options.app !== undefined ? '--app' : '--size';
        throw new InspectorError('usage', `${flag} needs --virtual-desktop (applications start in a virtual desktop)`);
      }
      // handlers first: a signal that arrives while the session opens stops the host as soon as it is up
      let handle: ServeHandle | undefined;
      let early: NodeJS.Signals | undefined;
      const onSignal = (signal: NodeJS.Signals) => {
        if (handle) void handle.stop(signal);
        else early ??= signal;
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      let opened: OpenedDesktop | undefined;
      let appFailure: string | undefined;
      try {
        if (options.virtualDesktop) {
          const browserEnv = { ...process.env };
          opened = await openVirtualDesktop({
            ...(options.size ? { size: options.size } : {}),
            apps: options.app ?? [],
          });
          adoptDesktopEnvironment(opened.desktop);
          options.browserEnv = browserEnv;
          process.stderr.write(
            `platynui-inspector: virtual desktop ${opened.desktop.display} (${opened.desktop.size.width}x${opened.desktop.size.height}) ready in ${opened.desktop.startupMs} ms\n`,
          );
        }
        if (!early) {
          handle = await serve(options);
          if (early) void handle.stop(early);
          const running = handle;
          void opened?.appFailure.then((message) => {
            appFailure = message;
            void running.stop('an application failed to start');
          });
          await handle.stopped;
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await opened?.desktop.stop();
      }
      if (appFailure) throw new InspectorError('provider-unavailable', appFailure);
    });
}
