import type { AttributeEntry } from '../../shared/model/attributes.js';
import {
  AttributeNames,
  pushWithAliases,
  SECRET_ATTRIBUTE_NAMES,
  withDerivedAliases,
} from '../../shared/model/attributes.js';
import type { UiValue } from '../../shared/model/values.js';
import { uiArray, uiString } from '../../shared/model/values.js';

/** What the runtime knows of a node besides the provider's attributes (see RuntimeNode). */
export interface NodeFacts {
  runtimeId: string;
  name: string;
  id: string | undefined;
  technology: string;
  isSecure: boolean;
}

/** True when the provider's attributes leave SupportedPatterns to the runtime (it then asks for the patterns). */
export function needsPatterns(provided: readonly AttributeEntry[]): boolean {
  return !provided.some((entry) => entry.namespace === 'control' && entry.name === AttributeNames.SupportedPatterns);
}

/**
 * Every attribute of a node as the runtime serves it: the provider's (secrets and a provider RuntimeId left out),
 * Name and Id when the provider has none, Technology, SupportedPatterns, RuntimeId, and the derived aliases.
 */
export function composeAttributes(
  provided: readonly AttributeEntry[],
  facts: NodeFacts,
  patterns: readonly string[],
): AttributeEntry[] {
  // No copy of the provider's entries: a first pass learns what they hold, a second writes the result (a snapshot
  // composes ten thousand nodes' eighty attributes).
  let hasName = false;
  let hasId = false;
  let hasTechnology = false;
  let hasPatterns = false;
  for (let i = 0; i < provided.length; i++) {
    const entry = provided[i] as AttributeEntry;
    if (entry.namespace !== 'control') continue;
    const name = entry.name;
    if (name === AttributeNames.Name) hasName = true;
    else if (name === AttributeNames.Id) hasId = true;
    else if (name === AttributeNames.Technology) hasTechnology = true;
    else if (name === AttributeNames.SupportedPatterns) hasPatterns = true;
  }
  const result: AttributeEntry[] = [];
  if (!hasName) result.push({ namespace: 'control', name: AttributeNames.Name, value: uiString(facts.name) });
  if (facts.id && !hasId) result.push({ namespace: 'control', name: AttributeNames.Id, value: uiString(facts.id) });
  for (let i = 0; i < provided.length; i++) {
    const entry = provided[i] as AttributeEntry;
    if (entry.namespace === 'control') {
      const name = entry.name;
      if (name === AttributeNames.RuntimeId || (facts.isSecure && SECRET_ATTRIBUTE_NAMES.has(name))) continue;
    }
    if (entry.name === AttributeNames.Id && !entry.value) continue;
    pushWithAliases(result, entry);
  }
  if (!hasTechnology) {
    result.push({ namespace: 'control', name: AttributeNames.Technology, value: uiString(facts.technology) });
  }
  if (!hasPatterns) {
    result.push({
      namespace: 'control',
      name: AttributeNames.SupportedPatterns,
      value: uiArray(patterns.map((pattern) => uiString(pattern))),
    });
  }
  result.push({ namespace: 'control', name: AttributeNames.RuntimeId, value: uiString(facts.runtimeId) });
  return result;
}

/** The runtime's own attributes by name: their values from what the runtime knows (undefined: the node has none). */
const OWN_ATTRIBUTES: { [name: string]: (facts: NodeFacts, patterns: readonly string[]) => UiValue | undefined } = {
  [AttributeNames.RuntimeId]: (facts) => uiString(facts.runtimeId),
  [AttributeNames.Name]: (facts) => uiString(facts.name),
  [AttributeNames.Id]: (facts) => (facts.id ? uiString(facts.id) : undefined),
  [AttributeNames.Technology]: (facts) => uiString(facts.technology),
  [AttributeNames.SupportedPatterns]: (_facts, patterns) => uiArray(patterns.map((pattern) => uiString(pattern))),
};

/** The names of the attributes the runtime adds where the provider lists none (ownAttribute). */
export const OWN_ATTRIBUTE_NAMES: readonly string[] = Object.keys(OWN_ATTRIBUTES);

/** Whether the runtime adds an attribute of this name where the provider lists none. */
export function isOwnAttributeName(name: string): boolean {
  return Object.hasOwn(OWN_ATTRIBUTES, name);
}

/** The attribute the runtime adds under this name when the provider lists none (see RuntimeNode.attributesNamed). */
export function ownAttribute(name: string, facts: NodeFacts, patterns: readonly string[]): AttributeEntry | undefined {
  const value = isOwnAttributeName(name) ? OWN_ATTRIBUTES[name]!(facts, patterns) : undefined;
  return value === undefined ? undefined : { namespace: 'control', name, value };
}

const ALIAS = /^(.+)\.(X|Y|Width|Height)$/;

/**
 * The attributes with this local name, in any namespace, read from a node's provided attributes as the runtime
 * answers attributesNamed() before it holds all of them: derived aliases from their base, secrets left out, the
 * runtime's own attribute first when the provider lists no control one.
 */
export function attributesNamedFrom(
  localName: string,
  provided: readonly AttributeEntry[],
  facts: NodeFacts,
  patterns: () => readonly string[],
): AttributeEntry[] {
  const alias = ALIAS.exec(localName);
  if (alias) {
    const base = attributesNamedFrom(alias[1]!, provided, facts, patterns);
    return withDerivedAliases(base).filter((entry) => entry.name === localName && entry.derived);
  }
  const secret = facts.isSecure && SECRET_ATTRIBUTE_NAMES.has(localName);
  const matching = provided.filter((entry) => entry.name === localName && !(secret && entry.namespace === 'control'));
  if (!matching.some((entry) => entry.namespace === 'control')) {
    const own = ownAttribute(localName, facts, localName === AttributeNames.SupportedPatterns ? patterns() : []);
    if (own) matching.unshift(own);
  }
  return matching;
}
