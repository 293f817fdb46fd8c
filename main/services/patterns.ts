import type { ApiAttribute, PatternInfo } from '../../shared/api/schema.js';
import type { AttributeEntry } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import { actionOwner, patternDefinition } from '../../shared/model/patterns.js';
import type { ActionRequest } from '../core/provider.js';
import type { RuntimeNode } from '../runtime/node.js';

function toApiAttribute(entry: AttributeEntry): ApiAttribute {
  return { namespace: entry.namespace, name: entry.name, value: entry.value, derived: entry.derived === true };
}

/** Every attribute of a node; with `refresh`, read again from the application first. */
export async function attributesOf(node: RuntimeNode, refresh: boolean): Promise<ApiAttribute[]> {
  if (refresh) node.invalidate({ children: false });
  return (await node.attributes()).map(toApiAttribute);
}

/** The patterns a node supports, each with its attributes, the required ones it lacks and its actions. */
export async function patternsOf(node: RuntimeNode): Promise<PatternInfo[]> {
  const [names, entries] = await Promise.all([node.supportedPatterns(), node.attributes()]);
  return names.map((name) => {
    const definition = patternDefinition(name);
    const wanted = new Set([...(definition?.required ?? []), ...(definition?.optional ?? [])]);
    const attributes = entries
      .filter((entry) => entry.namespace === 'control' && wanted.has(entry.name))
      .map(toApiAttribute);
    const present = new Set(attributes.map((entry) => entry.name));
    return {
      name,
      kind: definition?.kind ?? 'unknown',
      attributes,
      missing: (definition?.required ?? []).filter((attribute) => !present.has(attribute)),
      actions: [...(definition?.actions ?? [])],
    };
  });
}

/**
 * Performs a pattern's action on the node as it was at `expectedRevision`: refused as stale when it changed since,
 * refused as unsupported when none of its patterns has the action.
 */
export async function performPatternAction(
  node: RuntimeNode,
  expectedRevision: number,
  action: string,
  args: Omit<ActionRequest, 'action'>,
): Promise<void> {
  if (node.revision !== expectedRevision || node.isRemoved) {
    // performAction refuses too; checking first keeps the pattern check below from hiding the staleness
    await node.performAction({ action }, expectedRevision);
  }
  const supported = await node.supportedPatterns();
  const owner = actionOwner(action);
  if (!owner || !supported.includes(owner.name)) {
    throw new InspectorError(
      'unsupported',
      `${node.describe()} has no pattern with the action "${action}" (patterns: ${supported.join(', ') || 'none'})`,
      { runtimeId: node.runtimeId },
    );
  }
  await node.performAction({ action, ...args }, expectedRevision);
}
