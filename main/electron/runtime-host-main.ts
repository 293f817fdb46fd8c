// Entry of Electron's utility process: `utilityProcess.fork(<this file>, [json options])`.
import '../backends/linux.js';
import { runRuntimeHost, type HostPort } from './runtime-host.js';

const port = (process as unknown as { parentPort?: HostPort }).parentPort;
if (!port) {
  process.stderr.write('runtime-host-main must run in an Electron utility process\n');
  process.exit(2);
}
const options = JSON.parse(process.argv[2] ?? '{}') as Parameters<typeof runRuntimeHost>[1];
const { stopped } = await runRuntimeHost(port, { ...options, runtime: options.runtime ?? {} });
await stopped;
process.exit(0);
