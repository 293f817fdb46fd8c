// `query` over a 111,112-node snapshot file, the CLI started as a child process and timed whole, against libxml2's
// `xmllint --xpath` on the same file in the same run (median of 5 each, the machine's load and `node -e 0` printed
// beside as the floor); then deep files: a legitimate 4,000-level file loaded (`snapshot`, `query`), and a
// 20,000-level file refused with its position. Goals (issues 13 and 14): each query within 3x of xmllint; the deep
// file under 0.5 s, the refusal under 2 s.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, print } from './_stats.js';
import { wideTree } from './_cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/platynui-inspector');
const dir = mkdtempSync(path.join(tmpdir(), 'mock-file-bench-'));
const RUNS = 5;

function deepTree(levels: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<snapshot xmlns="urn:platynui:control">\n${'<Pane Name="p">'.repeat(levels)}${'</Pane>'.repeat(levels)}\n</snapshot>\n`;
}

const GNU_TIME = '/usr/bin/time';
const peakFile = path.join(dir, 'peak');

/**
 * Median wall time in ms of RUNS runs of a command (output discarded), the highest peak memory in MB (GNU time's
 * maximum resident set size; NaN without /usr/bin/time); the last run's exit status and stderr.
 */
function time(
  command: string,
  args: readonly string[],
): { ms: number; peakMb: number; status: number | null; stderr: string } {
  const samples: number[] = [];
  let peakMb = Number.NaN;
  let last = { status: null as number | null, stderr: '' };
  const measured = existsSync(GNU_TIME);
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const run = measured
      ? spawnSync(GNU_TIME, ['-f', '%M', '-o', peakFile, command, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
      : spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
    samples.push(performance.now() - started);
    if (measured) {
      const kb = Number(readFileSync(peakFile, 'utf8').trim().split('\n').pop());
      peakMb = Math.max(Number.isNaN(peakMb) ? 0 : peakMb, kb / 1024);
    }
    last = { status: run.status, stderr: run.stderr };
  }
  return { ms: percentile(samples, 50), peakMb, ...last };
}

const xmllint = spawnSync('xmllint', ['--version']).status === 0;
try {
  const wide = path.join(dir, 'wide-5-10.xml');
  writeFileSync(wide, wideTree(5, 10));
  print('load.before', loadavg()[0]!, 'load');
  print('node.floor', time(process.execPath, ['-e', '0']).ms, 'ms');
  const local = (name: string) => `*[local-name()='${name}']`;
  const queries: Array<[string, string, string]> = [
    ['named-button', "//Button[@Name='b111110']", `//${local('Button')}[@Name='b111110']`],
    ['pane-third-button', "//Pane[@Name='p4']/Button[3]", `//${local('Pane')}[@Name='p4']/${local('Button')}[3]`],
    ['count-buttons', 'count(//Button)', `count(//${local('Button')})`],
  ];
  for (const [name, ours, theirs] of queries) {
    const cli = time(process.execPath, [bin, 'query', ours, '--mock-file', wide]);
    if (cli.status !== 0) throw new Error(`${name}: the CLI failed: ${cli.stderr}`);
    print(`query.${name}.cli`, cli.ms, 'ms');
    print(`query.${name}.cli.peak`, cli.peakMb, 'MB');
    if (!xmllint) continue;
    const lint = time('xmllint', ['--xpath', theirs, wide]);
    print(`query.${name}.xmllint`, lint.ms, 'ms');
    print(`query.${name}.ratio`, cli.ms / lint.ms, 'x (goal <= 3)');
  }
  if (!xmllint) process.stdout.write('xmllint is missing (apt-get install libxml2-utils): no baseline\n');
  const whole = time(process.execPath, [bin, 'snapshot', '--mock-file', wide, '--format', 'json']);
  if (whole.status !== 0) throw new Error(`the snapshot of the whole file failed: ${whole.stderr}`);
  print('snapshot.wide.json.cli', whole.ms, 'ms');
  print('snapshot.wide.json.cli.peak', whole.peakMb, 'MB');

  const deep = path.join(dir, 'deep-4000.xml');
  writeFileSync(deep, deepTree(4000));
  const snapshot = time(process.execPath, [bin, 'snapshot', '--mock-file', deep]);
  if (snapshot.status !== 0) throw new Error(`snapshot of 4,000 levels failed: ${snapshot.stderr}`);
  print('deep4000.snapshot.cli', snapshot.ms, 'ms (goal < 500)');
  print('deep4000.snapshot.cli.peak', snapshot.peakMb, 'MB');
  const count = time(process.execPath, [bin, 'query', 'count(//*)', '--mock-file', deep]);
  print('deep4000.query.cli', count.ms, 'ms (goal < 500)');
  const tooDeep = path.join(dir, 'deep-20000.xml');
  writeFileSync(tooDeep, deepTree(20_000));
  const refused = time(process.execPath, [bin, 'query', 'count(//*)', '--mock-file', tooDeep]);
  if (refused.status !== 2 || !/deep-20000\.xml:3:\d+: nodes are nested deeper/.test(refused.stderr))
    throw new Error(`the 20,000-level file was not refused with its position: ${refused.stderr}`);
  print('deep20000.refused.cli', refused.ms, 'ms (goal < 2000)');
  print('load.after', loadavg()[0]!, 'load');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
