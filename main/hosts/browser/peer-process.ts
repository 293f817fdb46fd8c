import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** The two ends of a loopback TCP connection as the host sees them. */
export interface LoopbackConnection {
  /** The host's port (the client's remote port). */
  localPort: number;
  /** The client's port. */
  remotePort: number;
}

/**
 * The processes at the other end of a loopback connection (Linux, through /proc): the process holding the client's
 * socket, and its ancestors running the same executable. A browser's network service holds the socket while its
 * main process shows the window: both are named, so that the window showing the inspector's page is its own.
 * Empty when the socket's owner cannot be seen (another user's process, no /proc).
 */
export function peerProcessIds(connection: LoopbackConnection, procRoot = '/proc'): number[] {
  const inode = clientSocketInode(connection, procRoot);
  if (inode === undefined) return [];
  const owner = socketOwner(inode, procRoot);
  if (owner === undefined) return [];
  const ids = [owner];
  const executable = executableOf(owner, procRoot);
  for (let parent = parentOf(owner, procRoot); parent !== undefined && parent > 1;) {
    if (executable === undefined || executableOf(parent, procRoot) !== executable) break;
    ids.push(parent);
    parent = parentOf(parent, procRoot);
  }
  return ids;
}

/** The inode of the client's socket: local port the client's, remote port the host's (IPv4 or IPv6). */
function clientSocketInode(connection: LoopbackConnection, procRoot: string): string | undefined {
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(path.join(procRoot, 'net', table), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      if (portOf(fields[1]!) === connection.remotePort && portOf(fields[2]!) === connection.localPort) {
        const inode = fields[9]!;
        if (inode !== '0') return inode;
      }
    }
  }
  return undefined;
}

const portOf = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);

function socketOwner(inode: string, procRoot: string): number | undefined {
  const wanted = `socket:[${inode}]`;
  for (const entry of safeList(procRoot)) {
    if (!/^\d+$/.test(entry)) continue;
    const fdDir = path.join(procRoot, entry, 'fd');
    for (const fd of safeList(fdDir)) {
      try {
        if (readlinkSync(path.join(fdDir, fd)) === wanted) return Number(entry);
      } catch {
        // the descriptor closed meanwhile
      }
    }
  }
  return undefined;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function executableOf(pid: number, procRoot: string): string | undefined {
  try {
    return readlinkSync(path.join(procRoot, String(pid), 'exe'));
  } catch {
    return undefined;
  }
}

function parentOf(pid: number, procRoot: string): number | undefined {
  try {
    const stat = readFileSync(path.join(procRoot, String(pid), 'stat'), 'utf8');
    // pid (comm) state ppid ...: the command may hold spaces and parentheses, so read after its last ')'
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}
