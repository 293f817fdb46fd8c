// The inspector under test, launched one of two ways behind one interface, so that the same end-to-end suite runs
// against either:
// - the browser host (default): `platynui-inspector serve` in the session, its page in Debian's Chromium, headless
//   and off the accessibility bus (the inspector's own browser is not what it inspects);
// - the Electron shell, through Playwright's `_electron`, when ELECTRON_OVERRIDE_DIST_PATH names a directory holding
//   an Electron build (Electron's binary cannot be downloaded in every environment; where it is missing the suite
//   runs against the browser host only).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { _electron, chromium, type Browser, type ElectronApplication, type Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { InspectorClient, webSocketTransport } from '../../shared/api/client.js';
import { schemaCheck } from '../../shared/api/schema-check.js';
import { chromiumExecutable } from './apps.js';
import { projectRoot } from './paths.js';
import { terminate } from './processes.js';

export type InspectorKind = 'browser host' | 'Electron shell';

export interface InspectorUnderTest {
  readonly kind: InspectorKind;
  /** The inspector's UI. */
  readonly page: Page;
  /** The last output of the host process (for failure messages). */
  log(): string;
  close(): Promise<void>;
}

export interface InspectorOptions {
  /** Command-line options for the runtime (`--provider atspi`). */
  args: string[];
  /** Viewport of the browser host's page (the Electron window keeps the size the shell gives it). */
  viewport?: { width: number; height: number };
  /**
   * The directory the host keeps its settings in (the UI's panel sizes, history ...); by default a fresh one per
   * launch, removed on close, so that runs never see each other's settings. Give one to restart over the same.
   */
  configDir?: string;
}

/** The Electron executable named by ELECTRON_OVERRIDE_DIST_PATH (Linux: `<dir>/electron`), if it is there. */
export function electronBinary(env: NodeJS.ProcessEnv): string | undefined {
  const dir = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!dir) return undefined;
  const binary = path.join(dir, process.platform === 'win32' ? 'electron.exe' : 'electron');
  return existsSync(binary) ? binary : undefined;
}

export function inspectorKind(env: NodeJS.ProcessEnv): InspectorKind {
  return electronBinary(env) ? 'Electron shell' : 'browser host';
}

export async function launchInspector(env: NodeJS.ProcessEnv, options: InspectorOptions): Promise<InspectorUnderTest> {
  const binary = electronBinary(env);
  const own = options.configDir === undefined;
  const configDir = options.configDir ?? mkdtempSync(path.join(tmpdir(), 'platynui-e2e-config-'));
  const withConfig = { ...env, XDG_CONFIG_HOME: configDir };
  const launched = binary ? launchElectron(binary, withConfig, options) : launchBrowserHost(withConfig, options);
  const inspector = await launched.catch((error: unknown) => {
    if (own) rmSync(configDir, { recursive: true, force: true });
    throw error;
  });
  return {
    ...inspector,
    async close() {
      await inspector.close();
      if (own) rmSync(configDir, { recursive: true, force: true });
    },
  };
}

async function launchElectron(
  executablePath: string,
  env: NodeJS.ProcessEnv,
  options: InspectorOptions,
): Promise<InspectorUnderTest> {
  let output = '';
  const app: ElectronApplication = await _electron.launch({
    executablePath,
    args: [projectRoot(), ...options.args],
    cwd: projectRoot(),
    env: { ...env } as { [key: string]: string },
  });
  app.process().stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  app.process().stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const page = await app.firstWindow();
  return {
    kind: 'Electron shell',
    page,
    log: () => output,
    close: () => app.close().catch(() => undefined),
  };
}

async function launchBrowserHost(env: NodeJS.ProcessEnv, options: InspectorOptions): Promise<InspectorUnderTest> {
  const { url, host, log } = await startServe(env, options.args);
  try {
    const { browser, page } = await openInspectorPage(url, options.viewport);
    return {
      kind: 'browser host',
      page,
      log,
      async close() {
        await browser.close().catch(() => undefined);
        await stopProcess(host);
      },
    };
  } catch (error) {
    await stopProcess(host);
    throw error;
  }
}

/** The inspector's page at `url` in Debian's Chromium: headless, off the accessibility bus. */
export async function openInspectorPage(
  url: string,
  viewport = { width: 1440, height: 900 },
): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu'],
    env: { ...process.env, DISPLAY: '', DBUS_SESSION_BUS_ADDRESS: 'disabled:', AT_SPI_BUS_ADDRESS: '' } as {
      [key: string]: string;
    },
  });
  try {
    const context = await browser.newContext({
      viewport,
      colorScheme: 'light',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    await page.goto(url);
    return { browser, page };
  } catch (error) {
    await browser.close().catch(() => undefined);
    throw error;
  }
}

/** Starts `platynui-inspector serve` and resolves with the address it prints. */
export function startServe(
  env: NodeJS.ProcessEnv,
  args: string[],
  /** The build whose `bin/platynui-inspector` runs (another checkout's, for a before/after comparison). */
  buildRoot = projectRoot(),
): Promise<{ url: string; host: ChildProcess; log(): string }> {
  let output = '';
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(buildRoot, 'bin/platynui-inspector'), 'serve', '--port', '0', '--no-open', ...args],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const timer = setTimeout(() => {
      void stopProcess(child);
      reject(new Error(`serve printed no address within 30 s: ${output}`));
    }, 30000);
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => (output = (output + d).slice(-4000)));
    child.stdout!.on('data', (d: string) => {
      output = (output + d).slice(-4000);
      const url = /http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+/.exec(output)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve({ url, host: child, log: () => output });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${output}`));
    });
  });
}

/** A protocol client on the WebSocket of the host at `url` (the address serve prints, with its token). */
export async function connectClient(url: string): Promise<InspectorClient> {
  const { port, hash } = new URL(url);
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws?token=${hash.replace('#token=', '')}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return new InspectorClient(webSocketTransport(socket), { requestTimeoutMs: 60_000, messageCheck: schemaCheck });
}

/** Ends the host process: SIGTERM, a grace period, SIGKILL. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.pid !== undefined) await terminate([child.pid], 5000);
}
