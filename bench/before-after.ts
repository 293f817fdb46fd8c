// Benchmark: the same user paths timed for two builds in the same run, interleaved, so the machine's load hits both
// alike: a given git commit ("before", built in a temporary worktree under /tmp with this checkout's node_modules
// linked in) and this checkout ("after", built already). Paths: the commands of cli-startup.ts (`list-providers`,
// `query 'count(/*)' --provider mock`) and the queries of mock-file-query.ts over the same 111,112-node file.
// Prints the median of each path for both builds and after/before (above 1.10: more than 10% slower), with the load.
// The live paths (cli-live-paths.ts on the Chromium table page) are not part of it.
//
//   node dist/bench/before-after.js [--base c07b41d] [--runs 5]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { line, median, printLoad, projectRoot, timeRoundRobin, wideTree, type ProcessSpec } from './_cli.js';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

/** Checks `commit` out into a worktree under /tmp (kept for the next run) and compiles it with tsc; its directory. */
function buildCommit(commit: string): string {
  const sha = execFileSync('git', ['rev-parse', '--short=12', commit], { cwd: projectRoot, encoding: 'utf8' }).trim();
  const dir = path.join(tmpdir(), `platynui-before-${sha}`);
  if (!existsSync(dir)) {
    execFileSync('git', ['worktree', 'add', '--detach', dir, sha], { cwd: projectRoot, stdio: 'inherit' });
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'));
  }
  if (!existsSync(path.join(dir, 'dist/main/cli/index.js'))) {
    process.stdout.write(`# building ${sha} in ${dir} (tsc, no renderer: the CLI does not need it)\n`);
    execFileSync(process.execPath, [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', dir], {
      stdio: 'inherit',
    });
  }
  return dir;
}

async function main(): Promise<void> {
  const base = option('--base', 'c07b41d');
  const runs = Number(option('--runs', '5'));
  if (!existsSync(path.join(projectRoot, 'dist/main/cli/index.js'))) throw new Error('build this checkout first');
  const before = buildCommit(base);
  const wide = path.join(mkdtempSync(path.join(tmpdir(), 'before-after-')), 'wide-5-10.xml');
  writeFileSync(wide, wideTree(5, 10));
  const paths: Array<[string, string[]]> = [
    ['listProviders', ['list-providers']],
    ['query.countTop.mock', ['query', 'count(/*)', '--provider', 'mock']],
    ['mockFile.namedButton', ['query', "//Button[@Name='b111110']", '--mock-file', wide]],
    ['mockFile.paneThirdButton', ['query', "//Pane[@Name='p4']/Button[3]", '--mock-file', wide]],
    ['mockFile.countButtons', ['query', 'count(//Button)', '--mock-file', wide]],
  ];
  const spec = (root: string, args: string[]): ProcessSpec => ({
    command: process.execPath,
    args: [path.join(root, 'bin/platynui-inspector'), ...args],
  });
  printLoad('before');
  const specs = paths.flatMap(([name, args]): Array<[string, ProcessSpec]> => [
    [`before.${name}`, spec(before, args)],
    [`after.${name}`, spec(projectRoot, args)],
  ]);
  const samples = await timeRoundRobin(specs, runs);
  printLoad('after');
  let worst = 0;
  paths.forEach(([name], i) => {
    const was = median(samples[2 * i]!.runs.map((run) => run.ms));
    const now = median(samples[2 * i + 1]!.runs.map((run) => run.ms));
    line(`${name}.before`, was, 'ms');
    line(`${name}.after`, now, 'ms');
    line(`${name}.afterOverBefore`, now / was, 'x');
    worst = Math.max(worst, now / was);
  });
  process.stdout.write(
    `# ${base} vs this checkout, ${runs} runs each, interleaved, whole processes, medians; ` +
      `worst after/before ${worst.toFixed(2)} (${worst <= 1.1 ? 'within' : 'MORE than'} 10% slower)\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
