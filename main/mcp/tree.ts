import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import { lineOf, viewOf, type NodeItem, type NodeView } from './node-items.js';
import type { ShortIds } from './short-ids.js';

/** A node of ui_tree's answer: the item, its children shown, and how many it has that were cut. */
export interface TreeItem extends NodeItem {
  children: TreeItem[];
  /** Children not shown (the depth or node cap cut them); absent when none were cut. */
  more?: number;
}

/** ui_tree's caps when the agent names none (and those of the ui://tree resources). */
export const TREE_DEFAULTS = { maxDepth: 12, maxNodes: 500 } as const;

export interface TreeOptions {
  maxDepth: number;
  maxNodes: number;
}

export interface TreeAnswer {
  root: TreeItem;
  lines: string[];
  nodes: number;
  /** The caps cut something. */
  truncated: boolean;
}

interface Visit {
  node: RuntimeNode;
  depth: number;
  children: Visit[];
  /** Children that exist but are not shown. */
  more: number;
  view?: NodeView;
}

/**
 * A subtree under caps, breadth first (the top of a large application before the depths of its first list), shown
 * in tree order. A node whose children were cut says how many (`more`); the walk never asks for the children of a
 * level it will not show past the cap.
 */
export async function readTree(
  runtime: Runtime,
  ids: ShortIds,
  root: RuntimeNode,
  options: TreeOptions,
): Promise<TreeAnswer> {
  const top: Visit = { node: root, depth: 0, children: [], more: 0 };
  ids.id(root);
  const all: Visit[] = [top];
  let level: Visit[] = [top];
  while (level.length > 0) {
    const lists = await Promise.all(
      level.map((visit) => {
        const held = runtime.peekStructuralChildren(visit.node);
        return held ?? runtime.structuralChildren(visit.node).catch((): readonly RuntimeNode[] => []);
      }),
    );
    const next: Visit[] = [];
    for (const [index, visit] of level.entries()) {
      const children = lists[index]!;
      if (visit.depth >= options.maxDepth) {
        visit.more = children.length;
        continue;
      }
      for (const child of children) {
        if (all.length >= options.maxNodes) {
          visit.more++;
          continue;
        }
        const childVisit: Visit = { node: child, depth: visit.depth + 1, children: [], more: 0 };
        ids.id(child); // in tree order: the desktop e1, its applications next ...
        visit.children.push(childVisit);
        next.push(childVisit);
        all.push(childVisit);
      }
    }
    level = next;
  }
  await Promise.all(all.map(async (visit) => (visit.view = await viewOf(visit.node, ids))));
  const lines: string[] = [];
  let truncated = false;
  const build = (visit: Visit, indent: string): TreeItem => {
    lines.push(`${indent}${lineOf(visit.view!)}`);
    const item: TreeItem = {
      ...visit.view!.item,
      children: visit.children.map((child) => build(child, `${indent}  `)),
    };
    if (visit.more > 0) {
      truncated = true;
      item.more = visit.more;
      lines.push(`${indent}  … ${visit.more} more`);
    }
    return item;
  };
  const tree = build(top, '');
  return { root: tree, lines, nodes: all.length, truncated };
}
