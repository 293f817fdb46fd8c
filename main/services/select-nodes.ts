import type { AttributeEntry } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import { topLevelSelection, type TopLevelSelection } from '../../shared/xpath/fast/reach.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
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

/** The control-namespace Name attribute, as `@Name` reads it ('' when there is none or it cannot be read). */
async function nameAttribute(node: RuntimeNode): Promise<string> {
  const entries = await node.attributesNamed('Name').catch((): readonly AttributeEntry[] => []);
  const name = entries.find((entry) => entry.namespace === 'control' && !entry.derived)?.value;
  return name?.type === 'String' ? name.value : '';
}

/** What a topLevelSelection selects, in document order, read from the desktop's children. */
export async function selectTopLevel(runtime: Runtime, selection: TopLevelSelection): Promise<RuntimeNode[]> {
  if (selection.kind === 'desktop') return [runtime.desktop];
  const applications = (await runtime.desktop.children()).filter(
    (node) => node.namespace === 'app' && node.role === 'Application',
  );
  const names = await Promise.all(applications.map(nameAttribute));
  return applications.filter((_, index) => names[index] === selection.name);
}

/**
 * The roots a command works on: from the desktop's children where the XPath names nothing else (topLevelSelection;
 * the XPath engine is not asked, so a command that needs it for nothing else never starts it), else selectNodes. A
 * `//app:Application` query goes to the engine where a provider may place applications below the desktop.
 */
export function selectRoots(
  runtime: Runtime,
  xpath: () => XPathService,
  expression: string,
  timeoutMs: number | undefined,
  refusal?: string,
): Promise<RuntimeNode[]> {
  const selection = topLevelSelection(expression);
  const inProcess =
    selection && !(selection.kind === 'applications' && selection.anywhere && !runtime.applicationsOnlyAtTop);
  if (inProcess) return selectTopLevel(runtime, selection);
  return selectNodes(xpath(), expression, timeoutMs, refusal);
}
