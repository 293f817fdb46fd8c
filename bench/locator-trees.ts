import { DEFAULT_MOCK_TREE } from '../main/providers/mock/default-tree.js';
import {
  buildLocatorTree,
  deepClone,
  isTopLevel,
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
  /**
   * Reported on its own, outside the overall figure: a change no locator built on that information can survive by
   * definition (see window-titles-replaced).
   */
  separate?: boolean;
  /** The change depends on the target (applied once per target, which is then given). */
  perTarget?: boolean;
  apply(tree: LocatorTree, target?: LocatorNode): LocatorTree;
}

let inserted = 0;
/**
 * A node added by a mutation. `sibling`: like one of the nodes it is added next to (a new row of a list has the
 * role and the attributes of the others: IsReadOnly, native:Role, ...), with its own name and no Id or runtime id;
 * else a bare container with only a name.
 */
function newNode(like: LocatorNode, name: string, sibling = true): LocatorNode {
  const key = `inserted-${inserted++}`;
  const attributes = new Map<string, string>();
  if (sibling) for (const [k, v] of like.attributes) if (!OWN_IDENTITY.has(k)) attributes.set(k, v);
  attributes.set('Name', name);
  return { namespace: like.namespace, role: like.role, name, attributes, parent: null, children: [], key };
}

/** What a new node does not share with the sibling it is modelled on. */
const OWN_IDENTITY: ReadonlySet<string> = new Set([
  'Name',
  'Id',
  'RuntimeId',
  'native:Accessible.AccessibleId',
  'native:Accessible.Name',
  'Text',
]);

function isApp(node: LocatorNode): boolean {
  return node.namespace === 'app';
}

function rename(node: LocatorNode, name: string): void {
  (node as { name: string }).name = name;
  (node.attributes as Map<string, string>).set('Name', name);
}

const TITLE_DECORATIONS: readonly ((title: string) => string)[] = [
  (title) => `*${title}`,
  (title) => `${title} (Not Responding)`,
  (title) => `${title} - edited`,
];

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
    // Every node unrelated to the target is renamed: all but the target, its ancestors and its own content (the
    // nodes below it, which are part of what it is: a row's label cell, a dialog's buttons).
    name: 'unrelated-renamed',
    perTarget: true,
    apply(tree, target) {
      const protect = target ? protectedKeys(target) : new Set<string>();
      const copy = deepClone(tree);
      for (const node of copy.nodes) {
        if (protect.has(node.key) || node.name === '') continue;
        rename(node, `${node.name} (renamed)`);
      }
      return reindex(copy.root);
    },
  },
  {
    // The target's own content is renamed (the label cell of an unnamed row, the buttons of an unnamed toolbar),
    // nothing else. A node known only by its content cannot survive this; reported separately.
    name: 'content-renamed',
    perTarget: true,
    separate: true,
    apply(tree, target) {
      const content = new Set<string>();
      const collect = (node: LocatorNode): void => {
        for (const child of node.children) {
          content.add(child.key);
          collect(child);
        }
      };
      if (target) collect(target);
      const copy = deepClone(tree);
      for (const node of copy.nodes) {
        if (!content.has(node.key) || node.name === '') continue;
        rename(node, `${node.name} (renamed)`);
      }
      return reindex(copy.root);
    },
  },
  {
    // Titles change while the application runs without the window becoming another one: a modified marker (gedit's
    // `*notes.txt - gedit`), a status suffix (`(Not Responding)`), an appended state. Windows take turns.
    name: 'window-titles-changed',
    apply(tree) {
      const copy = deepClone(tree);
      let turn = 0;
      for (const node of copy.nodes) {
        if (!isTopLevel(node, copy) || isApp(node) || node.name === '') continue;
        const decorate = TITLE_DECORATIONS[turn++ % TITLE_DECORATIONS.length]!;
        rename(node, decorate(node.name));
      }
      return reindex(copy.root);
    },
  },
  {
    // The part of the title that tells windows apart is replaced (another document opened: `Document 3 - Editor`
    // becomes `Document 4 - Editor`). A locator anchored on that part breaks by definition; only Ids, the application
    // (when the window is its only one), content or positions can survive. Reported separately.
    name: 'window-titles-replaced',
    separate: true,
    apply(tree) {
      const copy = deepClone(tree);
      let turn = 0;
      for (const node of copy.nodes) {
        if (!isTopLevel(node, copy) || isApp(node) || node.name === '') continue;
        let app: LocatorNode | null = node.parent;
        while (app && !isApp(app)) app = app.parent;
        const parts = node.name.split(' - ');
        const which = parts.findIndex((part) => part !== app?.name);
        parts[which < 0 ? 0 : which] = `Untitled ${++turn}`;
        rename(node, parts.join(' - '));
      }
      return reindex(copy.root);
    },
  },
  {
    // Each application opens one more top-level window of the role of its first one (a second document, a
    // non-modal tool window). A locator that relies on the window being the only one breaks by definition.
    // Reported separately: the families do not include it, it shows the price of application scope.
    name: 'window-opened',
    separate: true,
    apply(tree) {
      const copy = deepClone(tree);
      for (const app of copy.root.children) {
        if (!isApp(app) || app.children.length === 0) continue;
        app.children.push(newNode(app.children[0]!, `Untitled ${inserted}`));
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
        if (!isTopLevel(node, copy) || isApp(node) || node.children.length === 0) continue;
        const wrapper = newNode({ ...node, namespace: 'control', role: 'Pane' } as LocatorNode, '', false);
        wrapper.children = node.children;
        node.children = [wrapper];
      }
      return reindex(copy.root);
    },
  },
];

/** The target, its ancestors and its descendants: what "unrelated" excludes. */
export function protectedKeys(target: LocatorNode): Set<string> {
  const keys = new Set<string>();
  for (let node: LocatorNode | null = target; node; node = node.parent) keys.add(node.key);
  const down = (node: LocatorNode): void => {
    for (const child of node.children) {
      keys.add(child.key);
      down(child);
    }
  };
  down(target);
  return keys;
}

/**
 * Nodes of a tree that nothing but their position tells apart: the same role and stable attributes, the same
 * subtree, under ancestors that are the same in the same way. A mutation that gives the target such a twin makes it
 * ambiguous for every locator; the harness reports those cases instead of counting them as locator failures.
 */
export function twinsOf(tree: LocatorTree, stable: (key: string) => boolean): Map<string, number> {
  const ids = new Map<string, number>();
  const intern = (text: string): number => {
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = ids.size));
    return id;
  };
  const own = (node: LocatorNode): string => {
    const attrs = [...node.attributes].filter(([key]) => stable(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `${node.namespace}:${node.role}${JSON.stringify(attrs)}`;
  };
  const subtree = new Map<LocatorNode, number>();
  const down = (node: LocatorNode): number => {
    const id = intern(`${own(node)}(${node.children.map(down).join(',')})`);
    subtree.set(node, id);
    return id;
  };
  tree.root.children.forEach(down);
  const signature = new Map<LocatorNode, number>();
  const counts = new Map<number, number>();
  for (const node of tree.nodes) {
    const parent = node.parent && node.parent !== tree.root ? signature.get(node.parent)! : -1;
    const id = intern(`${parent}/${subtree.get(node)!}`);
    signature.set(node, id);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const out = new Map<string, number>();
  for (const node of tree.nodes) out.set(node.key, counts.get(signature.get(node)!)! - 1);
  return out;
}
