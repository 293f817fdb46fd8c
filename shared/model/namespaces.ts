/** Node and attribute namespaces of the UI model. */

export const NAMESPACES = ['control', 'item', 'app', 'native'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const NAMESPACE_URIS: { readonly [N in Namespace]: string } = {
  control: 'urn:platynui:control',
  item: 'urn:platynui:item',
  app: 'urn:platynui:app',
  native: 'urn:platynui:native',
};

const byUri = new Map<string, Namespace>(NAMESPACES.map((ns) => [NAMESPACE_URIS[ns], ns]));

export function isNamespace(value: string): value is Namespace {
  return (NAMESPACES as readonly string[]).includes(value);
}

export function namespaceFromUri(uri: string | null | undefined): Namespace | undefined {
  return uri ? byUri.get(uri) : undefined;
}

/** `Name` for control attributes, `native:Role` for the others: the key form used by JSON output and XML. */
/** Keys of the other namespaces, made once per name: a check or a capture asks for them on every node. */
const prefixedKeys = new Map<Namespace, Map<string, string>>();
const MAX_KEPT_KEYS = 10_000;

export function attributeKey(namespace: Namespace, name: string): string {
  if (namespace === 'control') return name;
  let byName = prefixedKeys.get(namespace);
  if (!byName) prefixedKeys.set(namespace, (byName = new Map()));
  let key = byName.get(name);
  if (key === undefined) {
    key = `${namespace}:${name}`;
    if (byName.size < MAX_KEPT_KEYS) byName.set(name, key);
  }
  return key;
}

export function parseAttributeKey(key: string): { namespace: Namespace; name: string } | undefined {
  const colon = key.indexOf(':');
  if (colon < 0) return { namespace: 'control', name: key };
  const prefix = key.slice(0, colon);
  if (!isNamespace(prefix)) return undefined;
  return { namespace: prefix, name: key.slice(colon + 1) };
}

/** `Button` for control roles, `item:ListItem` for the others. */
export function qualifiedRole(namespace: Namespace, role: string): string {
  return namespace === 'control' ? role : `${namespace}:${role}`;
}
