import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachAtOnce, Gate } from '../gate.js';

test('a gate runs at most its limit at once, in arrival order, and frees its place on failure too', async () => {
  const gate = new Gate(3);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const task = (i: number) => async () => {
    started.push(i);
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, (i * 7) % 5));
    running--;
    if (i % 4 === 0) throw new Error(`task ${i}`);
    return i;
  };
  const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => gate.run(task(i))));
  assert.equal(most, 3);
  assert.deepEqual(
    started,
    Array.from({ length: 20 }, (_, i) => i),
  );
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
    Array.from({ length: 20 }, (_, i) => (i % 4 === 0 ? `task ${i}` : i)),
  );
  assert.equal(gate.active, 0);
  assert.equal(await gate.run(async () => 'again'), 'again');
  assert.throws(() => new Gate(0), /positive integer, got 0/);
});

test('eachAtOnce runs each item once, in order, at most its limit at once, and stops taking items at a failure', async () => {
  const started: number[] = [];
  let running = 0;
  let most = 0;
  await eachAtOnce([0, 1, 2, 3, 4, 5, 6], 3, async (item) => {
    started.push(item);
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, 5 * (item % 3)));
    running--;
  });
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6]);
  assert.equal(most, 3);

  const taken: number[] = [];
  await assert.rejects(
    eachAtOnce([0, 1, 2, 3, 4, 5], 2, async (item) => {
      taken.push(item);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (item === 1) throw new Error('item 1 failed');
    }),
    /item 1 failed/,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(!taken.includes(4) && !taken.includes(5), `items after the failure were not taken: ${taken.join(',')}`);
  await assert.rejects(
    eachAtOnce([1], 0, async () => {}),
    /positive integer, got 0/,
  );
});
