/**
 * How the stores work together: host events go to the tree and the session, the selection drives the details
 * panel, follow-focus and pick results reveal in the tree, and the XPath completions read the live tree's names.
 */
import type { Stores } from '../app-context.js';
import { qualifiedRole } from '../../shared/model/namespaces.js';
import type { Vocabulary } from '../xpath/language.js';

export function wireStores(stores: Pick<Stores, 'api' | 'tree' | 'details' | 'session' | 'settings'>): {
  start: () => Promise<void>;
  vocabulary: () => Vocabulary;
  stop: () => void;
} {
  const { api, tree, details, session, settings } = stores;
  const offs: Array<() => void> = [];
  offs.push(
    api.subscribe((event) => {
      tree.getState().handleEvent(event);
      session.getState().handleEvent(event);
    }),
  );
  // The details follow the selected node, and its newest view (a reload brings a new revision or the stale mark).
  let shown: unknown;
  offs.push(
    tree.subscribe((state) => {
      const node = state.selectedId ? state.nodes.get(state.selectedId) : undefined;
      if (node === shown) return;
      const previous = details.getState().node;
      shown = node;
      if (!node) {
        if (!state.selectedId) void details.getState().show(undefined);
        return;
      }
      if (previous?.runtimeId === node.runtimeId && node.stale && !previous.stale) {
        details.setState({ node });
        return;
      }
      void details.getState().show(node);
    }),
  );

  // Attribute names seen on any node shown so far: completions offer them after `@`.
  const seenAttributes = new Set<string>();
  offs.push(
    details.subscribe((state, previous) => {
      if (state.attributes === previous.attributes) return;
      for (const entry of state.attributes) {
        seenAttributes.add(entry.namespace === 'control' ? entry.name : `${entry.namespace}:${entry.name}`);
      }
    }),
  );

  const start = async () => {
    const info = await session.getState().connect();
    if (!info) return;
    if (settings.getState().followFocus && info.features.followFocus) {
      await session.getState().setFollowFocus(true);
    }
    if (info.accessibility !== 'off') await tree.getState().setRoot(info.desktop);
  };

  const vocabulary = (): Vocabulary => {
    const roles = new Set<string>();
    for (const node of tree.getState().nodes.values()) roles.add(qualifiedRole(node.namespace, node.role));
    const attributes = new Set<string>([
      'Name',
      'Role',
      'Id',
      'Bounds',
      'IsEnabled',
      'IsVisible',
      'IsFocused',
      'RuntimeId',
      'Technology',
    ]);
    for (const name of seenAttributes) attributes.add(name);
    return { roles, attributes };
  };

  return { start, vocabulary, stop: () => offs.forEach((off) => off()) };
}
