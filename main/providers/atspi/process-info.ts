import { readFileSync } from 'node:fs';
import { open, readFile, readlink } from 'node:fs/promises';

/** Process metadata of an application from /proc (PlatynUI's Application attributes on Linux). */

export interface ProcessInfo {
  processId: number;
  processName?: string;
  executablePath?: string;
  commandLine?: string;
  userName?: string;
  /** ISO 8601. */
  startTime?: string;
  architecture?: string;
}

const ELF_MACHINES: { readonly [machine: number]: string } = {
  3: 'x86',
  8: 'mips',
  20: 'ppc',
  21: 'ppc64',
  22: 's390x',
  40: 'arm',
  62: 'x86_64',
  183: 'aarch64',
  243: 'riscv64',
};

async function safe<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch {
    return undefined;
  }
}

let passwd: Promise<Map<number, string>> | undefined;

function loadPasswd(): Promise<Map<number, string>> {
  passwd ??= safe(() => readFile('/etc/passwd', 'utf8')).then((text) => {
    const users = new Map<number, string>();
    for (const line of (text ?? '').split('\n')) {
      const parts = line.split(':');
      if (parts.length > 2 && parts[0]) users.set(Number(parts[2]), parts[0]);
    }
    return users;
  });
  return passwd;
}

async function userNameOf(uid: number): Promise<string> {
  return (await loadPasswd()).get(uid) ?? String(uid);
}

let bootTimeMs: number | undefined;

async function bootTime(): Promise<number | undefined> {
  if (bootTimeMs === undefined) {
    const stat = await safe(() => readFile('/proc/stat', 'utf8'));
    const match = stat ? /^btime (\d+)$/m.exec(stat) : null;
    if (match) bootTimeMs = Number(match[1]) * 1000;
  }
  return bootTimeMs;
}

/** Clock ticks per second; 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS = 100;

async function startTimeOf(pid: number): Promise<string | undefined> {
  const stat = await safe(() => readFile(`/proc/${pid}/stat`, 'utf8'));
  if (!stat) return undefined;
  // Field 2 (comm) may contain spaces and parentheses: the fields after the last ')' start at field 3.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(rest[22 - 3]);
  const boot = await bootTime();
  if (!Number.isFinite(ticks) || boot === undefined) return undefined;
  return new Date(boot + (ticks * 1000) / CLOCK_TICKS).toISOString();
}

async function architectureOf(pid: number): Promise<string | undefined> {
  return safe(async () => {
    const handle = await open(`/proc/${pid}/exe`, 'r');
    try {
      const header = Buffer.alloc(20);
      await handle.read(header, 0, 20, 0);
      if (header.readUInt32BE(0) !== 0x7f454c46) return undefined;
      const littleEndian = header[5] === 1;
      const machine = littleEndian ? header.readUInt16LE(18) : header.readUInt16BE(18);
      return ELF_MACHINES[machine] ?? `elf-${machine}`;
    } finally {
      await handle.close();
    }
  });
}

export async function readProcessInfo(pid: number): Promise<ProcessInfo> {
  const [comm, exe, cmdline, status, startTime, architecture] = await Promise.all([
    safe(() => readFile(`/proc/${pid}/comm`, 'utf8')),
    safe(() => readlink(`/proc/${pid}/exe`)),
    safe(() => readFile(`/proc/${pid}/cmdline`, 'utf8')),
    safe(() => readFile(`/proc/${pid}/status`, 'utf8')),
    startTimeOf(pid),
    architectureOf(pid),
  ]);
  const info: ProcessInfo = { processId: pid };
  const args = cmdline ? cmdline.split('\0').filter((arg) => arg.length > 0) : [];
  const name = comm?.trim() || (args[0] ? (args[0].split('/').pop() ?? args[0]) : undefined);
  if (name) info.processName = name;
  if (exe) info.executablePath = exe;
  if (args.length > 0) info.commandLine = args.join(' ');
  const uid = status ? /^Uid:\s+(\d+)/m.exec(status) : null;
  if (uid) {
    const user = await userNameOf(Number(uid[1]));
    if (user) info.userName = user;
  }
  if (startTime) info.startTime = startTime;
  if (architecture) info.architecture = architecture;
  return info;
}

/**
 * True when the process is stopped (SIGSTOP, traced) or gone: it cannot answer. Read synchronously from
 * /proc/<pid>/stat, only when a call is overdue.
 */
export function isProcessStopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state === 'T' || state === 't' || state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}
