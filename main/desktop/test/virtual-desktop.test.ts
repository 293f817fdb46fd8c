import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { signalExitCode } from '../../cli/commands/virtual-desktop.js';
import { parseScreenSize } from '../virtual-desktop.js';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin/platynui-inspector');

test('--size takes WIDTHxHEIGHT within the limits and names a bad value', () => {
  assert.deepEqual(parseScreenSize('1280x800'), { width: 1280, height: 800 });
  assert.deepEqual(parseScreenSize('64x8192'), { width: 64, height: 8192 });
  for (const bad of ['', '1280', '1280x', 'x800', '1280X800', '63x800', '1280x8193', '-1x5', '1e3x800', '99999x1']) {
    assert.throws(() => parseScreenSize(bad), new RegExp(`--size must be WIDTHxHEIGHT .* got "${bad}"`), bad);
  }
});

test('a command killed by a signal exits with 128 + the signal number', () => {
  assert.equal(signalExitCode('SIGTERM'), 143);
  assert.equal(signalExitCode('SIGKILL'), 137);
  assert.equal(signalExitCode('SIGINT'), 130);
});

test('serve --app or --size without --virtual-desktop is a usage error (exit 2), before anything starts', () => {
  for (const args of [
    ['--app', 'gtk3-demo'],
    ['--size', '800x600'],
  ]) {
    const r = spawnSync(process.execPath, [cli, 'serve', '--no-open', ...args], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${args[0]} needs --virtual-desktop`));
    assert.equal(r.stdout, '', 'no address: nothing was served');
  }
  const empty = spawnSync(process.execPath, [cli, 'virtual-desktop', '--app', ' ', '--', 'true'], { encoding: 'utf8' });
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /--app needs a command/);
});
