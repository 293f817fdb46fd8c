import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const start = path.join(root, 'scripts/start.mjs');

function env(extra: { [name: string]: string }): NodeJS.ProcessEnv {
  // a desktop session (never opened: the mock provider and platform), so that start.mjs picks Electron or serve
  const out: NodeJS.ProcessEnv = { ...process.env, DISPLAY: ':65000', ...extra };
  if (!('ELECTRON_OVERRIDE_DIST_PATH' in extra)) delete out.ELECTRON_OVERRIDE_DIST_PATH;
  return out;
}

test('without an Electron binary, npm start says so in one sentence and serves the browser host', async () => {
  const child = spawn(process.execPath, [start, '--provider', 'mock', '--no-open', '--port', '0'], {
    env: env({ XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'platynui-start-')) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address; stdout: ${stdout} stderr: ${stderr}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const all = stdout.split('\n');
      if (all.some((line) => line.startsWith('http://'))) {
        clearTimeout(timer);
        resolve(all.filter(Boolean));
      }
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(lines.length, 2, stdout);
  assert.match(
    lines[0]!,
    /^Electron's binary is not available \(.+\), so the inspector is served in the browser instead\.$/,
  );
  assert.equal(lines[0]!.split('. ').length, 1, 'one sentence');
  assert.match(lines[1]!, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
  assert.equal(await exited, 0, stderr);
});

test('with ELECTRON_OVERRIDE_DIST_PATH, npm start runs that Electron on the app', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-electron-'));
  const record = path.join(dir, 'args.txt');
  const fake = path.join(dir, process.platform === 'win32' ? 'electron.exe' : 'electron');
  writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\nexit 7\n`);
  chmodSync(fake, 0o755);
  const child = spawn(process.execPath, [start, '--provider', 'mock'], {
    env: env({ ELECTRON_OVERRIDE_DIST_PATH: dir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (status) => resolve(status)));
  assert.equal(code, 7, 'the shell exit code is passed on');
  assert.equal(stdout, '', 'no fallback sentence when Electron runs');
  assert.deepEqual(readFileSync(record, 'utf8').trim().split('\n'), [root, '--provider', 'mock']);
});
