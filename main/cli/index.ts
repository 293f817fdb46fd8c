import '../backends/linux.js';
import { Command, CommanderError } from 'commander';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
import { registerEnableAccessibility, registerInfo, registerListProviders } from './commands/info.js';
import { registerQuery } from './commands/query.js';
import { registerSnapshot } from './commands/snapshot.js';
import { EXIT_USAGE, exitCodeFor } from './exit-codes.js';
import { registerExtraCommands } from './commands/index.js';

/** `platynui-inspector`: the command-line front end. Its names and output shapes are a contract. */
export function buildProgram(): Command {
  const program = new Command('platynui-inspector')
    .description('Inspect the accessibility tree of the desktop, evaluate XPath, snapshot and export selectors.')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
    .showHelpAfterError(false);
  registerInfo(program);
  registerListProviders(program);
  registerEnableAccessibility(program);
  registerQuery(program);
  registerSnapshot(program);
  registerExtraCommands(program);
  return program;
}

export async function runCli(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    // A command whose outcome is more than success (check: findings) sets the exit code itself.
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      return EXIT_USAGE;
    }
    const failure = error instanceof InspectorError ? error : toInspectorError(error);
    process.stderr.write(`platynui-inspector: ${failure.message}\n`);
    return exitCodeFor(failure.code);
  }
}
