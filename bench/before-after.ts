// Benchmark: the same user paths timed for two builds in the same run, interleaved, so the machine's load hits both
// alike: a given git commit ("before", built in a temporary worktree under /tmp with this checkout's node_modules
// linked in) and this checkout ("after", built already). Paths: the commands of cli-startup.ts (`list-providers`,
// `query 'count(/*)' --provider mock`) and the queries of mock-file-query.ts over the same 111,112-node file.
// Prints the median of each path for both builds and after/before (above 1.10: more than 10% slower), with the load.
// The live paths (cli-live-paths.ts on the Chromium table page) are not part of it.
// Then a warm query through `serve` (both builds' hosts running at once over the same file, queried in turn): from
// sending `evaluate` of `//Button` (100,000 results) with a page size of 500 on the WebSocket protocol to its answer
// carrying the first page, after one query that brought the tree to the XPath worker.
//
//   node dist/bench/before-after.js [--base c07b41d] [--runs 5] [--serve-runs 10] [--only-serve]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectClient, startServe } from '../e2e/support/inspector.js';
import { terminate } from '../e2e/support/processes.js';
import type { InspectorClient } from '../shared/api/client.js';
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

const SERVE_QUERY = '//Button';
const SERVE_PAGE = 500;

/** One warm `evaluate` with a first page: its time from sending to the answer, and the answer's count. */
async function timedEvaluate(client: InspectorClient): Promise<{ ms: number; count: number }> {
  const started = performance.now();
  const answer = await client.evaluate(SERVE_QUERY, { pageSize: SERVE_PAGE, timeoutMs: 300_000 }).done;
  const ms = performance.now() - started;
  if (answer.items?.length !== Math.min(SERVE_PAGE, answer.count)) throw new Error('the answer had no first page');
  return { ms, count: answer.count };
}

/** Each build's `serve --mock-file` over `file`, its warm query timed `runs` times, the builds in turn. */
async function timeServe(roots: readonly string[], file: string, runs: number): Promise<number[][]> {
  const config = mkdtempSync(path.join(tmpdir(), 'before-after-serve-'));
  const hosts = await Promise.all(
    roots.map((root) => startServe({ ...process.env, XDG_CONFIG_HOME: config }, ['--mock-file', file], root)),
  );
  const clients: InspectorClient[] = [];
  try {
    for (const { url } of hosts) clients.push(await connectClient(url));
    for (const client of clients) await timedEvaluate(client); // brings the tree to the worker
    const times = clients.map(() => [] as number[]);
    const counts = new Set<number>();
    for (let round = 0; round < runs; round++) {
      for (const [i, client] of clients.entries()) {
        const { ms, count } = await timedEvaluate(client);
        times[i]!.push(ms);
        counts.add(count);
      }
    }
    if (counts.size !== 1) throw new Error(`the builds answered different counts: ${[...counts].join(', ')}`);
    return times;
  } finally {
    for (const client of clients) client.close();
    await terminate(
      hosts.flatMap(({ host }) => (host.pid === undefined ? [] : [host.pid])),
      5000,
    );
  }
}

/** Prints before, after and after/before of one path; returns after/before. */
function compare(name: string, before: readonly number[], after: readonly number[]): number {
  const was = median(before);
  const now = median(after);
  line(`${name}.before`, was, 'ms');
  line(`${name}.after`, now, 'ms');
  line(`${name}.afterOverBefore`, now / was, 'x');
  return now / was;
}

async function main(): Promise<void> {
  const base = option('--base', 'c07b41d');
  const runs = Number(option('--runs', '5'));
  const serveRuns = Number(option('--serve-runs', '10'));
  const onlyServe = process.argv.includes('--only-serve');
  if (!existsSync(path.join(projectRoot, 'dist/main/cli/index.js'))) throw new Error('build this checkout first');
  const before = buildCommit(base);
  const wide = path.join(mkdtempSync(path.join(tmpdir(), 'before-after-')), 'wide-5-10.xml');
  writeFileSync(wide, wideTree(5, 10));
  let worst = 0;
  if (!onlyServe) {
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
    paths.forEach(([name], i) => {
      const ms = (at: number) => samples[at]!.runs.map((run) => run.ms);
      worst = Math.max(worst, compare(name, ms(2 * i), ms(2 * i + 1)));
    });
    process.stdout.write(`# CLI paths: ${runs} runs each, interleaved, whole processes, medians\n`);
  }
  printLoad('serveBefore');
  const [serveBefore, serveAfter] = await timeServe([before, projectRoot], wide, serveRuns);
  printLoad('serveAfter');
  worst = Math.max(worst, compare('serve.warmAllButtons', serveBefore!, serveAfter!));
  process.stdout.write(
    `# serve: warm ${SERVE_QUERY} with a first page of ${SERVE_PAGE}, ${serveRuns} runs each, in turn, medians\n` +
      `# ${base} vs this checkout: worst after/before ${worst.toFixed(2)} ` +
      `(${worst <= 1.1 ? 'within' : 'MORE than'} 10% slower)\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
