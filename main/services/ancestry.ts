import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * A node's ancestors from the desktop down, as the tree shows them: a top-level window sits below its application
 * (the grouped view), so the application is put back into the path between the desktop and the window.
 */
export async function ancestryOf(runtime: Runtime, node: RuntimeNode): Promise<RuntimeNode[]> {
  const chain = runtime.ancestors(node);
  const top = chain.length > 1 ? chain[1] : chain.length === 1 ? node : undefined;
  if (top && top.namespace !== 'app' && chain[0] === runtime.desktop) {
    const apps = (await runtime.desktop.children()).filter((child) => child.namespace === 'app');
    const windows = await Promise.all(apps.map((app) => app.children().catch((): readonly RuntimeNode[] => [])));
    const owner = apps.find((_app, index) => windows[index]!.some((child) => child.runtimeId === top.runtimeId));
    if (owner) chain.splice(1, 0, owner);
  }
  return chain;
}
