import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');

function watch(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, 'watch', ...args, '--provider', 'mock'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('watch refuses bad values with exit 2, naming the option and the value', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--events', 'focus,clicked'], /--events takes kinds among focus, state-changed, .*got "clicked"/],
    [['--limit', '0'], /--limit must be a whole number from 1 to 1000000000, got "0"/],
    [['--duration', '-5'], /--duration must be a whole number of milliseconds from 0 to 2147483647, got "-5"/],
    [['--format', 'xml'], /--format must be text or json, got "xml"/],
    [['count(//Button)'], /the XPath to watch must select elements, "count\(\/\/Button\)" selected other items/],
    [['--expression', '//Button[', '--duration', '10'], /never closed|Expected/],
  ];
  for (const [args, message] of cases) {
    const result = watch(...args);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message);
    assert.equal(result.stdout, '');
  }
});

test('watch ends after --duration with exit 0', () => {
  const started = Date.now();
  const result = watch('--duration', '300', '--format', 'json');
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, /^watching; press Ctrl-C to stop$/m);
  assert.equal(result.stdout, '', 'the mock changes only when acted on: no events');
  assert.ok(Date.now() - started >= 300);
});

test('watch ends on Ctrl-C (SIGINT) with exit 0', async () => {
  const child = spawn(process.execPath, [bin, 'watch', '//Window', '--provider', 'mock'], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const ready = new Promise<void>((resolve) => {
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('watching //Window')) resolve();
    });
  });
  const exited = once(child, 'exit');
  await ready;
  child.kill('SIGINT');
  const [code] = (await exited) as [number | null];
  assert.equal(code, 0, stderr);
});
