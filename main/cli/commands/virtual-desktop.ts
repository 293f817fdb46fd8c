import { constants } from 'node:os';
import type { Command } from 'commander';
import { collectApp, openVirtualDesktop, parseSizeOption } from '../../desktop/open.js';
import type { ScreenSize } from '../../desktop/virtual-desktop.js';
import { CommandExit, EXIT_PROVIDER } from '../exit-codes.js';

const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The exit status a shell reports for a process killed by `signal`: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 1);
}

interface VirtualDesktopOptions {
  size?: ScreenSize;
  app?: string[];
}

/** Resolves with the first signal of FORWARDED_SIGNALS this process receives; `off` removes the listeners. */
function signalWatch(onSignal?: (signal: NodeJS.Signals) => void): { first: Promise<NodeJS.Signals>; off(): void } {
  let off = () => undefined as void;
  const first = new Promise<NodeJS.Signals>((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      onSignal?.(signal);
      resolve(signal);
    };
    for (const signal of FORWARDED_SIGNALS) process.on(signal, handler);
    off = () => {
      for (const signal of FORWARDED_SIGNALS) process.off(signal, handler);
    };
  });
  return { first, off };
}

async function runVirtualDesktop(command: string[], options: VirtualDesktopOptions): Promise<number> {
  const early = signalWatch();
  let opened;
  try {
    opened = await openVirtualDesktop({ ...(options.size ? { size: options.size } : {}), apps: options.app ?? [] });
  } finally {
    early.off();
  }
  const { desktop, appFailure } = opened;
  let child: ReturnType<typeof desktop.spawnTied> | undefined;
  const signals = signalWatch((signal) => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
  try {
    if (command.length === 0) {
      for (const name of ['DISPLAY', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS']) {
        process.stdout.write(`export ${name}='${desktop.env[name]}'\n`);
      }
      process.stderr.write('platynui-inspector: virtual desktop running; press Ctrl-C to stop it\n');
      const ended = await Promise.race([signals.first.then(() => undefined), appFailure]);
      if (ended === undefined) return 0;
      process.stderr.write(`platynui-inspector: ${ended}\n`);
      return EXIT_PROVIDER;
    }
    const [file, ...args] = command as [string, ...string[]];
    const running = desktop.spawnTied(file, args, 'inherit');
    child = running;
    const outcome = await Promise.race([
      new Promise<number>((resolve) => {
        running.once('error', (error) => {
          process.stderr.write(`platynui-inspector: could not run ${file}: ${error.message}\n`);
          resolve(127);
        });
        running.once('exit', (code, signal) => resolve(signal ? signalExitCode(signal) : (code ?? 1)));
      }),
      appFailure.then((message) => {
        process.stderr.write(`platynui-inspector: ${message}\n`);
        running.kill('SIGTERM');
        return EXIT_PROVIDER;
      }),
    ]);
    return outcome;
  } finally {
    signals.off();
    await desktop.stop();
  }
}

export function registerVirtualDesktop(program: Command): void {
  program
    .command('virtual-desktop')
    .description(
      'run a command inside a fresh private virtual desktop (Xvfb, D-Bus, AT-SPI, openbox) with DISPLAY and ' +
        "DBUS_SESSION_BUS_ADDRESS set; exits with the command's status, 3 if the desktop cannot start",
    )
    .argument('[command...]', 'the command and its arguments, after --; none: print the environment, run until Ctrl-C')
    .option('--size <WxH>', 'screen size (default 1920x1080)', parseSizeOption)
    .option('--app <command>', 'start this shell command in the desktop first (repeatable)', collectApp)
    .action(async (command: string[], options: VirtualDesktopOptions) => {
      const status = await runVirtualDesktop(command, options);
      if (status !== 0) throw new CommandExit(status);
    });
}
