import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { HostContext } from '../../api/host-context.js';

async function openContext(t: { after(fn: () => void | Promise<void>): void }, warmTree: boolean) {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-warmer-'));
  const context = await HostContext.open({
    runtime: { providers: ['mock'], platform: 'mock' },
    settingsFile: path.join(dir, 'settings.json'),
    limits: { xpathWorkers: 1 },
    warmTree,
  });
  t.after(async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return context;
}

test('an interactive host loads the tree into the XPath worker once the desktop was listed', async (t) => {
  const cold = await openContext(t, false);
  await cold.structuralChildren(cold.runtime.desktop);
  assert.equal(cold.warmer, undefined);
  const first = await cold.xpath.evaluate("//Button[@Name='Save']");
  assert.ok(first.stats.bridgeNodes > 10, `without it the first query brings the tree (${first.stats.bridgeNodes})`);

  const warm = await openContext(t, true);
  assert.equal(warm.warmer?.done, undefined, 'nothing starts before the desktop is listed');
  await warm.structuralChildren(warm.runtime.desktop);
  await new Promise((resolve) => setTimeout(resolve, 0));
  await warm.warmer?.done;
  const answer = await warm.xpath.evaluate("//Button[@Name='Save']");
  assert.equal(answer.items.length, 1);
  assert.equal(answer.stats.bridgeNodes, 0, 'the first query typed finds the tree in the worker');
});
