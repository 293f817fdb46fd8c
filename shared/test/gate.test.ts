import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Gate } from '../gate.js';

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
