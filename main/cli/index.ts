import '../backends/linux.js';
import { Command, CommanderError } from 'commander';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
import { CommandExit, EXIT_USAGE, exitCodeFor } from './exit-codes.js';
import { packageVersion } from '../services/package-info.js';

type Register = (program: Command) => void;

/**
 * Every command of the CLI, in the order help lists them, with the module that defines it. Its names and output
 * shapes are a contract. A run loads only the module of the command it names (each module then loads what its
 * command needs), so that `list-providers` does not load D-Bus, X11, the browser host or the XPath engines; help,
 * a missing or an unknown command load them all.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<Register>]> = [
  ['info', async () => (await import('./commands/info.js')).registerInfo],
  ['list-providers', async () => (await import('./commands/info.js')).registerListProviders],
  ['enable-accessibility', async () => (await import('./commands/info.js')).registerEnableAccessibility],
  ['query', async () => (await import('./commands/query.js')).registerQuery],
  ['snapshot', async () => (await import('./commands/snapshot.js')).registerSnapshot],
  ['locate', async () => (await import('./commands/locate.js')).registerLocate],
  ['highlight', async () => (await import('./commands/highlight.js')).registerHighlight],
  ['screenshot', async () => (await import('./commands/screenshot.js')).registerScreenshot],
  ['pointer', async () => (await import('./commands/pointer.js')).registerPointer],
  ['keyboard', async () => (await import('./commands/keyboard.js')).registerKeyboard],
  ['window', async () => (await import('./commands/window.js')).registerWindow],
  ['focus', async () => (await import('./commands/window.js')).registerFocus],
  ['select', async () => (await import('./commands/window.js')).registerSelect],
  ['pick', async () => (await import('./commands/pick.js')).registerPick],
  ['record', async () => (await import('./commands/record.js')).registerRecord],
  ['watch', async () => (await import('./commands/watch.js')).registerWatch],
  ['serve', async () => (await import('../hosts/browser/command.js')).registerServe],
  ['check', async () => (await import('./commands/check.js')).registerCheck],
  ['diff', async () => (await import('./commands/diff.js')).registerDiff],
  ['virtual-desktop', async () => (await import('./commands/virtual-desktop.js')).registerVirtualDesktop],
  ['mcp', async () => (await import('../mcp/command.js')).registerMcp],
];

export const COMMAND_NAMES: readonly string[] = COMMANDS.map(([name]) => name);

/**
 * `platynui-inspector` with the named commands defined, or every command when `only` is undefined (help and errors
 * about unknown commands then see them all).
 */
export async function buildProgram(only?: string): Promise<Command> {
  const program = new Command('platynui-inspector')
    .description('Inspect the accessibility tree of the desktop, evaluate XPath, snapshot and export selectors.')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
    .showHelpAfterError(false)
    .version(packageVersion(), '-V, --version', 'print the version and exit');
  const wanted = COMMANDS.filter(([name]) => only === undefined || name === only);
  const registers = await Promise.all(wanted.map(([, load]) => load()));
  for (const register of registers) register(program);
  return program;
}

/** The command a command line names: its first word, when that is one of the CLI's commands. */
export function commandNamed(argv: readonly string[]): string | undefined {
  const first = argv[0];
  return first !== undefined && COMMAND_NAMES.includes(first) ? first : undefined;
}

export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    // The version needs no command: none is loaded for it.
    const askedVersion = argv[0] === '--version' || argv[0] === '-V';
    const program = await buildProgram(askedVersion ? '' : commandNamed(argv));
    await program.parseAsync([...argv], { from: 'user' });
    // A command whose outcome is more than success (check: findings) sets the exit code itself.
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommandExit) return error.status;
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      return EXIT_USAGE;
    }
    const failure = error instanceof InspectorError ? error : toInspectorError(error);
    process.stderr.write(`platynui-inspector: ${failure.message}\n`);
    return exitCodeFor(failure.code);
  }
}
