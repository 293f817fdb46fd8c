import assert from 'node:assert/strict';
import type { Runtime } from '../../runtime/runtime.js';
import type { XPathService } from '../../xpath/xpath-service.js';
import { selectNodes, selectRoots } from '../select-nodes.js';

/** Each root query selects without the XPath engine exactly the nodes, in the order, that the engine selects. */
export async function assertSelectedAsEngineSelects(
  runtime: Runtime,
  xpath: XPathService,
  expressions: readonly string[],
): Promise<void> {
  for (const expression of expressions) {
    const roots = await selectRoots(
      runtime,
      () => assert.fail(`${expression} asked for the XPath engine`),
      expression,
      undefined,
    );
    const engine = await selectNodes(xpath, expression, undefined);
    assert.deepEqual(
      roots.map((node) => node.runtimeId),
      engine.map((node) => node.runtimeId),
      expression,
    );
  }
}
