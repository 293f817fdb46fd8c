import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leadingThrottle } from '../throttle.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a lone request runs at once; requests within the interval run once at its end', async () => {
  const runs: number[] = [];
  const started = Date.now();
  const throttle = leadingThrottle(() => runs.push(Date.now() - started), 60);
  throttle.request();
  assert.equal(runs.length, 1, 'the first request runs synchronously');
  throttle.request();
  throttle.request();
  assert.equal(runs.length, 1, 'requests within the interval wait');
  await sleep(90);
  assert.equal(runs.length, 2, 'gathered into one run');
  assert.ok(runs[1]! >= 55, `the second run waited for the interval: ${runs[1]} ms`);
  await sleep(80);
  throttle.request();
  assert.equal(runs.length, 3, 'after a quiet interval a request runs at once again');
});

test('cancel drops a waiting run', async () => {
  let runs = 0;
  const throttle = leadingThrottle(() => runs++, 30);
  throttle.request();
  throttle.request();
  throttle.cancel();
  await sleep(60);
  assert.equal(runs, 1);
});
