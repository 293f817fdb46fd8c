import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CheckConfigError, EMPTY_CHECK_CONFIG, type CheckConfig } from '../../../shared/checks/config.js';
import { failsAt } from '../../../shared/checks/engine.js';
import { SEVERITIES, type Severity } from '../../../shared/checks/model.js';
import { CHECK_FORMATS, formatCheckReport, type CheckFormat } from '../../../shared/checks/report/formats.js';
import { RULES } from '../../../shared/checks/rules/index.js';
import { InspectorError, toInspectorError } from '../../../shared/model/errors.js';
import { subtreesReached, topLevelSelection } from '../../../shared/xpath/fast/reach.js';
import { EXIT_FAILURE } from '../exit-codes.js';
import { addRuntimeOptions, parseMilliseconds, parseTimeout } from '../options.js';
import { openCommandRuntime, type RuntimeCliOptions } from '../command-runtime.js';
import { checkTool } from '../../services/package-info.js';
import type { TabOrderOptions } from '../../services/tab-order.js';
import type { PlatformBundle } from '../../core/platform.js';

/** `check`'s own exit codes: 1 means findings at or above --fail-on and nothing else; 70 an internal failure. */
const EXIT_FINDINGS = EXIT_FAILURE;
const EXIT_INTERNAL = 70;

interface CheckOptions extends RuntimeCliOptions {
  format: CheckFormat;
  rules?: Set<string>;
  failOn: Severity | 'never';
  config?: string;
  timeout?: number;
  tabOrder?: boolean;
  tabMarkers?: boolean;
  tabTimeLimit?: number;
}

function parseFormat(value: string): CheckFormat {
  if (!(CHECK_FORMATS as readonly string[]).includes(value)) {
    throw new InspectorError('usage', `--format must be one of ${CHECK_FORMATS.join(', ')}, got "${value}"`);
  }
  return value as CheckFormat;
}

function parseRules(value: string): Set<string> {
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !RULES.some((rule) => rule.id === id));
  if (ids.length === 0 || unknown.length > 0) {
    throw new InspectorError(
      'usage',
      `--rules: unknown rule ${unknown.join(', ') || '(none given)'}; rules are ${RULES.map((r) => r.id).join(', ')}`,
    );
  }
  return new Set(ids);
}

function parseFailOn(value: string): Severity | 'never' {
  if (value !== 'never' && !(SEVERITIES as readonly string[]).includes(value)) {
    throw new InspectorError('usage', `--fail-on must be error, warning, info or never, got "${value}"`);
  }
  return value as Severity | 'never';
}

async function loadConfig(file: string | undefined): Promise<CheckConfig> {
  if (!file) return EMPTY_CHECK_CONFIG;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InspectorError(
      'usage',
      `--config ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  // The parser (zod) is loaded only for a run with a config file.
  const { parseCheckConfig } = await import('../../../shared/checks/config-file.js');
  try {
    return parseCheckConfig(text, file);
  } catch (error) {
    if (error instanceof CheckConfigError) throw new InspectorError('usage', error.message);
    throw error;
  }
}

export function registerCheck(program: Command): void {
  addRuntimeOptions(
    program
      .command('check')
      .description('accessibility checks over the subtrees the XPath selects (default: every application)')
      .argument('[xpath]', 'XPath selecting the subtrees to check')
      .option('--format <format>', CHECK_FORMATS.join(', '), parseFormat, 'text')
      .option('--rules <ids>', 'only these rules, comma-separated', parseRules)
      .option(
        '--fail-on <severity>',
        'exit 1 on findings at or above: error, warning, info or never',
        parseFailOn,
        'error',
      )
      .option('--config <file>', 'JSON: rules switched off or re-graded, findings ignored by locator')
      .option('--timeout <ms>', 'give up evaluating an XPath after this many milliseconds (exit 4)', parseTimeout)
      .option('--tab-order', 'walk the tab order with the keyboard: unreachable elements and focus traps')
      .option('--tab-markers', 'with --tab-order: number the stops on the screen while walking')
      .option(
        '--tab-time-limit <ms>',
        'with --tab-order: stop walking after this many milliseconds (default 30000)',
        parseMilliseconds('--tab-time-limit', 1),
      ),
  ).action(async (xpath: string | undefined, options: CheckOptions) => {
    if (!options.tabOrder && (options.tabMarkers || options.tabTimeLimit !== undefined)) {
      throw new InspectorError('usage', '--tab-markers and --tab-time-limit go with --tab-order');
    }
    const config = await loadConfig(options.config);
    // The trees to check start loading while the XPath worker starts; a check of applications by name, or of the
    // desktop, without ignore locators evaluates no XPath and starts no worker.
    const evaluatesXPath = (xpath !== undefined && !topLevelSelection(xpath)) || config.ignore.length > 0;
    const opened = await openCommandRuntime(options, { prefetch: subtreesReached(xpath), xpath: evaluatesXPath });
    try {
      // The check's own modules load while the application answers the bulk load.
      const [{ checkAccessibility }, { bestLocatorOfEach }] = await Promise.all([
        import('../../services/accessibility-check.js'),
        import('../../services/locate.js'),
      ]);
      const timeout = options.timeout !== undefined ? { timeoutMs: options.timeout } : {};
      const tabOrder = options.tabOrder ? await tabOrderOptions(opened.runtime.platform, options) : undefined;
      const {
        report,
        locatorOf,
        tabOrder: walks,
      } = await checkAccessibility(opened.runtime, opened.xpath, {
        ...(xpath ? { xpath } : {}),
        config,
        ...(tabOrder ? { tabOrder } : {}),
        ...(options.rules ? { only: options.rules } : {}),
        ...timeout,
        locate: (targets, held) => bestLocatorOfEach(opened.runtime, targets, held),
      });
      await opened.runtime.platform?.highlight?.clear();
      // The order goes beside the report: into the text report, to stderr beside the machine-read formats.
      const order = walks ? (await import('../../services/tab-order.js')).formatTabOrder(walks) : '';
      if (options.format === 'text') process.stdout.write(order);
      else process.stderr.write(order);
      process.stdout.write(formatCheckReport(report, options.format, locatorOf, checkTool()));
      if (failsAt(report, options.failOn)) process.exitCode = EXIT_FINDINGS;
    } catch (error) {
      const failure = toInspectorError(error);
      if (failure.code !== 'internal') throw failure;
      process.stderr.write(`platynui-inspector: ${failure.message}\n`);
      process.exitCode = EXIT_INTERNAL;
    } finally {
      await opened.close();
    }
  });
}

/** The walk's options; the walk (keyboard, focus events, windows) is loaded only for a run with --tab-order. */
async function tabOrderOptions(platform: PlatformBundle | undefined, options: CheckOptions): Promise<TabOrderOptions> {
  const { tabMarkers } = await import('../../services/tab-order.js');
  const highlight = options.tabMarkers ? platform?.highlight : undefined;
  if (options.tabMarkers && !highlight) {
    throw new InspectorError(
      'unsupported',
      `--tab-markers: the ${platform?.id ?? 'missing'} platform draws no highlight`,
    );
  }
  return {
    ...(options.tabTimeLimit !== undefined ? { timeLimitMs: options.tabTimeLimit } : {}),
    warn: (message) => process.stderr.write(`warning: ${message}\n`),
    ...(highlight ? { onStep: (_window, order) => highlight.highlight(tabMarkers(order)) } : {}),
  };
}
