import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { bestLocatorOfEach, locateNodes } from '../../services/locate.js';
import type { RuntimeNode } from '../../runtime/node.js';

/** Runs a test over the mock provider's buttons (at least three). */
async function withButtons(
  run: (runtime: Runtime, xpath: XPathService, targets: readonly RuntimeNode[]) => Promise<void>,
): Promise<void> {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const xpath = new XPathService(runtime);
  try {
    const { items } = await xpath.evaluate('//Button');
    const targets = items.flatMap((item) => (item.type === 'node' ? [item.node] : []));
    assert.ok(targets.length >= 3);
    await run(runtime, xpath, targets);
  } finally {
    await xpath.close();
    await runtime.shutdown();
  }
}

test("a check's findings get verified locators from the priority capture, without reading the targets' every attribute", async () => {
  await withButtons(async (runtime, xpath, targets) => {
    let fullReads = 0;
    for (const target of targets) {
      const attributes = target.attributes.bind(target);
      target.attributes = () => (fullReads++, attributes());
    }
    const best = await bestLocatorOfEach(runtime, targets);
    assert.equal(fullReads, 0, 'no target had every attribute read');
    assert.equal(best.size, targets.length, 'every button got a locator');
    for (const target of targets) {
      const found = await xpath.evaluate(best.get(target.runtimeId)!);
      assert.equal(found.items.length, 1, best.get(target.runtimeId));
      const [item] = found.items;
      assert.ok(item?.type === 'node' && item.node.runtimeId === target.runtimeId, 'it selects its node alone');
    }
    // The same best locator as locate's where locate's best needs only the priority attributes.
    const [located] = await locateNodes(runtime, xpath, [targets[0]!]);
    assert.equal(best.get(targets[0]!.runtimeId), located!.locators[0]!.xpath);
  });
});

test('every target gets its locator, the same whatever order and company it is asked for in', async () => {
  await withButtons(async (runtime, _xpath, targets) => {
    const together = await bestLocatorOfEach(runtime, targets);
    const reversed = await bestLocatorOfEach(runtime, [...targets].reverse());
    assert.equal(together.size, targets.length);
    for (const target of targets) {
      const alone = await bestLocatorOfEach(runtime, [target]);
      assert.equal(alone.get(target.runtimeId), together.get(target.runtimeId), target.runtimeId);
      assert.equal(reversed.get(target.runtimeId), together.get(target.runtimeId), target.runtimeId);
    }
  });
});

test("a check's own tree goes into the capture as it is: the same locators, and none of its nodes read again", async () => {
  const { checkAccessibility } = await import('../../services/accessibility-check.js');
  const { EMPTY_CHECK_CONFIG } = await import('../../../shared/checks/config.js');
  const { RuntimeNode } = await import('../../runtime/node.js');
  const checked = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const fresh = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const checkedXPath = new XPathService(checked);
  const freshXPath = new XPathService(fresh);
  const peek = RuntimeNode.prototype.peekAttributesNamed;
  const read = RuntimeNode.prototype.attributesNamed;
  let reads = 0;
  try {
    let fromCheck: ReadonlyMap<string, string> = new Map();
    let targets: readonly RuntimeNode[] = [];
    await checkAccessibility(checked, checkedXPath, {
      config: EMPTY_CHECK_CONFIG,
      contrast: false,
      locate: async (found, held) => {
        targets = found;
        RuntimeNode.prototype.peekAttributesNamed = function (this: RuntimeNode, names) {
          reads++;
          return peek.call(this, names);
        };
        RuntimeNode.prototype.attributesNamed = function (this: RuntimeNode, name) {
          reads++;
          return read.call(this, name);
        };
        try {
          fromCheck = await bestLocatorOfEach(checked, found, held);
        } finally {
          RuntimeNode.prototype.peekAttributesNamed = peek;
          RuntimeNode.prototype.attributesNamed = read;
        }
        return fromCheck;
      },
    });
    assert.ok(targets.length > 0, 'the mock desktop has findings');
    assert.equal(reads, 0, 'the capture read no attribute of the checked desktop');
    assert.equal(fromCheck.size, targets.length, 'every finding got a locator');
    const { items } = await freshXPath.evaluate('//*');
    const loaded = new Map(items.flatMap((item) => (item.type === 'node' ? [[item.node.runtimeId, item.node]] : [])));
    const freshTargets = targets.map((target) => loaded.get(target.runtimeId)!);
    const fromRuntime = await bestLocatorOfEach(fresh, freshTargets);
    assert.deepEqual(
      [...fromCheck].sort(),
      [...fromRuntime].sort(),
      'the same locators as a capture read from the runtime',
    );
  } finally {
    RuntimeNode.prototype.peekAttributesNamed = peek;
    RuntimeNode.prototype.attributesNamed = read;
    await checkedXPath.close();
    await freshXPath.close();
    await checked.shutdown();
    await fresh.shutdown();
  }
});
