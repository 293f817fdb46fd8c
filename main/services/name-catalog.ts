import type { NameCatalog } from '../../shared/api/schema.js';
import { AttributeNames, deriveAliases } from '../../shared/model/attributes.js';
import { uiPoint, uiRect } from '../../shared/model/values.js';
import type { Runtime } from '../runtime/runtime.js';

/** The control attributes every provider may give a node, with the aliases the runtime derives (`Bounds.X`). */
function controlAttributeNames(): string[] {
  const names: string[] = Object.values(AttributeNames);
  const aliases = [
    ...deriveAliases('control', AttributeNames.Bounds, uiRect({ x: 0, y: 0, width: 0, height: 0 })),
    ...deriveAliases('control', AttributeNames.ActivationPoint, uiPoint({ x: 0, y: 0 })),
  ];
  return [...names, ...aliases.map((alias) => alias.name)];
}

/**
 * The element and attribute names the runtime's providers know (their catalog), as written in XPath. The XPath
 * console checks names against these and the live tree's, so `//Buton` is a typo while a role not loaded yet is not.
 */
export function nameCatalog(runtime: Runtime): NameCatalog {
  const elements = new Set<string>(['app:Application']);
  const attributes = new Set<string>(controlAttributeNames());
  for (const provider of runtime.providers) {
    const names = provider.descriptor.names;
    for (const element of names?.elements ?? []) elements.add(element);
    for (const attribute of names?.attributes ?? []) attributes.add(attribute);
  }
  return { elements: [...elements].sort(), attributes: [...attributes].sort() };
}
