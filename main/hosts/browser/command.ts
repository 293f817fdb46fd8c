import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { LIMIT_NAMES, LIMITS, parseLimitOption, type HostLimits } from '../../api/limits.js';
import { HostContext } from '../../api/host-context.js';
import { addRuntimeOptions, runtimeOptionsFrom, type RuntimeFlags } from '../../backends/flags.js';
import {
  adoptDesktopEnvironment,
  collectApp,
  openVirtualDesktop,
  parseSizeOption,
  type OpenedDesktop,
} from '../../desktop/open.js';
import type { ScreenSize } from '../../desktop/virtual-desktop.js';
import { installFaultPolicy } from '../fault-policy.js';
import { isLoopback } from '../loopback.js';
import { startBrowserHost } from './server.js';

type ServeOptions = RuntimeFlags &
  Partial<HostLimits> & {
    port: number;
    host?: string;
    open: boolean;
    renderer?: string;
    settingsFile?: string;
    sourceMaps?: boolean;
    virtualDesktop?: boolean;
    size?: ScreenSize;
    app?: string[];
    /** The environment the system browser opens in (not the virtual desktop's). */
    browserEnv?: NodeJS.ProcessEnv;
  };

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

/**
 * A file that hands the tokened address on to the browser: 0600 in a 0700 directory of its own, so the token is
 * never on a command line (`ps` shows the browser's arguments to every local user). Removed by `remove()`.
 */
export function writeLaunchFile(url: string): { file: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-inspector-'));
  const file = path.join(dir, 'open.html');
  const target = JSON.stringify(url).replace(/</g, '\\u003c');
  const attribute = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  writeFileSync(
    file,
    `<!doctype html><html><head><meta charset="utf-8"><title>PlatynUI Inspector</title>` +
      `<meta http-equiv="refresh" content="0;url=${attribute}"></head>` +
      `<body><script>location.replace(${target});</script></body></html>\n`,
    { mode: 0o600 },
  );
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** How long the launch file stays: the browser has read it long before. */
const LAUNCH_FILE_MS = 120_000;

/** Opens the address in the system browser, through a launch file, when there is a display; never fails the host. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): (() => void) | undefined {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  let launch: { file: string; remove(): void } | undefined;
  try {
    launch = writeLaunchFile(url);
    const child = spawn(command, [launch.file], { detached: true, stdio: 'ignore', env });
    child.on('error', () => undefined);
    child.unref();
    const timer = setTimeout(() => launch?.remove(), LAUNCH_FILE_MS);
    timer.unref();
    return () => {
      clearTimeout(timer);
      launch?.remove();
    };
  } catch {
    launch?.remove();
    return undefined;
  }
}

export interface ServeHandle {
  url: string;
  stop(reason: string): Promise<void>;
  stopped: Promise<void>;
}

/** Starts the context and the host; resolves once the address is printed. */
export async function serve(options: ServeOptions): Promise<ServeHandle> {
  if (options.host !== undefined && options.host.trim() === '') {
    throw new InspectorError('usage', '--host needs an address, e.g. --host 0.0.0.0');
  }
  const context = await HostContext.open({
    runtime: runtimeOptionsFrom(options),
    ...(options.settingsFile ? { settingsFile: options.settingsFile } : {}),
    limits: limitOverrides(options),
    warmTree: true,
  });
  let host;
  try {
    host = await startBrowserHost({
      context,
      port: options.port,
      ...(options.host ? { host: options.host } : {}),
      rendererDir: options.renderer ?? defaultRendererDir(),
      ...(options.sourceMaps ? { sourceMaps: true } : {}),
    });
  } catch (error) {
    await context.close();
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      throw new InspectorError('usage', `port ${options.port} is already in use; try --port 0`);
    throw error;
  }
  if (!isLoopback(host.address)) {
    process.stderr.write(
      `warning: listening on ${host.address}, reachable from other machines; anyone with the token can control this desktop\n`,
    );
  }
  process.stdout.write(`${host.url}\n`);
  let resolveStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  let stopping: Promise<void> | undefined;
  const stop = (reason: string) => {
    stopping ??= (async () => {
      process.stderr.write(`platynui-inspector: stopping (${reason})\n`);
      removeLaunchFile?.();
      await host.close();
      await context.close();
      resolveStopped();
    })();
    return stopping;
  };
  // "Stop" in the page; deferred so that the request's answer leaves before the host closes.
  context.hostStop = () => setImmediate(() => void stop('Stop in the page'));
  const removeLaunchFile = options.open ? openBrowser(host.url, options.browserEnv) : undefined;
  return { url: host.url, stop, stopped };
}

function limitOverrides(options: Partial<HostLimits>): Partial<HostLimits> {
  const out: Partial<HostLimits> = {};
  for (const name of LIMIT_NAMES) if (options[name] !== undefined) out[name] = options[name];
  return out;
}

/** The limit options of `serve`: `--max-results <n>` and so on (their settings keys are `limits.<name>`). */
function addLimitOptions(command: Command): Command {
  for (const name of LIMIT_NAMES) {
    const { option, default: fallback } = LIMITS[name];
    command.option(
      `${option} <n>`,
      `limit: ${name} (default ${fallback}; setting limits.${name})`,
      parseLimitOption(name),
    );
  }
  return command;
}

export function registerServe(program: Command): void {
  const command = addRuntimeOptions(
    program
      .command('serve')
      .description('serve the inspector to a web browser: the UI over HTTP, the API over a WebSocket at /api/ws')
      .option('--port <n>', 'port to listen on; 0 picks a free one', parsePort, 0)
      .option('--host <address>', 'address to listen on (default 127.0.0.1; anything else is reachable from outside)')
      .option('--no-open', 'do not open the system browser')
      .option('--renderer <dir>', 'directory with the built UI (default: dist/renderer)')
      .option('--settings-file <file>', 'where settings persist (default: $XDG_CONFIG_HOME/platynui-inspector)')
      .option('--source-maps', "serve the UI's source maps too"),
  )
    .option('--virtual-desktop', 'start a private virtual desktop (Xvfb, D-Bus, AT-SPI, openbox) and inspect it')
    .option('--size <WxH>', 'with --virtual-desktop: its screen size (default 1920x1080)', parseSizeOption)
    .option('--app <command>', 'with --virtual-desktop: start this shell command in it (repeatable)', collectApp);
  addLimitOptions(command).action(async (options: ServeOptions) => {
    if (!options.virtualDesktop && (options.app !== undefined || options.size !== undefined)) {
      const flag = options.app !== undefined ? '--app' : '--size';
      throw new InspectorError('usage', `${flag} needs --virtual-desktop (applications start in a virtual desktop)`);
    }
    const faults = installFaultPolicy();
    // handlers first: a signal that arrives while the context opens stops the host as soon as it is up
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
      faults.uninstall();
      await opened?.desktop.stop();
    }
    if (appFailure) throw new InspectorError('provider-unavailable', appFailure);
  });
}
