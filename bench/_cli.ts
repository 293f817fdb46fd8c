// The user-path benchmark harness: starts the real CLI (bin/platynui-inspector) as a child process, the way a user
// runs it, and times the whole process; baselines (`node -e 0`, libatspi through python3-gi, ...) are timed the same
// way in the same run. Each sample is a new process; figures are the median of the samples with min and max, and
// the peak memory (maximum resident set size) of each process as GNU time reports it. run.mjs skips this file.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The project's root (this file runs as dist/bench/_cli.js). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The CLI as users start it. */
export const cliBin = path.join(projectRoot, 'bin/platynui-inspector');
const GNU_TIME = '/usr/bin/time';

/** One process to time: a program and its arguments. */
export interface ProcessSpec {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Kill the process after this long (default 120 s); a killed run fails the benchmark. */
  timeoutMs?: number;
}

export interface ProcessRun {
  /** Wall time from spawn to exit, milliseconds. */
  ms: number;
  /** Peak resident memory, megabytes (GNU time's maximum resident set size). */
  peakMb: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI with these arguments, as a ProcessSpec. */
export function cli(args: readonly string[], env?: NodeJS.ProcessEnv): ProcessSpec {
  return { command: process.execPath, args: [cliBin, ...args], ...(env ? { env } : {}) };
}

let scratch: string | undefined;
function scratchDir(): string {
  scratch ??= mkdtempSync(path.join(tmpdir(), 'platynui-bench-'));
  return scratch;
}
process.on('exit', () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

let runs = 0;
/** Runs one process to its end under GNU time (for the peak memory); rejects when it fails or times out. */
export function runProcess(spec: ProcessSpec): Promise<ProcessRun> {
  if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} is missing: apt-get install time`);
  const rssFile = path.join(scratchDir(), `rss-${runs++}`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(GNU_TIME, ['-f', '%M', '-o', rssFile, spec.command, ...spec.args], {
      env: spec.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), spec.timeoutMs ?? 120_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (status, signal) => {
      const ms = performance.now() - started;
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      const what = `${path.basename(spec.command)} ${spec.args.join(' ')}`;
      if (signal || status !== 0) {
        reject(new Error(`${what} failed (${signal ?? `exit ${status}`}): ${stderr.slice(-2000)}`));
        return;
      }
      // GNU time writes "Command exited with non-zero status" lines before the figure when the child failed.
      const kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
      resolve({ ms, peakMb: kb / 1024, status, stdout, stderr });
    });
  });
}

export interface Samples {
  name: string;
  runs: ProcessRun[];
  /** Runs that failed and were tried again (a loaded machine makes applications miss their call timeouts). */
  failures?: string[];
}

/**
 * Adds one sample: `attempt` is tried up to `tries` times; each failure is kept (and reported) and the last one
 * fails the benchmark.
 */
export async function sample(into: Samples, attempt: () => Promise<ProcessRun>, tries = 3): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      into.runs.push(await attempt());
      return;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      (into.failures ??= []).push(message);
      if (i >= tries) throw error;
    }
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One `name value unit` line. */
export function line(name: string, value: number, unit: string): void {
  const digits = unit === 'x' || unit === 'load' ? 2 : unit === 'ms' || unit === 'MB' ? 1 : 0;
  process.stdout.write(`${name} ${value.toFixed(digits)} ${unit}\n`);
}

/** The median, min and max wall time and the highest peak memory of the samples. */
export function report(samples: Samples): { medianMs: number; peakMb: number } {
  const ms = samples.runs.map((run) => run.ms);
  const peakMb = Math.max(...samples.runs.map((run) => run.peakMb));
  line(`${samples.name}.median`, median(ms), 'ms');
  line(`${samples.name}.min`, Math.min(...ms), 'ms');
  line(`${samples.name}.max`, Math.max(...ms), 'ms');
  line(`${samples.name}.peak`, peakMb, 'MB');
  if (samples.failures?.length) {
    line(`${samples.name}.failures`, samples.failures.length, 'runs');
    process.stdout.write(`# ${samples.name} failed first with: ${samples.failures[0]!.split('\n')[0]}\n`);
  }
  return { medianMs: median(ms), peakMb };
}

