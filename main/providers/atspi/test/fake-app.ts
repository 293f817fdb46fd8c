// A fake AT-SPI application for tests, run as its own process on a private bus (fake-bus.ts starts both): it owns
// org.a11y.atspi.Registry (listing itself as the one application) and answers the Accessible, Properties, Cache and
// Collection calls the provider makes for a tree given as JSON. Every call is logged; `org.platynui.Test.CallLog`
// returns the log. Trees may be broken on purpose (a child listing its own ancestor, an absurd child count or
// children list) to test the provider's checks.
//
//   node fake-app.js <bus address> <tree json>
import dbusNext from 'dbus-next';
import { toDbusNextAddress } from '../../../../e2e/support/atspi-bus.js';

const { Message, Variant } = dbusNext;
type DbusMessage = InstanceType<typeof Message>;

export interface FakeNode {
  /** Object path below /org/a11y/atspi/accessible/ (the root is "root"). */
  path: string;
  role: number;
  name: string;
  id?: string;
  states?: number[];
  interfaces?: string[];
  /** Child paths (may list anything, including an ancestor: broken on purpose). */
  children: string[];
  /** The ChildCount it reports (Properties, cache item, GetTree) whatever its children list says: broken on purpose. */
  childCount?: number;
  /** GetChildren answers the children list repeated to this many entries (an absurd children list). */
  listedChildren?: number;
  /** Object attributes (GetAttributes, and the Attributes property in GetTree); none when left out. */
  attributes?: { [key: string]: string };
}

export interface FakeTree {
  nodes: FakeNode[];
  /** Offer Cache.GetItems (a complete cache of every node). */
  cache: boolean;
  /**
   * The cache holds only these nodes (paths), as Chromium's does when it started while a listener was registered;
   * every node when absent.
   */
  cachedPaths?: string[];
  /** After a GetTree walked them, the cache holds these nodes too (an application that creates objects on a walk). */
  cachedAfterWalk?: string[];
  /** Offer Collection.GetTree on the root (pre-order). */
  collection: boolean;
  /** The properties GetTree answers with, of those asked for (an older toolkit's); every one it knows when absent. */
  treeProperties?: string[];
}

const PREFIX = '/org/a11y/atspi/accessible/';
const ACCESSIBLE = 'org.a11y.atspi.Accessible';

