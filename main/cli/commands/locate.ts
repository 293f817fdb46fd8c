import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { applicationsReached } from '../../../shared/xpath/fast/reach.js';
import {
  parseExportAction,
  parseExportFormat,
  renderExport,
  type ExportAction,
  type ExportFormat,
} from '../../../shared/export/templates.js';
import { locateSelected } from '../../services/locate.js';
import { addRuntimeOptions, parseTimeout } from '../options.js';
import { openCommandRuntime, type RuntimeCliOptions } from '../command-runtime.js';

interface LocateOptions extends RuntimeCliOptions {
  format: ExportFormat;
  action: ExportAction;
  timeout?: number;
}

export function registerLocate(program: Command): void {
  addRuntimeOptions(
    program
      .command('locate')
      .description('robust, verified locators for every node the XPath selects, as JSON, XPath or test code')
      .argument('<xpath>', 'XPath selecting the nodes to locate; the context is the desktop')
      .option('--format <format>', 'json, xpath, robot, python or dogtail', parseExportFormat, 'json')
      .option('--action <action>', 'what generated code does: none, click, focus or type:<text>', parseExportAction, {
        kind: 'none',
      })
      .option('--timeout <ms>', 'give up evaluating after this many milliseconds (exit 4)', parseTimeout),
  ).action(async (expression: string, options: LocateOptions) => {
    const opened = await openCommandRuntime(options, { prefetch: applicationsReached(expression) });
    try {
      const located = await locateSelected(opened.runtime, opened.xpath, expression, options.timeout);
      if (options.format !== 'json' && located.length === 0) {
        throw new InspectorError('usage', `"${expression}" selected no nodes; nothing to export`);
      }
      process.stdout.write(renderExport(options.format, located, options.action));
    } finally {
      await opened.close();
    }
  });
}
