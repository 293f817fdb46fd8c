// XPath through the whole pipeline (runtime, node cache, XPath worker and its bridge) over a generated mock tree of
// 111,111 nodes (a Window, Panes five levels deep and ten wide, Buttons as leaves), against a plain JavaScript loop
// over the same parsed tree as the baseline, in the same run. Prints `name value unit` lines and ratios.
import '../main/backends/mock.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readSnapshotXml } from '../shared/snapshot/xml-reader.js';
import type { SnapshotNode } from '../shared/snapshot/model.js';
import { uiString } from '../shared/model/values.js';
import type { MockNode, MockProvider } from '../main/providers/mock/mock-provider.js';
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

const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock', backendOptions: { mock: { file } } });
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
  // The query after a single-node change, warm: the worker's mirror follows the runtime's report of that node
  // (a rename keeps the index; a removal fetches the pane's list again and rebuilds the index from the mirror),
  // against the behaviour before (the mirror built anew from the runtime: rebuildMirror()), in the same run.
  const mock = runtime.providers[0] as MockProvider;
  const buttonNamed = async (name: string): Promise<MockNode> => {
    const found = (await service.evaluate(`//Button[@Name='${name}']`)).items[0];
    if (found?.type !== 'node') throw new Error(`no button ${name}`);
    return found.node.source as MockNode;
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const afterChange = async (label: string, change: (run: number) => Promise<string>): Promise<void> => {
    const medians: number[] = [];
    for (const rebuilt of [false, true]) {
      const times: number[] = [];
      let bridgeNodes = 0;
      let fetched = 0;
      let indexed = true;
      for (let run = 0; run < 3; run++) {
        await service.evaluate('//Button'); // the mirror whole and indexed before the change
        const xpath = await change(run + (rebuilt ? 10 : 0));
        if (rebuilt) service.rebuildMirror();
        const fetchedBefore = runtime.nodesFetched;
        const start = performance.now();
        const result = await service.evaluate(xpath);
        times.push(performance.now() - start);
        bridgeNodes = Math.max(bridgeNodes, result.stats.bridgeNodes);
        fetched = Math.max(fetched, runtime.nodesFetched - fetchedBefore);
        indexed &&= result.stats.indexed;
      }
      const name = `xpath.pipeline.after_${label}${rebuilt ? '.mirror_rebuilt' : ''}`;
      line(`${name}.ms`, median(times), 'ms');
      line(`${name}.bridge_nodes`, bridgeNodes, 'nodes');
      line(`${name}.nodes_fetched`, fetched, 'nodes');
      line(`${name}.indexed`, indexed ? 1 : 0, 'bool');
      medians.push(median(times));
    }
    line(`xpath.pipeline.after_${label}.rebuilt_vs_following`, medians[1]! / medians[0]!, 'x');
  };
  let renamed = await buttonNamed('b55555');
  await afterChange('rename[//Button[@Name=new name]]', (run) => {
    const name = `renamed-${run}`;
    renamed.set('Name', uiString(name));
    mock.emit({ kind: 'NodeUpdated', runtimeId: renamed.runtimeId, attributes: ['Name'] });
    return Promise.resolve(`//Button[@Name='${name}']`);
  });
  renamed = await buttonNamed('renamed-12');
  let removed: MockNode | undefined;
  await afterChange('remove[count(//Button)]', async (run) => {
    if (removed) {
      removed.removed = false;
      mock.emit({ kind: 'NodeAdded', runtimeId: removed.runtimeId, parentRuntimeId: removed.parent?.runtimeId });
      await service.evaluate('//Button');
    }
    removed = await buttonNamed(`b${44444 + run}`);
    removed.removed = true;
    mock.emit({ kind: 'NodeRemoved', runtimeId: removed.runtimeId, parentRuntimeId: removed.parent?.runtimeId });
    return 'count(//Button)';
  });
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
