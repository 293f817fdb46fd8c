import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Fifo } from '../fifo.js';

test('a Fifo gives items back in the order they came, across its compaction, and drains what is left', () => {
  const fifo = new Fifo<number>();
  const taken: number[] = [];
  let next = 0;
  // Pushes and takes interleaved past the compaction threshold, the queue never emptied in between.
  for (let round = 0; round < 50; round++) {
    for (let i = 0; i < 300; i++) fifo.push(next++);
    for (let i = 0; i < 200; i++) taken.push(fifo.take()!);
  }
  assert.deepEqual(
    taken,
    Array.from({ length: taken.length }, (_, i) => i),
  );
  assert.equal(fifo.length, next - taken.length);
  const rest = fifo.drain();
  assert.deepEqual(
    rest,
    Array.from({ length: next - taken.length }, (_, i) => taken.length + i),
  );
  assert.equal(fifo.length, 0);
  assert.equal(fifo.take(), undefined);
});