/** `ours` against `baseline`: how many times faster ours is (above 1: faster), from the medians. */
export function ratio(name: string, ours: Samples, baseline: Samples): number {
  const value = median(baseline.runs.map((run) => run.ms)) / median(ours.runs.map((run) => run.ms));
  line(name, value, 'x');
  return value;
}

/** A goal line: `# goal <text>: pass|FAIL (<figure>)`. */
export function goal(text: string, passed: boolean, figure: string): void {
  process.stdout.write(`# goal ${text}: ${passed ? 'pass' : 'FAIL'} (${figure})\n`);
}

/** The machine's load, printed beside the figures (a loaded machine makes every figure slower). */
export function printLoad(when: string): void {
  const [one, five, fifteen] = loadavg();
  process.stdout.write(
    `# load ${when}: ${one!.toFixed(2)} ${five!.toFixed(2)} ${fifteen!.toFixed(2)} (1, 5, 15 min; 2 cores means 2 is full)\n`,
  );
  line(`load.${when}`, one!, 'load');
}

/**
 * Times each named process `count` times, round-robin (one of each per round), so that a change in the machine's
 * load hits them alike.
 */
export async function timeRoundRobin(
  specs: ReadonlyArray<readonly [name: string, spec: ProcessSpec]>,
  count: number,
): Promise<Samples[]> {
  const samples = specs.map(([name]) => ({ name, runs: [] as ProcessRun[] }));
  for (let round = 0; round < count; round++) {
    for (let i = 0; i < specs.length; i++) {
      const [, spec] = specs[i] as readonly [string, ProcessSpec];
      (samples[i] as Samples).runs.push(await runProcess(spec));
    }
  }
  return samples;
}

/** `node -e 0`, the floor every Node process pays, as a ProcessSpec. */
export const NODE_FLOOR: ProcessSpec = { command: process.execPath, args: ['-e', '0'] };

/** The value of `--name N` on the command line, else the fallback. */
export function numberOption(name: string, fallback: number): number {
  const argv = process.argv.slice(2);
  const at = argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** The value of `--name VALUE` on the command line, else undefined. */
export function stringOption(name: string): string | undefined {
  const argv = process.argv.slice(2);
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (!value || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

/**
 * Joins the desktop session this process runs in (DISPLAY and DBUS_SESSION_BUS_ADDRESS set, as under run.mjs), or
 * starts a private one; returns how to stop a started one.
 */
export async function joinDesktopSession(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.DISPLAY && process.env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  const sessionModule = pathToFileURL(path.join(projectRoot, 'scripts', 'desktop', 'session.mjs')).href;
  const { startDesktopSession } = (await import(sessionModule)) as {
    startDesktopSession: () => Promise<{ env: NodeJS.ProcessEnv; stop: () => Promise<void> }>;
  };
  const session = await startDesktopSession();
  Object.assign(process.env, session.env);
  return session.stop;
}

/** The tree of ../shared/checks/gen_tree.py (depth 5, breadth 10): a Window of Panes, Buttons as leaves. */
export function wideTree(depth: number, breadth: number): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<snapshot xmlns="urn:platynui:control" xmlns:item="urn:platynui:item" ',
    'xmlns:app="urn:platynui:app" xmlns:native="urn:platynui:native">\n<Window Name="Main" IsEnabled="true">\n',
  ];
  let n = 0;
  const node = (d: number) => {
    const i = n++;
    if (d === 0) {
      out.push(`<Button Name="b${i}" IsEnabled="true"/>`);
      return;
    }
    out.push(`<Pane Name="p${i}" IsEnabled="true">`);
    for (let k = 0; k < breadth; k++) node(d - 1);
    out.push('</Pane>\n');
  };
  node(depth);
  out.push('</Window>\n</snapshot>\n');
  return out.join('');
}
