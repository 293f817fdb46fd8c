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
export function attributeKey(namespace: Namespace, name: string): string {
  return namespace === 'control' ? name : `${namespace}:${name}`;
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
