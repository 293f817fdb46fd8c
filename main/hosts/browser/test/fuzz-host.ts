// The host the fuzz test attacks, in a child process started with --expose-gc: a browser host over the mock
// provider with the limits given as JSON in argv[2]. Prints `READY <port> <token>`; on a `mem` line from stdin it
// collects garbage and prints `MEM <json of process.memoryUsage()>`.
import '../../../backends/mock.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { HostLimits } from '../../../api/limits.js';
import { HostContext } from '../../../api/host-context.js';
import { installFaultPolicy } from '../../fault-policy.js';
import { startBrowserHost } from '../server.js';

const limits = JSON.parse(process.argv[2] ?? '{}') as Partial<HostLimits>;
const faults = installFaultPolicy();
const dir = mkdtempSync(path.join(tmpdir(), 'platynui-fuzz-'));
const context = await HostContext.open({
  runtime: { providers: ['mock'], platform: 'mock' },
  settingsFile: path.join(dir, 'settings.json'),
  limits,
  warn: () => undefined,
});
const host = await startBrowserHost({
  context,
  port: 0,
  rendererDir: path.join(dir, 'renderer'),
  log: () => undefined,
});
process.stdout.write(`READY ${host.port} ${host.token}\n`);
const gc = (globalThis as { gc?: () => void }).gc;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'mem') return;
  for (let i = 0; i < 3; i++) gc?.();
  process.stdout.write(
    `MEM ${JSON.stringify({ ...process.memoryUsage(), faults: faults.faults, gc: gc !== undefined })}\n`,
  );
});
process.stdin.on('end', () => {
  void host
    .close()
    .then(() => context.close())
    .then(() => process.exit(0));
});
