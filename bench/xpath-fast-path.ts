/**
 * The compiled XPath fast path against fontoxpath (through the plain DOM-like facade), in the same run, over a
 * generated 111,111-node tree: a Window, Panes four levels below it ten wide (five levels with the Window), ten
 * Buttons under each innermost Pane. Nodes are named by their preorder index (`w`, then `p1`, `p2`, ..., the last
 * node is `b111110`). The tree is generated as snapshot XML text and parsed from it.
 *
 * Prints `name value unit` lines and, per query, the ratio fontoxpath / fast path.
 * Run: npm run build && node dist/bench/xpath-fast-path.js
 */
import { SaxesParser } from 'saxes';
import { compileFastPath, type FastItem } from '../shared/xpath/fast/index.js';
import { MemoryTree, type MemNode } from '../shared/xpath/memory-tree.js';
import { PlainFacade } from '../shared/xpath/plain-facade.js';

const WIDTH = 10;
const PANE_LEVELS = 4;

export function generateSnapshotXml(): string {
  const out: string[] = [
    '<snapshot xmlns="urn:platynui:control" xmlns:item="urn:platynui:item" xmlns:app="urn:platynui:app" ' +
      'xmlns:native="urn:platynui:native">',
  ];
  let index = 0;
  const pane = (level: number): void => {
    const i = index++;
    if (level > PANE_LEVELS) {
      out.push(`<Button Name="b${i}"/>`);
      return;
    }
    out.push(`<Pane Name="p${i}">`);
    for (let k = 0; k < WIDTH; k++) pane(level + 1);
    out.push('</Pane>');
  };
  index++;
  out.push('<Window Name="w">');
  for (let k = 0; k < WIDTH; k++) pane(1);
  out.push('</Window></snapshot>');
  return out.join('');
}

export function parseSnapshotXml(xml: string): MemoryTree {
  const tree = new MemoryTree();
  const stack: MemNode[] = [tree.root];
  let depth = 0;
  const parser = new SaxesParser({ xmlns: true });
  parser.on('opentag', (tag) => {
    depth++;
    if (depth === 1) return; // <snapshot>
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) {
      if (a.prefix === 'xmlns' || a.name === 'xmlns') continue;
      attrs[a.prefix ? `${a.prefix}:${a.local}` : a.local] = a.value;
    }
    const n = tree.add(stack[stack.length - 1]!, tag.uri, tag.local, attrs);
    stack.push(n);
  });
  parser.on('closetag', () => {
    if (depth-- > 1) stack.pop();
  });
  parser.write(xml).close();
  return tree;
}

function describe(items: readonly FastItem<MemNode>[]): string {
  const name = (n: MemNode) => n.attrs.find((a) => a.localName === 'Name')?.value ?? '?';
  const head = items
    .slice(0, 3)
    .map((i) => (i.type === 'node' ? name(i.node) : i.type === 'value' ? String(i.value) : i.value));
  return `${items.length}:${head.join(',')}`;
}

/** Median (and fastest) of repeated runs: the machine is shared, single runs are noisy. */
function time(f: () => unknown, minRuns: number, minMs: number): { ms: number; min: number; result: unknown } {
  let result: unknown = f(); // warm-up (and fontoxpath's parse)
  const times: number[] = [];
  const start = performance.now();
  while (times.length < minRuns || performance.now() - start < minMs) {
    const t = performance.now();
    result = f();
    times.push(performance.now() - t);
    if (times.length >= 1000) break;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, min: times[0]!, result };
}

function main(): void {
  let t = performance.now();
  const xml = generateSnapshotXml();
  const genMs = performance.now() - t;
  t = performance.now();
  const tree = parseSnapshotXml(xml);
  const parseMs = performance.now() - t;
  let count = 0;
  const walk = (n: MemNode) => {
    count++;
    n.children.forEach(walk);
  };
  walk(tree.root);
  console.log(`xpath_fast.tree_nodes ${count - 1} nodes`);
  console.log(`xpath_fast.snapshot_xml_bytes ${xml.length} bytes`);
  console.log(`xpath_fast.snapshot_generate ${genMs.toFixed(1)} ms`);
  console.log(`xpath_fast.snapshot_parse ${parseMs.toFixed(1)} ms`);

  const facade = new PlainFacade(tree);
  const queries: [string, string][] = [
    ['button_by_name', "//Button[@Name='b111110']"],
    ['pane_button_3', "//Pane[@Name='p4']/Button[3]"],
    ['all_buttons', '//Button'],
    ['count_buttons', 'count(//Button)'],
    ['first_button', '(//Button)[1]'],
    ['first_pane_button', '(//Pane/Button)[1]'],
    ['first_named', "(//*[@Name='b5'])[1]"],
  ];
  for (const [name, q] of queries) {
    const fq = compileFastPath(q);
    if (!fq) throw new Error(`not compiled: ${q}`);
    const fast = time(() => [...fq.evaluate(tree, tree.root)], 5, 300);
    const slow = time(() => facade.evaluate(q, tree.root), 3, 0);
    const a = describe(fast.result as FastItem<MemNode>[]);
    const b = describe(slow.result as FastItem<MemNode>[]);
    if (a !== b) throw new Error(`${q}: fast path ${a} but fontoxpath ${b}`);
    tree.resetCounters();
    const n = [...fq.evaluate(tree, tree.root)].length;
    const lists = tree.childLists;
    console.log(`xpath_fast.${name}.results ${n} items`);
    console.log(`xpath_fast.${name}.fast ${fast.ms.toFixed(3)} ms`);
    console.log(`xpath_fast.${name}.fast_min ${fast.min.toFixed(3)} ms`);
    console.log(`xpath_fast.${name}.fontoxpath ${slow.ms.toFixed(1)} ms`);
    console.log(`xpath_fast.${name}.ratio ${(slow.ms / fast.ms).toFixed(1)} x`);
    console.log(`xpath_fast.${name}.ratio_min ${(slow.min / fast.min).toFixed(1)} x`);
    console.log(`xpath_fast.${name}.fast_child_lists ${lists} nodes`);
  }
}

if (process.argv[1]?.endsWith('xpath-fast-path.js')) main();
