import { InspectorError } from '../../shared/model/errors.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { XPathService } from '../xpath/xpath-service.js';

/** The nodes an XPath selects; a usage error (`refusal`) when it selects anything else (attributes, values). */
export async function selectNodes(
  xpath: XPathService,
  expression: string,
  timeoutMs: number | undefined,
  refusal = `"${expression}" must select nodes, it selected other items`,
): Promise<RuntimeNode[]> {
  const { items } = await xpath.evaluate(expression, timeoutMs !== undefined ? { timeoutMs } : {});
  const nodes = items.flatMap((item): RuntimeNode[] => (item.type === 'node' ? [item.node] : []));
  if (nodes.length !== items.length) {
    throw new InspectorError('usage', refusal);
  }
  return nodes;
}
