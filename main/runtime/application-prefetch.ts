import type { ApplicationReach } from '../../shared/xpath/fast/reach.js';
import type { Runtime } from './runtime.js';

/**
 * Starts loading the trees of the applications a query will walk (ApplicationReach) as soon as the providers are
 * connected, while the XPath engine starts, instead of when the engine first asks for their children. Each
 * application's id is asked for first, as the XPath bridge would, so a provider that loads in bulk reads the ids with
 * the structure; then its windows' children, which is where such a provider starts its bulk load (a query reaches
 * below the windows, see ApplicationReach). Nothing waits for it and a failure is left to the query, which asks for
 * the same data again.
 */
export function prefetchApplications(runtime: Runtime, reach: ApplicationReach): Prefetch {
  if (reach.kind === 'none') return { requested: Promise.resolve() };
  const wanted = (name: string) => reach.kind === 'all' || reach.names.includes(name);
  let requested!: () => void;
  const prefetch: Prefetch = { requested: new Promise<void>((resolve) => (requested = resolve)) };
  void runtime.desktop
    .children()
    .then((top) =>
      Promise.all(
        top
          .filter((node) => node.namespace === 'app' && wanted(node.name))
          .map((node) =>
            node
              .loadId()
              .then(() => node.children())
              .then((windows) => windows.map((window) => window.children().catch(() => undefined))),
          ),
      ),
    )
    .then((loads) => {
      requested();
      return Promise.all(loads.flat());
    })
    .catch(() => undefined)
    .finally(requested);
  return prefetch;
}

export interface Prefetch {
  /**
   * Settles once every reached application's windows are listed and what lies below them is asked for (the loads
   * run on), or the prefetch failed.
   */
  requested: Promise<void>;
}
