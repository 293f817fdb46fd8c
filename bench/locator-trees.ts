import { DEFAULT_MOCK_TREE } from '../main/providers/mock/default-tree.js';
import {
  buildLocatorTree,
  deepClone,
  locatorTreeFromSnapshot,
  reindex,
  type LocatorNode,
  type LocatorNodeInit,
  type LocatorTree,
} from '../shared/locators/tree.js';
import { readSnapshotXml } from '../shared/snapshot/xml-reader.js';
import { seededRandom } from '../shared/random.js';

export function mockLocatorTree(): LocatorTree {
  return locatorTreeFromSnapshot(readSnapshotXml(DEFAULT_MOCK_TREE));
}

/**
 * A desktop shaped like real applications: several apps, each with windows holding toolbars (buttons with the same
 * names in every window, some with developer Ids), nested unnamed panels, lists and trees of rows whose names repeat
 * across lists, edits and labels (some with clock-like names), and geometry on every node. About `size` nodes.
 */
export function syntheticTree(size: number, seed = 7): LocatorTree {
  const rnd = seededRandom(seed);
  let counter = 0;
  const key = () => `n${counter++}`;
  const bounds = () =>
    JSON.stringify({ x: Math.floor(rnd() * 1800), y: Math.floor(rnd() * 1000), width: 80, height: 24 });
  const node = (
    namespace: LocatorNodeInit['namespace'],
    role: string,
    name: string,
    extra: { [key: string]: string } = {},
    children: LocatorNodeInit[] = [],
  ): LocatorNodeInit => ({
    namespace,
    role,
    name,
    key: key(),
    attributes: new Map<string, string>([
      ['Name', name],
      ['Bounds', bounds()],
      ['IsEnabled', 'true'],
      ...Object.entries(extra),
    ]),
    children,
  });
  const apps: LocatorNodeInit[] = [];
  let total = 0;
  const count = (n: LocatorNodeInit): number => 1 + (n.children ?? []).reduce((s, c) => s + count(c), 0);
  for (let a = 0; total < size; a++) {
    const windows: LocatorNodeInit[] = [];
    for (const title of ['Main', 'Settings', 'Report']) {
      const tb = ['OK', 'Cancel', 'Apply', 'Help', 'Refresh'].map((name, b) =>
        node('control', 'Button', name, rnd() < 0.3 ? { Id: `btn-${a}-${title}-${b}` } : {}),
      );
      const lists: LocatorNodeInit[] = [];
      const listCount = 1 + Math.floor(rnd() * 3);
      for (let l = 0; l < listCount; l++) {
        const rows = Array.from({ length: 10 + Math.floor(rnd() * 40) }, (_, r) =>
          node('item', 'ListItem', `Row ${r + 1}`, { Text: `Row ${r + 1}` }),
        );
        lists.push(
          node(
            'control',
            'List',
            l === 0 ? 'Items' : `Items ${l + 1}`,
            rnd() < 0.5 ? { Id: `list-${a}-${title}-${l}` } : {},
            rows,
          ),
        );
      }
      const treeItems = Array.from({ length: 4 }, (_, t) =>
        node('item', 'TreeItem', `Folder ${t + 1}`, {}, [
          node('item', 'TreeItem', 'index.ts'),
          node('item', 'TreeItem', 'util.ts'),
        ]),
      );
      const form = [
        node('control', 'Text', 'Search:'),
        node('control', 'Edit', 'Search', rnd() < 0.5 ? { Id: `search-${a}-${title}` } : {}),
        node('control', 'Text', `${10 + Math.floor(rnd() * 12)}:${10 + Math.floor(rnd() * 49)}:07`),
        node('control', 'CheckBox', 'Enabled'),
      ];
      const content = node('control', 'Pane', '', {}, [
        node('control', 'Pane', '', {}, [
          node('control', 'Pane', '', {}, lists),
          node('control', 'Tree', 'Files', {}, treeItems),
        ]),
        node('control', 'Pane', '', {}, form),
      ]);
      windows.push(
        node('control', 'Window', `App ${a} - ${title}`, title === 'Main' ? { Id: `main-${a}` } : {}, [
          node('control', 'Pane', '', {}, tb),
          content,
          node('control', 'StatusBar', '', {}, [node('control', 'Text', 'Ready')]),
        ]),
      );
    }
    const app = node(
      'app',
      'Application',
      `App ${a}`,
      { ProcessName: `app${a}`, ProcessId: String(1000 + a) },
      windows,
    );
    apps.push(app);
    total += count(app);
  }
  return buildLocatorTree(apps);
}

/** One change of an application between recording a locator and running it. */
export interface Mutation {
  name: string;
  /** `protect`: keys of the target and its ancestors (what "unrelated" excludes). */
  apply(tree: LocatorTree, protect: ReadonlySet<string>): LocatorTree;
}

let inserted = 0;
function newNode(like: LocatorNode, name: string): LocatorNode {
  const key = `inserted-${inserted++}`;
  return {
    namespace: like.namespace,
    role: like.role,
    name,
    attributes: new Map([['Name', name]]),
    parent: null,
    children: [],
    key,
  };
}

function isApp(node: LocatorNode): boolean {
  return node.namespace === 'app';
}

export const MUTATIONS: readonly Mutation[] = [
  {
    name: 'rows-inserted',
    apply(tree) {
      const copy = deepClone(tree);
      for (const node of copy.nodes) {
        if (isApp(node) || node.children.length === 0) continue;
        node.children.unshift(newNode(node.children[0]!, `Inserted ${inserted}`));
      }
      return reindex(copy.root);
    },
  },
  {
    name: 'siblings-reordered',
    apply(tree) {
      const copy = deepClone(tree);
      for (const node of copy.nodes) node.children.reverse();
      return reindex(copy.root);
    },
  },
  {
    name: 'unrelated-renamed',
    apply(tree, protect) {
      const copy = deepClone(tree);
      for (const node of copy.nodes) {
        if (protect.has(node.key) || node.name === '') continue;
        const name = `${node.name} (renamed)`;
        (node as { name: string }).name = name;
        (node.attributes as Map<string, string>).set('Name', name);
      }
      return reindex(copy.root);
    },
  },
  {
    name: 'window-titles-changed',
    apply(tree) {
      const copy = deepClone(tree);
      for (const node of copy.nodes) {
        if (node.role !== 'Window' || node.name === '') continue;
        const name = `${node.name} - edited`;
        (node as { name: string }).name = name;
        (node.attributes as Map<string, string>).set('Name', name);
      }
      return reindex(copy.root);
    },
  },
  {
    name: 'everything-moved',
    apply(tree) {
      const copy = deepClone(tree);
      for (const node of copy.nodes) {
        const attributes = node.attributes as Map<string, string>;
        const raw = attributes.get('Bounds');
        if (raw) {
          const b = JSON.parse(raw) as { x: number; y: number; width: number; height: number };
          attributes.set('Bounds', JSON.stringify({ ...b, x: b.x + 137, y: b.y + 59 }));
        }
        attributes.delete('ActivationPoint');
      }
      // The layout changed too: every window's content now sits in a new container.
      for (const node of copy.nodes) {
        if (node.role !== 'Window' || node.children.length === 0) continue;
        const wrapper = newNode({ ...node, namespace: 'control', role: 'Pane' } as LocatorNode, '');
        wrapper.children = node.children;
        node.children = [wrapper];
      }
      return reindex(copy.root);
    },
  },
];

export function protectedKeys(target: LocatorNode): Set<string> {
  const keys = new Set<string>();
  for (let node: LocatorNode | null = target; node; node = node.parent) keys.add(node.key);
  return keys;
}
