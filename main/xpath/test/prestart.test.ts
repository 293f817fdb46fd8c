import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Runtime } from '../../runtime/runtime.js';
import { spawnXPathWorker } from '../worker-lane.js';
import { XPathService } from '../xpath-service.js';

async function untilReady(spawned: ReturnType<typeof spawnXPathWorker>): Promise<void> {
  spawned.worker.ref();
  for (let waited = 0; !spawned.readySeen; waited += 10) {
    assert.ok(waited < 20_000, 'the spawned worker says it is ready');
    await sleep(10);
  }
  spawned.worker.unref();
}

test('a worker spawned before the runtime serves the first evaluation, even when it said ready before adoption', async () => {
  const spawned = spawnXPathWorker(256);
  await untilReady(spawned);
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const xpath = new XPathService(runtime, { workerMemoryMb: 256, prestarted: spawned });
  try {
    // The ready message went out before the service listened: warming up must not wait for it again.
    await xpath.warmUp();
    const { items } = await xpath.evaluate('count(/*)');
    assert.equal(items.length, 1);
    assert.equal(items[0]!.type, 'value');
    const exited = once(spawned.worker, 'exit');
    await xpath.close();
    await exited;
  } finally {
    await runtime.shutdown();
  }
});

test('a spawned worker the service never used is ended when the service closes', async () => {
  const spawned = spawnXPathWorker(256);
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const xpath = new XPathService(runtime, { workerMemoryMb: 256, prestarted: spawned });
  const exited = once(spawned.worker, 'exit');
  await xpath.close();
  await exited;
  await runtime.shutdown();
});
