import type { McpServer } from './sdk.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from './sdk.js';
import { InspectorError } from '../../shared/model/errors.js';
import { Coalescer } from './coalescer.js';
import type { McpContext } from './context.js';
import { readTree, TREE_DEFAULTS } from './tree.js';
import { wrapUntrusted } from './untrusted.js';

export const TREE_URI = 'ui://tree';
export const TREE_JSON_URI = 'ui://tree.json';
const URIS: readonly string[] = [TREE_URI, TREE_JSON_URI];

/** Notifications of a changed tree are sent at most this often. */
export const NOTIFY_INTERVAL_MS = 1000;

/**
 * The desktop tree as resources (the same caps as ui_tree's defaults): ui://tree as text, ui://tree.json as ui_tree's
 * structuredContent. A client subscribed to them hears `notifications/resources/updated` when the tree changes, at
 * most once a second however busy the applications are. Returns the function that stops the notifications.
 */
export function registerTreeResources(server: McpServer, context: McpContext): () => void {
  const read = () => readTree(context.runtime, context.ids, context.runtime.desktop, TREE_DEFAULTS);
  server.registerResource(
    'tree',
    TREE_URI,
    {
      title: 'Desktop accessibility tree (text)',
      description: 'The lines of ui_tree for the desktop; application text wrapped as untrusted.',
      mimeType: 'text/plain',
    },
    async (uri) => {
      const tree = await read();
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: wrapUntrusted(tree.lines.join('\n')) }] };
    },
  );
  server.registerResource(
    'tree-json',
    TREE_JSON_URI,
    {
      title: 'Desktop accessibility tree (JSON)',
      description:
        "ui_tree's structuredContent for the desktop: {items, nodes, truncated}; names are application text.",
      mimeType: 'application/json',
    },
    async (uri) => {
      const tree = await read();
      const json = JSON.stringify({ items: [tree.root], nodes: tree.nodes, truncated: tree.truncated });
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: json }] };
    },
  );

  const subscribed = new Set<string>();
  const notifier = new Coalescer(() => {
    for (const uri of subscribed) void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
  }, NOTIFY_INTERVAL_MS);
  const known = (uri: string) => {
    if (!URIS.includes(uri)) {
      throw new InspectorError('invalid-input', `no resource "${uri}"; there are ${URIS.join(' and ')}`, {
        path: 'uri',
      });
    }
  };
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    known(request.params.uri);
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  // Provider events (an event service can take their place here alone).
  const stop = context.runtime.registerEventSink(() => {
    if (subscribed.size > 0) notifier.poke();
  });
  return () => {
    stop();
    notifier.close();
  };
}
