#!/usr/bin/env node
// `npm run bench`: runs every compiled benchmark (dist/bench/*.js) one after another inside ONE virtual desktop
// session (benchmarks of the AT-SPI provider, the X11 platform and the UI need real applications). Each benchmark
// prints `name value unit` lines and, where it has a baseline, the ratio measured in the same run.
//   node bench/run.mjs [filter...]   only benchmarks whose file name contains a filter
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const benchDir = path.join(root, 'dist/bench');
const filters = process.argv.slice(2);
if (!existsSync(benchDir)) {
  process.stderr.write('no compiled benchmarks: run `npm run build` first\n');
  process.exit(2);
}
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith('.js') && !name.startsWith('_'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();

const { startDesktopSession } = await import(path.join(root, 'scripts/desktop/session.mjs'));
const session = await startDesktopSession();
let failed = 0;
try {
  for (const file of files) {
    process.stdout.write(`# ${file}\n`);
    const code = await new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(benchDir, file)], {
        stdio: 'inherit',
        env: { ...process.env, ...session.env },
      });
      child.on('exit', (status) => resolve(status ?? 1));
    });
    if (code !== 0) {
      failed++;
      process.stdout.write(`# ${file} failed with exit code ${code}\n`);
    }
  }
} finally {
  await session.stop();
}
process.exit(failed === 0 ? 0 : 1);
