import type { Command } from 'commander';
import { InspectorError } from '../../shared/model/errors.js';
import { addRuntimeOptions, runtimeOptionsFrom, type RuntimeFlags } from '../backends/flags.js';
import { packageVersion } from '../services/package-info.js';
import { DEFAULT_ACTIONS_PER_SECOND, McpContext } from './context.js';

interface McpOptions extends RuntimeFlags {
  actionsPerSecond: number;
}

const MAX_ACTIONS_PER_SECOND = 1000;
/** How long the SDK waits for the trees to be asked for before it loads anyway (an application slow to answer). */
const MAX_WAIT_FOR_TREES_REQUESTED_MS = 300;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function parseActionsPerSecond(value: string): number {
  const rate = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(rate >= 1 && rate <= MAX_ACTIONS_PER_SECOND)) {
    throw new InspectorError(
      'usage',
      `--actions-per-second must be a whole number from 1 to ${MAX_ACTIONS_PER_SECOND}, got "${value}"`,
    );
  }
  return rate;
}

/**
 * stdout carries the protocol alone: whatever else would print there (a library's console.log) goes to stderr.
 */
function keepStdoutForProtocol(): void {
  const toStderr = (...values: unknown[]) => console.error(...values);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

export function registerMcp(program: Command): void {
  addRuntimeOptions(
    program
      .command('mcp')
      .description(
        'a Model Context Protocol server over stdio: agents read the tree and act (tools ui_tree, ui_query, ui_act ...)',
      )
      .option(
        '--actions-per-second <n>',
        'ui_act calls allowed per second; more are refused as rate-limited',
        parseActionsPerSecond,
        DEFAULT_ACTIONS_PER_SECOND,
      ),
  ).action(async (options: McpOptions) => {
    keepStdoutForProtocol();
    // The providers connect and the applications' trees are asked for first; the SDK and the tools' modules (a few
    // hundred milliseconds of the main thread) load while the applications answer. Loaded side by side, the modules
    // held the first calls back until they were all in.
    const context = await McpContext.open(runtimeOptionsFrom(options), { actionsPerSecond: options.actionsPerSecond });
    let modules: [typeof import('./server.js'), typeof import('./sdk.js')];
    try {
      await Promise.race([context.treesRequested, delay(MAX_WAIT_FOR_TREES_REQUESTED_MS)]);
      modules = await Promise.all([import('./server.js'), import('./sdk.js')]);
    } catch (error) {
      await context.close();
      throw error;
    }
    const [{ createMcpServer }, { StdioServerTransport }] = modules;
    const { server, close } = createMcpServer(context, packageVersion());
    const transport = new StdioServerTransport();
    let finished: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finished = resolve));
    // The client ends the context by closing our stdin (or by a signal).
    transport.onclose = () => finished();
    process.stdin.once('end', () => finished());
    process.once('SIGINT', () => finished());
    process.once('SIGTERM', () => finished());
    await server.connect(transport);
    try {
      await done;
    } finally {
      close();
      await server.close().catch(() => undefined);
      await context.close();
    }
  });
}
