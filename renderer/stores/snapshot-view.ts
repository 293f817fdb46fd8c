/**
 * Looking at a snapshot instead of the live desktop: the host shows this connection the snapshot (read-only, the
 * mock provider behind it) and the stores start over from its desktop; closing goes back to the live desktop.
 */
import type { Stores } from '../app-context.js';

/** The snapshot the connection shows, or undefined for the live desktop. */
export function shownSnapshot(stores: Pick<Stores, 'hostState'>): string | undefined {
  return stores.hostState.getState().info?.status.snapshot?.name;
}

async function startOver(stores: Stores): Promise<void> {
  const { hostState, tree, xpath, locators } = stores;
  tree.getState().select(undefined);
  tree.getState().setFilter('');
  locators.getState().clear();
  const info = await hostState.getState().connect();
  if (!info) return;
  await tree.getState().setRoot(info.desktop);
  if (xpath.getState().expression.trim()) await xpath.getState().evaluate();
}

/** Opens snapshot XML (a file's text; `name` is what errors and the banner call it). */
export async function openSnapshotView(stores: Stores, xml: string, name: string): Promise<number> {
  const { nodes } = await stores.client.openSnapshot(xml, name);
  await startOver(stores);
  return nodes;
}

export async function closeSnapshotView(stores: Stores): Promise<void> {
  await stores.client.closeSnapshot();
  await startOver(stores);
}
