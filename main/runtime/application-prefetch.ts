import type { ApplicationReach } from '../../shared/xpath/fast/reach.js';
import type { Runtime } from './runtime.js';

/**
 * Starts loading the trees of the applications a query will walk (ApplicationReach) as soon as the providers are
 * connected, while the XPath engine starts, instead of when the engine first asks for their children. Each
 * application's id is asked for first, as the XPath bridge would, so a provider that loads in bulk reads the ids with
 * the structure. Nothing waits for it and a failure is left to the query, which asks for the same data again.
 */
export function prefetchApplications(runtime: Runtime, reach: ApplicationReach): void {
  if (reach.kind === 'none') return;
  const wanted = (name: string) => reach.kind === 'all' || reach.names.includes(name);
  void runtime.desktop
    .children()
    .then((top) =>
      Promise.all(
        top
          .filter((node) => node.namespace === 'app' && wanted(node.name))
          .map((node) => node.loadId().then(() => node.children())),
      ),
    )
    .catch(() => undefined);
}
