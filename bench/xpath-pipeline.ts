// XPath through the whole pipeline (runtime, node cache, XPath worker and its bridge) over a generated mock tree of
// 111,111 nodes (a Window, Panes five levels deep and ten wide, Buttons as leaves), against a plain JavaScript loop
// over the same parsed tree as the baseline, in the same run. Prints `name value unit` lines and ratios.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readSnapshotXml } from '../shared/snapshot/xml-reader.js';
import type { SnapshotNode } from '../shared/snapshot/model.js';
import { Runtime } from '../main/runtime/runtime.js';
import { XPathService } from '../main/xpath/xpath-service.js';

function generateTree(): string {
  const lines: string[] = [];
  let buttons = 0;
  const pane = (depth: number, index: number): void => {
    if (depth === 5) {
      lines.push(`<Button Name="b${buttons++}"/>`);
      return;
    }
    lines.push(`<Pane Name="p${depth}-${index}">`);
    for (let i = 0; i < 10; i++) pane(depth + 1, i);
    lines.push('</Pane>');
  };
  lines.push(
    '<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app"><app:Application Name="Big"><Window Name="w">',
  );
  for (let i = 0; i < 10; i++) pane(1, i);
  lines.push('</Window></app:Application></snapshot>');
  return lines.join('\n');
}

function line(name: string, value: number, unit: string): void {
  process.stdout.write(`${name} ${Math.round(value * 100) / 100} ${unit}\n`);
}

function countNodes(nodes: readonly SnapshotNode[], visit: (node: SnapshotNode) => void): void {
  for (const node of nodes) {
    visit(node);
    countNodes(node.children, visit);
  }
}

const xml = generateTree();
const dir = mkdtempSync(path.join(tmpdir(), 'platynui-bench-'));
const file = path.join(dir, 'big.xml');
writeFileSync(file, xml);
const parsed = readSnapshotXml(xml);
let total = 0;
countNodes(parsed, () => total++);
line('xpath.pipeline.tree_nodes', total, 'nodes');

const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock', providerOptions: { mockFile: file } });
const service = new XPathService(runtime);
await service.warmUp();

const queries: Array<{ xpath: string; baseline: () => number }> = [
  {
    xpath: "//Button[@Name='b99999']",
    baseline: () => {
      let found = 0;
      countNodes(parsed, (node) => {
        if (
          node.role === 'Button' &&
          node.attributes.some((a) => a.name === 'Name' && a.value.type === 'String' && a.value.value === 'b99999')
        )
          found++;
      });
      return found;
    },
  },
  {
    xpath: "//Pane[@Name='p4-3']/Button[3]",
    baseline: () => {
      let found = 0;
      countNodes(parsed, (node) => {
        if (
          node.role === 'Pane' &&
          node.attributes.some((a) => a.name === 'Name' && a.value.type === 'String' && a.value.value === 'p4-3')
        )
          found += node.children.filter((child) => child.role === 'Button').length >= 3 ? 1 : 0;
      });
      return found;
    },
  },
  {
    xpath: '//Button',
    baseline: () => {
      const found: SnapshotNode[] = [];
      countNodes(parsed, (node) => {
        if (node.role === 'Button') found.push(node);
      });
      return found.length;
    },
  },
  {
    xpath: 'count(//Button)',
    baseline: () => {
      let found = 0;
      countNodes(parsed, (node) => {
        if (node.role === 'Button') found++;
      });
      return found;
    },
  },
  {
    xpath: '(//Button)[1]',
    baseline: () => {
      let found = 0;
      countNodes(parsed, (node) => {
        if (node.role === 'Button' && found === 0) found = 1;
      });
      return found;
    },
  },
];

try {
  for (const { xpath, baseline } of queries) {
    const coldStart = performance.now();
    const fetchedBefore = runtime.nodesFetched;
    const cold = await service.evaluate(xpath);
    const coldMs = performance.now() - coldStart;
    const warmRuns: number[] = [];
    let indexed = true;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const warm = await service.evaluate(xpath);
      warmRuns.push(performance.now() - start);
      indexed &&= warm.stats.indexed;
    }
    const warmMs = Math.min(...warmRuns);
    const baseStart = performance.now();
    for (let i = 0; i < 3; i++) baseline();
    const baselineMs = (performance.now() - baseStart) / 3;
    const name = `xpath.pipeline[${xpath}]`;
    line(`${name}.cold`, coldMs, 'ms');
    line(`${name}.warm`, warmMs, 'ms');
    line(`${name}.engine_${cold.stats.engine}.results`, cold.items.length, 'items');
    line(`${name}.nodes_fetched_cold`, runtime.nodesFetched - fetchedBefore, 'nodes');
    // Warm runs find the worker's mirror whole and indexed by name (built after the first query brought it in).
    line(`${name}.warm_indexed`, indexed ? 1 : 0, 'bool');
    line(`${name}.baseline_js_loop`, baselineMs, 'ms');
    line(`${name}.warm_vs_baseline`, warmMs / baselineMs, 'x');
    line(`${name}.baseline_vs_warm`, baselineMs / warmMs, 'x');
  }
  // Cancellation latency: a long query is cancelled mid-way; how long until the evaluation has stopped.
  for (const xpath of ["count(//*[matches(@Name, '^b9+$')])", '//Button[string-length(@Name) > 100]']) {
    const controller = new AbortController();
    const running = service.evaluate(xpath, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const cancelledAt = performance.now();
    controller.abort();
    const outcome = await running.then(
      () => 'finished',
      (error: { code?: string }) => error.code ?? 'error',
    );
    line(`xpath.cancel[${xpath}].stop_after_cancel`, performance.now() - cancelledAt, 'ms');
    line(`xpath.cancel[${xpath}].outcome_${outcome}`, 1, 'count');
  }
} finally {
  await service.close();
  await runtime.shutdown();
}
