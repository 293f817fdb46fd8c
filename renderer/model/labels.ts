/** How the UI names a node: the row label in the tree, in results and in the details' title. */
export function roleLabel(node: { namespace: string; role: string }): string {
  return node.namespace === 'control' ? node.role : `${node.namespace}:${node.role}`;
}

/** `Button "OK"`, or just the role when the node has no name. */
export function nodeLabel(node: { namespace: string; role: string; name: string }): string {
  const role = roleLabel(node);
  return node.name ? `${role} "${node.name}"` : role;
}
