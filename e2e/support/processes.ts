// Process bookkeeping for test helpers: find a process's descendants and strays (by an environment marker), and
// stop them by PID: SIGTERM, a grace period, then SIGKILL.
import { readdirSync, readFileSync } from 'node:fs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function procEntries(): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Children, grandchildren, ... of the given PIDs. */
export function descendantsOf(pids: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const pid of procEntries()) {
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out = new Set<number>();
  const stack = [...pids];
  while (stack.length) {
    for (const c of children.get(stack.pop() as number) ?? []) {
      if (!out.has(c)) {
        out.add(c);
        stack.push(c);
      }
    }
  }
  return [...out];
}

/** PIDs of processes whose environment holds `name=value` (this process and its ancestors excluded). */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}\0`;
  const exclude = new Set<number>();
  for (let p: number | undefined = process.pid; p !== undefined && p > 0 && !exclude.has(p); p = parentOf(p)) {
    exclude.add(p);
  }
  const out: number[] = [];
  for (const pid of procEntries()) {
    if (exclude.has(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle)) out.push(pid);
    } catch {
      // gone or not readable
    }
  }
  return out;
}

/** True while the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

export async function waitGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length && Date.now() < deadline) {
    await sleep(25);
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** SIGTERM the PIDs, wait up to graceMs, SIGKILL the rest. Returns the PIDs that needed SIGKILL. */
export async function terminate(pids: number[], graceMs = 3000): Promise<number[]> {
  const list = [...new Set(pids)].filter(isAlive);
  for (const pid of list) signal(pid, 'SIGTERM');
  const left = await waitGone(list, graceMs);
  for (const pid of left) signal(pid, 'SIGKILL');
  await waitGone(left, 2000);
  return left;
}
