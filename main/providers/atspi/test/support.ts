import assert from 'node:assert/strict';
import type { ReferenceNode } from '../../../../e2e/support/reference.js';
import { atspiReference } from '../../../../e2e/support/reference.js';
import { toJsonValue } from '../../../../shared/model/values.js';
import type { ProviderNode } from '../../../core/provider.js';
import type { AtspiNode } from '../node.js';
import type { AtspiProvider } from '../provider.js';

/** Helpers for the AT-SPI provider's desktop tests. */

export interface WalkedNode {
  node: AtspiNode;
  parent: WalkedNode | undefined;
  children: WalkedNode[];
  depth: number;
}

/** Walks a provider subtree in document order (children in parallel, order kept). */
export async function walk(root: ProviderNode, parent?: WalkedNode, depth = 0): Promise<WalkedNode> {
  const me: WalkedNode = { node: root as AtspiNode, parent, children: [], depth };
  const kids = await root.children();
  me.children = await Promise.all(kids.map((kid) => walk(kid, me, depth + 1)));
  return me;
}

export function flatten(root: WalkedNode): WalkedNode[] {
  const out: WalkedNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const current = stack.pop() as WalkedNode;
    out.push(current);
    for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i] as WalkedNode);
  }
  return out;
}

export async function applicationOf(provider: AtspiProvider, pid: number): Promise<AtspiNode> {
  const deadline = Date.now() + 15000;
  for (;;) {
    const roots = (await provider.roots()) as AtspiNode[];
    const app = roots.find((root) => root.data.app.processId === pid);
    if (app) return app;
    if (Date.now() > deadline) throw new Error(`application with pid ${pid} is not among the roots`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** libatspi's own view of an application (scripts/atspi-reference.py). */
export async function referenceTree(pid: number): Promise<{ nodes: number; tree: ReferenceNode }> {
  const dump = await atspiReference(process.env, { pid, paths: true });
  if (!dump.tree) throw new Error('the reference walker returned no tree');
  return { nodes: dump.nodes, tree: dump.tree };
}

export function referenceNodes(tree: ReferenceNode): ReferenceNode[] {
  const out: ReferenceNode[] = [];
  const stack = [tree];
  while (stack.length > 0) {
    const current = stack.pop() as ReferenceNode;
    out.push(current);
    for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i] as ReferenceNode);
  }
  return out;
}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Walks an application through the provider and holds it to libatspi's own view: the same nodes (by object path),
 * children in the same order, and the same native roles, names and states. Returns both walks.
 */
export async function assertMatchesLibatspi(
  app: AtspiNode,
  pid: number,
  busName: string,
): Promise<{ ours: WalkedNode[]; theirs: ReferenceNode[] }> {
  const ours = flatten(await walk(app));
  const theirs = referenceNodes((await referenceTree(pid)).tree);
  assert.equal(ours.length, theirs.length, 'node count');
  const byId = new Map(ours.map((w) => [w.node.runtimeId, w]));
  for (const ref of theirs) {
    const id = `atspi://${busName}${ref.path}`;
    const mine = byId.get(id);
    assert.ok(mine, `${id} (${ref.role} "${ref.name}") missing`);
    assert.ok(ref.path);
    const attrs = await mine.node.attributes();
    const nativeRole = await attrs.find((a) => a.namespace === 'native' && a.name === 'Role')?.read();
    assert.deepEqual(nativeRole, { type: 'String', value: ref.role }, id);
    if (ref.role !== 'application') assert.equal(mine.node.name, ref.name, id);
    assert.deepEqual(
      mine.children.map((c) => c.node.runtimeId),
      ref.children.map((c) => `atspi://${busName}${c.path}`),
      `children of ${id}`,
    );
    const states = await attrs.find((a) => a.namespace === 'native' && a.name === 'Accessible.States')?.read();
    assert.deepEqual(
      [...(toJsonValue(states ?? { type: 'Array', value: [] }) as string[])].sort(),
      [...ref.states].sort(),
      `states of ${id}`,
    );
  }
  return { ours, theirs };
}
