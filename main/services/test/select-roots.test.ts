import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { selectRoots } from '../select-nodes.js';
import { assertSelectedAsEngineSelects } from './select-roots-support.js';

const TOP_LEVEL = [
  '/',
  "app:Application[@Name='Studio']",
  "/app:Application[@Name='Login']",
  "app:Application[@Name='No such application']",
];

test("a root query of the desktop or of applications by name is answered from the desktop's children, as the engine answers it", async () => {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const xpath = new XPathService(runtime);
  try {
    await assertSelectedAsEngineSelects(runtime, xpath, TOP_LEVEL);
    const [studio] = await selectRoots(runtime, () => xpath, "app:Application[@Name='Studio']", undefined);
    assert.equal(studio?.name, 'Studio', 'the named application is found');
    let asked = 0;
    const below = await selectRoots(runtime, () => (asked++, xpath), "app:Application[@Name='Studio']/*", undefined);
    assert.equal(asked, 1, 'any other query goes to the engine');
    // The mock provider does not declare its applications to be children of the desktop alone.
    assert.equal(runtime.applicationsOnlyAtTop, false);
    const anywhere = await selectRoots(runtime, () => (asked++, xpath), "//app:Application[@Name='Studio']", undefined);
    assert.equal(asked, 2, '//app:Application goes to the engine where applications may lie deeper');
    assert.deepEqual(
      anywhere.map((node) => node.runtimeId),
      [studio!.runtimeId],
    );
    const windows = (await studio!.children()).map((node) => node.runtimeId);
    assert.ok(windows.length > 0);
    assert.deepEqual(
      below.map((node) => node.runtimeId),
      windows,
    );
  } finally {
    await xpath.close();
    await runtime.shutdown();
  }
});