async function main(): Promise<void> {
  const [address, json] = process.argv.slice(2) as [string, string];
  const tree = JSON.parse(json) as FakeTree;
  const byPath = new Map(tree.nodes.map((node) => [PREFIX + node.path, node]));
  const parentOf = new Map<string, string>();
  for (const node of tree.nodes) {
    for (const child of node.children)
      if (!parentOf.has(PREFIX + child)) parentOf.set(PREFIX + child, PREFIX + node.path);
  }
  const busAddress = toDbusNextAddress(address) as string;
  const app = dbusNext.sessionBus({ busAddress });
  const registry = dbusNext.sessionBus({ busAddress });
  await Promise.all([once(app, 'connect'), once(registry, 'connect')]);
  const me = (app as unknown as { name: string }).name;
  const log: string[] = [];
  /** A GetTree walked the tree (see FakeTree.cachedAfterWalk). */
  let walked = false;

  const ref = (path: string) => [me, path];
  const interfacesOf = (node: FakeNode) => node.interfaces ?? [ACCESSIBLE, 'org.a11y.atspi.Component'];
  const childCountOf = (node: FakeNode) => node.childCount ?? node.children.length;
  const listedChildrenOf = (node: FakeNode) => {
    const count = node.listedChildren ?? node.children.length;
    if (node.children.length === 0) return [];
    return Array.from({ length: count }, (_, i) => ref(PREFIX + (node.children[i % node.children.length] as string)));
  };
  const reply = (bus: typeof app, msg: DbusMessage, signature: string, body: unknown[]) => {
    bus.send(Message.newMethodReturn(msg, signature, body));
    return true;
  };
  const error = (bus: typeof app, msg: DbusMessage, name: string) => {
    bus.send(Message.newError(msg as unknown as string, name, 'refused')); // (the typings say string; it takes the message)
    return true;
  };

  registry.addMethodHandler((msg: DbusMessage) => {
    if (msg.interface === ACCESSIBLE && msg.member === 'GetChildren' && msg.path === PREFIX + 'root') {
      return reply(registry, msg, 'a(so)', [[ref(PREFIX + 'root')]]);
    }
    if (msg.interface === 'org.a11y.atspi.Registry') return reply(registry, msg, '', []);
    return false;
  });

  app.addMethodHandler((msg: DbusMessage) => {
    const path = msg.path ?? '';
    if (msg.interface === 'org.platynui.Test' && msg.member === 'CallLog') return reply(app, msg, 'as', [log]);
    const node = byPath.get(path);
    if (msg.interface === 'org.freedesktop.DBus.Properties' && msg.member === 'Get') {
      const [, name] = msg.body as [string, string];
      log.push(`Get ${name} ${path}`);
      if (!node) return error(app, msg, 'org.freedesktop.DBus.Error.UnknownObject');
      switch (name) {
        case 'Name':
          return reply(app, msg, 'v', [new Variant('s', node.name)]);
        case 'Description':
          return reply(app, msg, 'v', [new Variant('s', '')]);
        case 'ChildCount':
          return reply(app, msg, 'v', [new Variant('i', childCountOf(node))]);
        case 'AccessibleId':
          return reply(app, msg, 'v', [new Variant('s', node.id ?? '')]);
        case 'Parent':
          return reply(app, msg, 'v', [new Variant('(so)', ref(parentOf.get(path) ?? '/org/a11y/atspi/null'))]);
        case 'ToolkitName':
          return reply(app, msg, 'v', [new Variant('s', 'fake')]);
        default:
          return error(app, msg, 'org.freedesktop.DBus.Error.InvalidArgs');
      }
    }
    if (msg.interface === 'org.a11y.atspi.Cache' && msg.member === 'GetItems') {
      log.push('GetItems');
      if (!tree.cache) return error(app, msg, 'org.freedesktop.DBus.Error.UnknownMethod');
      const cached = tree.cachedPaths ? new Set(tree.cachedPaths) : undefined;
      if (cached && walked) for (const path of tree.cachedAfterWalk ?? []) cached.add(path);
      const items = tree.nodes
        .filter((n) => !cached || cached.has(n.path))
        .map((n) => {
          const p = PREFIX + n.path;
          const parent = parentOf.get(p);
          const index = parent ? (byPath.get(parent) as FakeNode).children.indexOf(n.path) : -1;
          return [
            ref(p),
            ref(PREFIX + 'root'),
            ref(parent ?? '/org/a11y/atspi/null'),
            index,
            childCountOf(n),
            interfacesOf(n),
            n.name,
            n.role,
            '',
            n.states ?? [0, 0],
          ];
        });
      return reply(app, msg, 'a((so)(so)(so)iiassusau)', [items]);
    }
    if (msg.interface === 'org.a11y.atspi.Collection' && msg.member === 'GetTree') {
      const [, properties] = msg.body as [unknown, string[]];
      log.push(`GetTree ${properties.join(',')}`);
      walked = true;
      // An empty list means "every property": it crashed Chromium. The fake refuses it loudly.
      if (properties.length === 0) return error(app, msg, 'org.platynui.Test.EmptyPropertyList');
      if (!tree.collection) return error(app, msg, 'org.freedesktop.DBus.Error.UnknownMethod');
      const out: unknown[] = [];
      const visit = (p: string, depth: number) => {
        const n = byPath.get(p);
        if (!n || depth > 50) return;
        const props: { [key: string]: InstanceType<typeof Variant> } = {};
        for (const name of properties) {
          if (tree.treeProperties && !tree.treeProperties.includes(name)) continue;
          if (name === 'ChildCount') props[name] = new Variant('i', childCountOf(n));
          if (name === 'AccessibleId') props[name] = new Variant('s', n.id ?? '');
          if (name === 'Attributes') props[name] = new Variant('a{ss}', n.attributes ?? {});
          if (name === 'Name') props[name] = new Variant('s', n.name);
          if (name === 'Description') props[name] = new Variant('s', '');
        }
        out.push([ref(p), props]);
        for (const child of n.children) visit(PREFIX + child, depth + 1);
      };
      visit(path, 0);
      return reply(app, msg, 'a((so)a{sv})', [out]);
    }
    if (msg.interface !== ACCESSIBLE) return false;
    log.push(`${msg.member} ${path}`);
    if (!node) return error(app, msg, 'org.freedesktop.DBus.Error.UnknownObject');
    switch (msg.member) {
      case 'GetChildren':
        return reply(app, msg, 'a(so)', [listedChildrenOf(node)]);
      case 'GetRole':
        return reply(app, msg, 'u', [node.role]);
      case 'GetState':
        return reply(app, msg, 'au', [node.states ?? [0, 0]]);
      case 'GetInterfaces':
        return reply(app, msg, 'as', [interfacesOf(node)]);
      case 'GetAttributes':
        return reply(app, msg, 'a{ss}', [node.attributes ?? {}]);
      default:
        return false;
    }
  });
  await registry.requestName('org.a11y.atspi.Registry', 0);
  process.stdout.write(`ready ${me}\n`);
}

function once(bus: { once(event: string, listener: () => void): unknown }, event: string): Promise<void> {
  return new Promise((resolve) => bus.once(event, () => resolve()));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
