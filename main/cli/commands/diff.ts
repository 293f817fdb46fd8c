import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { formatSnapshotDiff } from '../../../shared/snapshot/diff.js';
import { diffSnapshotTexts, readSnapshotFile } from '../../services/snapshot-diff.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';

interface DiffOptions {
  format: 'text' | 'json';
}

/** `diff <a.xml> <b.xml>`: exit 0 when the snapshots are the same, 1 when they differ, 2 for bad input. */
export function registerDiff(program: Command): void {
  program
    .command('diff')
    .description('compare two snapshot files: nodes added, removed and changed, with their attributes')
    .argument('<before>', 'snapshot file (the `snapshot` command writes them)')
    .argument('<after>', 'snapshot file to compare with it')
    .option('--format <format>', 'text or json', parseFormat, 'text')
    .action((before: string, after: string, options: DiffOptions) => {
      const diff = diffSnapshotTexts(readSnapshotFile(before), readSnapshotFile(after));
      process.stdout.write(options.format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : formatSnapshotDiff(diff));
      process.exitCode = diff.same ? EXIT_OK : EXIT_FAILURE;
    });
}

function parseFormat(value: string): 'text' | 'json' {
  if (value !== 'text' && value !== 'json')
    throw new InspectorError('usage', `--format must be text or json, got "${value}"`);
  return value;
}
