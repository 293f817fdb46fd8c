import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../random.js';
import { NameIndex, type NameIndexSource } from '../name-index.js';

interface Node {
  id: number;
  role: string;
  name: string;
  parent: Node | null;
  children: Node[];
}

/** A plain tree for the index: roles A/B/C, names x/y, edited at random places. */
function source(root: Node): NameIndexSource<Node> {
  return {
    root,
    children: (n) => n.children,
    parent: (n) => n.parent,
    namespaceUri: () => 'urn:test',
    localName: (n) => n.role,
    name: (n) => n.name,
  };
}

function preorderPosition(root: Node): Map<Node, number> {
  const at = new Map<Node, number>();
  const visit = (n: Node) => {
    at.set(n, at.size);
    n.children.forEach(visit);
  };
  visit(root);
  return at;
}

test('NameIndex.patch follows removed and added subtrees: the same groups as an index built anew', () => {
  const random = seededRandom(81);
  let next = 0;
  const make = (parent: Node | null, depth: number): Node => {
    const node: Node = {
      id: next++,
      role: 'ABC'[Math.floor(random() * 3)]!,
      name: random() < 0.5 ? 'x' : 'y',
      parent,
      children: [],
    };
    if (depth > 0) for (let i = Math.floor(random() * 4); i > 0; i--) node.children.push(make(node, depth - 1));
    return node;
  };
  const root: Node = { id: next++, role: 'Root', name: '', parent: null, children: [] };
  for (let i = 0; i < 5; i++) root.children.push(make(root, 3));
  const index = new NameIndex(source(root));
  const all = () => {
    const out: Node[] = [];
    const visit = (n: Node) => {
      out.push(n);
      n.children.forEach(visit);
    };
    root.children.forEach(visit);
    return out;
  };
  for (let round = 0; round < 300; round++) {
    const nodes = all();
    const parent = random() < 0.2 || nodes.length === 0 ? root : nodes[Math.floor(random() * nodes.length)]!;
    const removed: Node[] = [];
    const added: Node[] = [];
    if (parent.children.length > 0 && random() < 0.5) {
      const [gone] = parent.children.splice(Math.floor(random() * parent.children.length), 1);
      const visit = (n: Node) => {
        removed.push(n);
        n.children.forEach(visit);
      };
      visit(gone!);
    }
    for (let k = Math.floor(random() * 3); k > 0; k--) {
      const fresh = make(parent, Math.floor(random() * 3));
      parent.children.splice(Math.floor(random() * (parent.children.length + 1)), 0, fresh);
      added.push(fresh);
    }
    const order = preorderPosition(root);
    index.patch(removed, added, (a, b) => order.get(a)! - order.get(b)!);
    const fresh = new NameIndex(source(root));
    assert.equal(index.size, fresh.size, `round ${round}: size`);
    for (const role of ['A', 'B', 'C']) {
      for (const name of [undefined, 'x', 'y']) {
        const list = (i: NameIndex<Node>) => {
          const out: number[] = [];
          const found = i.get('urn:test', role, name);
          for (let at = 0, n = found.at(0); n; n = found.at(++at)) out.push(n.id);
          return out;
        };
        assert.deepEqual(list(index), list(fresh), `round ${round}: ${role} ${name ?? ''}`);
      }
    }
  }
});
