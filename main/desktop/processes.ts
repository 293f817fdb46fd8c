// Process bookkeeping for the virtual desktop (Linux /proc): a process family, strays found by an environment marker,
// and stopping by PID: SIGTERM, a grace period, then SIGKILL.
import { readdirSync, readFileSync } from 'node:fs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function processIds(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) if (/^\d+$/.test(entry)) out.push(Number(entry));
  return out;
}

/** The PPID field of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Children, grandchildren, ... of the given PIDs. */
export function descendantsOf(pids: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const pid of processIds()) {
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out = new Set<number>();
  const stack = [...pids];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop() as number) ?? []) {
      if (!out.has(child)) {
        out.add(child);
        stack.push(child);
      }
    }
  }
  return [...out];
}

/** PIDs of processes whose environment holds `name=value`; this process and its ancestors are never listed. */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}\0`;
  const exclude = new Set<number>();
  for (let p: number | undefined = process.pid; p !== undefined && p > 0 && !exclude.has(p); p = parentOf(p)) {
    exclude.add(p);
  }
  const out: number[] = [];
  for (const pid of processIds()) {
    if (exclude.has(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle)) out.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Alive and not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false;
  }
}

export function sendSignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the PIDs are gone or `timeoutMs` passed; returns those still alive. */
export async function waitGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(20);
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** SIGTERM, up to `graceMs` to go, then SIGKILL. Returns the PIDs that needed SIGKILL. */
export async function terminate(pids: readonly number[], graceMs = 3000): Promise<number[]> {
  const list = [...new Set(pids)].filter(isAlive);
  for (const pid of list) sendSignal(pid, 'SIGTERM');
  const left = await waitGone(list, graceMs);
  for (const pid of left) sendSignal(pid, 'SIGKILL');
  await waitGone(left, 1000);
  return left;
}
