import type { AttributeEntry } from '../../shared/model/attributes.js';
import { AttributeNames, SECRET_ATTRIBUTE_NAMES, withDerivedAliases } from '../../shared/model/attributes.js';
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
  const entries = provided.filter(
    (entry) =>
      !(facts.isSecure && entry.namespace === 'control' && SECRET_ATTRIBUTE_NAMES.has(entry.name)) &&
      !(entry.namespace === 'control' && entry.name === AttributeNames.RuntimeId),
  );
  const has = (name: string) => entries.some((entry) => entry.namespace === 'control' && entry.name === name);
  const own: AttributeEntry[] = [];
  if (!has(AttributeNames.Name))
    own.push({ namespace: 'control', name: AttributeNames.Name, value: uiString(facts.name) });
  if (facts.id && !has(AttributeNames.Id)) {
    own.push({ namespace: 'control', name: AttributeNames.Id, value: uiString(facts.id) });
  }
  const result = [...own, ...entries];
  if (!has(AttributeNames.Technology)) {
    result.push({ namespace: 'control', name: AttributeNames.Technology, value: uiString(facts.technology) });
  }
  if (!has(AttributeNames.SupportedPatterns)) {
    result.push({
      namespace: 'control',
      name: AttributeNames.SupportedPatterns,
      value: uiArray(patterns.map((pattern) => uiString(pattern))),
    });
  }
  result.push({ namespace: 'control', name: AttributeNames.RuntimeId, value: uiString(facts.runtimeId) });
  return withDerivedAliases(result.filter((entry) => !(entry.name === AttributeNames.Id && !entry.value)));
}

/** The attribute the runtime adds under this name when the provider lists none (see RuntimeNode.attributesNamed). */
export function ownAttribute(name: string, facts: NodeFacts, patterns: readonly string[]): AttributeEntry | undefined {
  const control = (value: UiValue): AttributeEntry => ({ namespace: 'control', name, value });
  switch (name) {
    case AttributeNames.RuntimeId:
      return control(uiString(facts.runtimeId));
    case AttributeNames.Name:
      return control(uiString(facts.name));
    case AttributeNames.Id:
      return facts.id ? control(uiString(facts.id)) : undefined;
    case AttributeNames.Technology:
      return control(uiString(facts.technology));
    case AttributeNames.SupportedPatterns:
      return control(uiArray(patterns.map((pattern) => uiString(pattern))));
    default:
      return undefined;
  }
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
