import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InspectorError } from '../../shared/model/errors.js';

/**
 * The running `highlight` commands of this user on one display, so that `highlight --clear` can end them. Each one
 * holds a file `<display>.<pid>.json` in a private directory of the user (XDG_RUNTIME_DIR, else a 0700 directory of
 * the user's own in the temporary directory) naming its process and the process's start time; the file goes when the
 * command ends. A file whose process is gone, or whose pid now belongs to another process (another start time), is
 * stale: `--clear` removes it and signals nothing.
 */

export interface HighlightEntry {
  pid: number;
  /** The process's start time in clock ticks after boot (/proc/<pid>/stat, field 22): tells a reused pid apart. */
  startTime: string;
  display: string;
}

export interface ClearResult {
  /** Processes that were asked to end and did. */
  ended: number[];
  /** Processes that were asked to end and were still running when the wait was over. */
  running: number[];
  /** Files whose process was gone or was another one. */
  stale: number;
}

/** How long `--clear` waits for the highlights it signalled to end. */
const END_WAIT_MS = 3000;
/** The most entries one clear looks at: a directory of the user's own holds only what their commands wrote. */
const MAX_ENTRIES = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The display a highlight belongs to: DISPLAY without its screen number (":1.0" and ":1" are one display). */
export function displayKey(display: string | undefined): string {
  const value = display ?? '';
  const withoutScreen = value.replace(/\.\d+$/, '');
  return withoutScreen.replace(/[^A-Za-z0-9:_-]/g, '_').replace(/:/g, '_') || 'no-display';
}

/** The directory of this user's entries, made private (0700) and checked to be theirs. */
export function registryDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const uid = process.getuid?.() ?? 0;
  const base = env.XDG_RUNTIME_DIR
    ? path.join(env.XDG_RUNTIME_DIR, 'platynui-inspector')
    : path.join(tmpdir(), `platynui-inspector-${uid}`);
  const directory = path.join(base, 'highlights');
  for (const dir of [base, directory]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
      throw new InspectorError(
        'action-failed',
        `${dir} is not a private directory of this user (it must be a directory of uid ${uid} with mode 0700)`,
      );
    }
  }
  return directory;
}

/** A process's start time and whether it has ended (a zombie), or undefined when there is no such process. */
function processState(pid: number): { startTime: string; ended: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after it follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { startTime: fields[19] ?? '', ended: fields[0] === 'Z' };
  } catch {
    return undefined;
  }
}

const isRunning = (pid: number) => processState(pid)?.ended === false;

/** Enters this process as a running highlight of the display; the returned function (also run on exit) removes it. */
export function enterRunningHighlight(display: string | undefined, env: NodeJS.ProcessEnv = process.env): () => void {
  const file = path.join(registryDirectory(env), `${displayKey(display)}.${process.pid}.json`);
  const entry: HighlightEntry = {
    pid: process.pid,
    startTime: processState(process.pid)?.startTime ?? '',
    display: display ?? '',
  };
  writeFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  const remove = () => {
    process.off('exit', remove);
    rmSync(file, { force: true });
  };
  process.on('exit', remove);
  return remove;
}

function readEntry(file: string): HighlightEntry | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<HighlightEntry>;
    if (
      typeof value.pid === 'number' &&
      Number.isInteger(value.pid) &&
      value.pid > 0 &&
      typeof value.startTime === 'string'
    ) {
      return { pid: value.pid, startTime: value.startTime, display: String(value.display ?? '') };
    }
  } catch {
    // unreadable: stale
  }
  return undefined;
}

/**
 * Ends every running highlight of this user on the display (SIGTERM: each clears its frame and exits 0), removes
 * stale entries, and waits a little for them to be gone.
 */
export async function clearHighlights(
  display: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ClearResult> {
  const directory = registryDirectory(env);
  const prefix = `${displayKey(display)}.`;
  const names = readdirSync(directory)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.json'))
    .slice(0, MAX_ENTRIES);
  const signalled: number[] = [];
  let stale = 0;
  for (const name of names) {
    const file = path.join(directory, name);
    const entry = readEntry(file);
    if (entry?.pid === process.pid) continue;
    const state = entry && processState(entry.pid);
    const alive = entry !== undefined && state !== undefined && !state.ended && state.startTime === entry.startTime;
    if (!alive) {
      rmSync(file, { force: true });
      stale++;
      continue;
    }
    try {
      process.kill(entry.pid, 'SIGTERM');
      signalled.push(entry.pid);
    } catch {
      rmSync(file, { force: true });
      stale++;
    }
  }
  const deadline = Date.now() + END_WAIT_MS;
  let running = signalled;
  while (running.length > 0 && Date.now() < deadline) {
    await sleep(20);
    running = running.filter(isRunning);
  }
  return { ended: signalled.filter((pid) => !running.includes(pid)), running, stale };
}
