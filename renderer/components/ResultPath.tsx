import { useEffect, useState } from 'react';
import type { InspectorClient } from '../../shared/api/client.js';
import type { NodeSummary } from '../../shared/api/schema.js';
import { nodeLabel } from '../model/labels.js';
import { useStores } from '../app-context.js';

/** Paths asked for, by runtime id; the oldest are forgotten past this many. */
const PATH_CACHE_LIMIT = 2000;
const cache = new WeakMap<InspectorClient, Map<string, Promise<string>>>();

/** Where a node is: its application and the ancestors below it (the desktop left out), `Studio › Window "…"`. */
export function pathText(ancestors: readonly NodeSummary[]): string {
  return ancestors
    .slice(1)
    .map((node) => (node.name ? node.name : nodeLabel(node)))
    .join(' › ');
}

function pathOf(client: InspectorClient, runtimeId: string): Promise<string> {
  let paths = cache.get(client);
  if (!paths) cache.set(client, (paths = new Map()));
  let path = paths.get(runtimeId);
  if (!path) {
    path = client.ancestors(runtimeId).then(
      ({ nodes }) => pathText(nodes),
      () => '',
    );
    paths.set(runtimeId, path);
    if (paths.size > PATH_CACHE_LIMIT) paths.delete(paths.keys().next().value!);
  }
  return path;
}

/** The application and path of a result's node, read when its row comes into view. */
export function ResultPath({ runtimeId }: { runtimeId: string }) {
  const { client } = useStores();
  const [path, setPath] = useState('');
  useEffect(() => {
    let live = true;
    void pathOf(client, runtimeId).then((text) => live && setPath(text));
    return () => {
      live = false;
    };
  }, [client, runtimeId]);
  return path ? <span className="secondary result-path"> in {path}</span> : null;
}
