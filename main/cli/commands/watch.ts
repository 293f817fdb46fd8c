import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import type { UiEventRecord, UiEventType } from '../../../shared/model/ui-events.js';
import { eventLine, isUiEventType, UI_EVENT_TYPES } from '../../../shared/model/ui-events.js';
import { itemJson, itemText } from '../../services/snapshot.js';
import { UiEventWatch } from '../../services/ui-events.js';
import type { XPathItem } from '../../xpath/xpath-service.js';
import { openCommandRuntime, type CommandRuntime, type RuntimeCliOptions } from '../command-runtime.js';
import { addRuntimeOptions, parseMilliseconds } from '../options.js';

interface WatchOptions extends RuntimeCliOptions {
  format: 'text' | 'json';
  events?: UiEventType[];
  duration?: number;
  limit?: number;
  expression?: string;
}

/** Events waiting to be printed at most: a storm past it drops the oldest (counted on stderr at the end). */
const WATCH_BUFFER_LIMIT = 10_000;
const MAX_LIMIT = 1_000_000_000;

export function registerWatch(program: Command): void {
  addRuntimeOptions(
    program
      .command('watch')
      .description('print accessibility events as they happen, one line each, until Ctrl-C, --duration or --limit')
      .argument('[xpath]', 'only events of the elements this selects and of their descendants')
      .option('--format <format>', 'text or json (one JSON object a line)', parseFormat, 'text')
      .option('--events <kinds>', `comma-separated kinds: ${UI_EVENT_TYPES.join(', ')} (default: all)`, parseKinds)
      .option('--duration <ms>', 'stop after this many milliseconds', parseMilliseconds('--duration', 0))
      .option('--limit <n>', 'stop after this many events', parseLimit)
      .option('--expression <xpath>', 'evaluate this again after every event and print its results'),
  ).action(async (xpath: string | undefined, options: WatchOptions) => {
    const opened = await openCommandRuntime(options);
    try {
      await watchUntilDone(opened, xpath, options);
    } finally {
      await opened.close();
    }
  });
}

async function watchUntilDone(opened: CommandRuntime, xpath: string | undefined, options: WatchOptions): Promise<void> {
  let printed = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const expression = options.expression ? new ExpressionPrinter(opened, options.expression, options.format) : undefined;
  if (expression) await expression.start();
  const print = (record: UiEventRecord) => {
    if (options.limit !== undefined && printed >= options.limit) return;
    printed++;
    process.stdout.write(options.format === 'json' ? `${JSON.stringify(record)}\n` : `${eventLine(record)}\n`);
    if (options.limit !== undefined && printed >= options.limit) finish();
    else expression?.changed();
  };
  const watch = await UiEventWatch.start(
    opened.runtime,
    opened.xpath,
    {
      ...(options.events ? { types: options.events } : {}),
      ...(xpath ? { xpath } : {}),
      bufferLimit: WATCH_BUFFER_LIMIT,
      warn: (message) => process.stderr.write(`warning: ${message}\n`),
    },
    print,
  );
  const timer = options.duration !== undefined ? setTimeout(finish, options.duration) : undefined;
  process.once('SIGINT', finish);
  process.once('SIGTERM', finish);
  process.stderr.write(`watching${xpath ? ` ${xpath}` : ''}; press Ctrl-C to stop\n`);
  try {
    await finished;
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', finish);
    process.off('SIGTERM', finish);
    watch.close();
    await expression?.idle();
  }
  const { dropped, coalesced } = watch.counts;
  if (dropped > 0 || coalesced > 0) {
    process.stderr.write(`events merged: ${coalesced}, dropped: ${dropped} (more than ${WATCH_BUFFER_LIMIT} waited)\n`);
  }
}

/** `--expression`: evaluated again after each event (one evaluation at a time; events meanwhile make one more). */
class ExpressionPrinter {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly opened: CommandRuntime,
    private readonly expression: string,
    private readonly format: 'text' | 'json',
  ) {}

  /** Evaluates and prints once before watching (the state events then change); a bad expression fails at once. */
  async start(): Promise<void> {
    const { items } = await this.opened.xpath.evaluate(this.expression);
    await this.print(items);
  }

  changed(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => (this.running = undefined));
  }

  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        const { items } = await this.opened.xpath.evaluate(this.expression);
        await this.print(items);
      } catch (error) {
        process.stderr.write(`warning: --expression failed: ${(error as Error).message}\n`);
      }
    } while (this.again);
  }

  private async print(items: readonly XPathItem[]): Promise<void> {
    const time = new Date().toISOString();
    if (this.format === 'json') {
      const results = await Promise.all(items.map((item) => itemJson(item, { attrs: 'none', includeRuntimeId: true })));
      const line = { time, type: 'expression', expression: this.expression, results };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    } else {
      process.stdout.write(`${time.slice(11, 23)} expression ${JSON.stringify(this.expression)}: ${items.length}\n`);
      for (const item of items) process.stdout.write(`  ${itemText(item)}\n`);
    }
  }
}

function parseFormat(value: string): 'text' | 'json' {
  if (value !== 'text' && value !== 'json') {
    throw new InspectorError('usage', `--format must be text or json, got "${value}"`);
  }
  return value;
}

function parseKinds(value: string): UiEventType[] {
  const kinds = value.split(',').map((kind) => kind.trim());
  const unknown = kinds.filter((kind) => !isUiEventType(kind));
  if (kinds.length === 0 || unknown.length > 0) {
    throw new InspectorError(
      'usage',
      `--events takes kinds among ${UI_EVENT_TYPES.join(', ')}, got "${unknown.join(',') || value}"`,
    );
  }
  return kinds as UiEventType[];
}

function parseLimit(value: string): number {
  const limit = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new InspectorError('usage', `--limit must be a whole number from 1 to ${MAX_LIMIT}, got "${value}"`);
  }
  return limit;
}
