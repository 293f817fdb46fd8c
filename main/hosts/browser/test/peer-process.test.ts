import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { processExcluder } from '../../../platform/x11/factory.js';
import { peerProcessIds } from '../peer-process.js';

test('names the process at the other end of a real loopback connection', async () => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const client = spawn(
    process.execPath,
    ['-e', `require('net').connect(${port}, '127.0.0.1'); setInterval(() => {}, 1000);`],
    { stdio: 'ignore' },
  );
  try {
    const [socket] = (await once(server, 'connection')) as [Socket];
    const ids = peerProcessIds({ localPort: socket.localPort!, remotePort: socket.remotePort! });
    assert.equal(ids[0], client.pid, `the client's process first: ${ids.join(',')}`);
    socket.destroy();
    assert.deepEqual(peerProcessIds({ localPort: port, remotePort: 1 }), [], 'no such connection');
  } finally {
    client.kill();
    server.close();
  }
});

test("the socket's owner and its ancestors running the same executable (a browser's network service and main process)", () => {
  const proc = mkdtempSync(path.join(tmpdir(), 'peer-proc-'));
  try {
    const processes: Array<[pid: number, ppid: number, exe: string, sockets: string[]]> = [
      [100, 1, '/bin/bash', []],
      [200, 100, '/opt/browser/chrome', ['socket:[111]']],
      [300, 200, '/opt/browser/chrome', ['pipe:[5]', 'socket:[4242]']],
      [400, 1, '/usr/bin/other', ['socket:[999]']],
    ];
    for (const [pid, ppid, exe, fds] of processes) {
      mkdirSync(path.join(proc, String(pid), 'fd'), { recursive: true });
      symlinkSync(exe, path.join(proc, String(pid), 'exe'));
      // A command with spaces and parentheses, as Chromium's are.
      writeFileSync(path.join(proc, String(pid), 'stat'), `${pid} (chrome (net) x) S ${ppid} ${pid} 0 0`);
      fds.forEach((target, fd) => symlinkSync(target, path.join(proc, String(pid), 'fd', String(fd))));
    }
    mkdirSync(path.join(proc, 'net'));
    const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
    // The host's end (port 0x1F90 = 8080, its client at 0xC350 = 50000) and the client's end, as /proc lists them.
    writeFileSync(
      path.join(proc, 'net', 'tcp6'),
      `${header}   0: 00000000000000000000000001000000:1F90 00000000000000000000000001000000:C350 01 00000000:00000000 00:00000000 00000000  1000        0 777 1\n` +
        `   1: 00000000000000000000000001000000:C350 00000000000000000000000001000000:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 4242 1\n`,
    );
    assert.deepEqual(peerProcessIds({ localPort: 8080, remotePort: 50000 }, proc), [300, 200]);
    assert.deepEqual(peerProcessIds({ localPort: 8080, remotePort: 50001 }, proc), []);
  } finally {
    rmSync(proc, { recursive: true, force: true });
  }
});

test('excluded processes stay until every exclusion naming them is undone; the fixed ones always', () => {
  const ids = new Set([1, 2]);
  const exclude = processExcluder(ids);
  const first = exclude([2, 300, 200]);
  const second = exclude([300]);
  assert.deepEqual([...ids].sort(), [1, 2, 200, 300]);
  first();
  first();
  assert.deepEqual([...ids].sort(), [1, 2, 300]);
  second();
  assert.deepEqual([...ids].sort(), [1, 2]);
});
