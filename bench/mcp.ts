// Benchmark: `platynui-inspector mcp` on the user's path, through the MCP SDK's own client over stdio (as an agent's
// host runs it), against a Chromium page with about 10,000 accessible nodes (e2e/fixtures/table.html, 2,000 rows).
// Each round starts a fresh server process. Figures (medians over the rounds):
//   mcp.first-query.ms      spawn to the answer of the first ui_query (server start, connect, initialize included)
//   mcp.query.warm.ms       later ui_query calls of the same XPath
//   mcp.tree.500.ms         ui_tree of the Chromium application with a 500-node cap (after the first query)
//   mcp.tree.500.cold.ms    the same as the first call of a fresh server (the application's bulk load included)
//   mcp.act.after-reaction.ms  ui_act click on a checkbox: from the application's first accessibility event, as an
//                           observer in this process sees it on the bus, to the answer arriving here
// Baseline in the same run: the CLI's `query` of the same XPath, one process timed whole (bench/_cli.ts).
//
//   node dist/bench/mcp.js [--rows 2000] [--repeat 3]
import { fileURLToPath } from 'node:url';
import '../main/backends/linux.js';
import type { LaunchedApp } from '../e2e/support/apps.js';
import { fixtureUrl, launchChromium, tableReadyTitle } from '../e2e/support/apps.js';
import { startMcpClient, type McpClient } from '../e2e/support/mcp-client.js';
import type { NodeItem } from '../main/mcp/node-items.js';
import { AtspiProvider } from '../main/providers/atspi/provider.js';
import { Runtime } from '../main/runtime/runtime.js';
import { XPathService } from '../main/xpath/xpath-service.js';
import { cli, goal, joinDesktopSession, line, median, numberOption, printLoad, runProcess } from './_cli.js';

type Structured = { structuredContent?: unknown; isError?: boolean; content: unknown[] };

function structured<T>(result: Structured, what: string): T {
  if (result.isError || !result.structuredContent) throw new Error(`${what} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

async function timed<T>(body: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await body();
  return [performance.now() - started, value];
}

async function main(): Promise<void> {
  const rows = numberOption('--rows', 2000);
  const repeat = numberOption('--repeat', 3);
  const stopSession = await joinDesktopSession();
  const app = `app:Application[@Name='Chromium']`;
  const button = `${app}//Button[@Name='Find me']`;
  const checkbox = `${app}//CheckBox[@Name='Select item 3']`;
  let chromium: LaunchedApp | undefined;
  // The observer of the application's reactions: the runtime's event stream in this process, on the same bus.
  // Registered before Chromium starts, like Orca or an inspector already running on a real desktop: at-spi2-atk then
  // builds Chromium's Cache at its start and never again, so Cache.GetItems holds about 200 of the page's 10,220
  // objects for good and every client loads the page by Collection.GetTree and per-node calls (the path timed here;
  // bench/cli-live-paths.ts starts Chromium with no listener, its first client finds the whole page in the cache).
  const observer = await Runtime.create({ providers: ['atspi'], platform: 'none' });
  let lastEventAt = 0;
  const eventTimes: number[] = [];
  observer.registerEventSink(() => {
    lastEventAt = performance.now();
    eventTimes.push(lastEventAt);
  });
  const figures = new Map<string, number[]>();
  const add = (name: string, value: number) => {
    let list = figures.get(name);
    if (!list) figures.set(name, (list = []));
    list.push(value);
  };
  try {
    chromium = await launchChromium(process.env, fixtureUrl('table.html', { rows }), { title: tableReadyTitle(rows) });
    // The observer hears the events of nodes it knows: it reads the checkbox (and so the page) once.
    const observerXPath = new XPathService(observer);
    try {
      const { items } = await observerXPath.evaluate(checkbox, { timeoutMs: 120_000 });
      if (items.length !== 1 || items[0]?.type !== 'node')
        throw new Error(`${checkbox} selected ${items.length} items`);
      // How much of the page Chromium's cache holds: the path every client's bulk load takes.
      const busName = /^atspi:\/\/([^/]+)\//.exec(items[0].node.runtimeId)?.[1];
      const atspi = observer.providers.find((provider) => provider instanceof AtspiProvider);
      const cached = busName && atspi ? await atspi.calls.getCacheItems(busName, 30_000) : undefined;
      line('chromium.cache.items', cached?.length ?? Number.NaN, 'nodes');
    } finally {
      await observerXPath.close();
    }
    printLoad('start');
    for (let round = 0; round < repeat; round++) {
      add('cli.query.ms', (await runProcess(cli(['query', button]))).ms);

      // A fresh server: ui_tree first (cold), then a fresh one for the first query.
      let client: McpClient = await startMcpClient();
      try {
        const appItem = structured<{ items: NodeItem[] }>(
          await client.call('ui_query', { xpath: app, maxResults: 1, timeoutMs: 60_000 }),
          'ui_query app',
        ).items[0]!;
        const [cold] = await timed(() => client.call('ui_tree', { id: appItem.id, maxNodes: 500, maxDepth: 100 }));
        add('mcp.tree.500.cold.ms', cold);
      } finally {
        await client.close();
      }

      const spawned = performance.now();
      client = await startMcpClient();
      try {
        const first = structured<{ items: NodeItem[] }>(
          await client.call('ui_query', { xpath: button, timeoutMs: 60_000 }),
          'first query',
        );
        add('mcp.first-query.ms', performance.now() - spawned);
        if (first.items.length !== 1) throw new Error(`${button} selected ${first.items.length} nodes`);
        for (let i = 0; i < 10; i++)
          add('mcp.query.warm.ms', (await timed(() => client.call('ui_query', { xpath: button })))[0]);
        const appItem = structured<{ items: NodeItem[] }>(await client.call('ui_query', { xpath: app }), 'app')
          .items[0]!;
        for (let i = 0; i < 3; i++) {
          const [ms, result] = await timed(() =>
            client.call('ui_tree', { id: appItem.id, maxNodes: 500, maxDepth: 100 }),
          );
          add('mcp.tree.500.ms', ms);
          add('mcp.tree.500.nodes', structured<{ nodes: number }>(result, 'ui_tree').nodes);
        }
        for (let i = 0; i < 3; i++) {
          const target = structured<{ items: NodeItem[] }>(
            await client.call('ui_query', { xpath: checkbox }),
            'checkbox',
          ).items[0]!;
          await new Promise((resolve) => setTimeout(resolve, 300)); // let earlier events pass
          const sent = performance.now();
          eventTimes.length = 0;
          const [ms, result] = await timed(() =>
            client.call('ui_act', { id: target.id, revision: target.revision, action: { action: 'click' } }),
          );
          const answered = sent + ms;
          const outcome = structured<{ reacted: boolean }>(result, 'ui_act');
          const firstEvent = eventTimes.find((time) => time >= sent);
          if (!outcome.reacted || firstEvent === undefined) throw new Error('the click caused no event');
          add('mcp.act.roundtrip.ms', ms);
          add('mcp.act.after-reaction.ms', answered - firstEvent);
        }
      } finally {
        await client.close();
      }
    }
    for (const [name, values] of figures) {
      const unit = name.endsWith('.ms') ? 'ms' : 'nodes';
      const base = name.replace(/\.ms$/, '');
      line(`${base}.median`, median(values), unit);
      if (values.length > 1) {
        line(`${base}.min`, Math.min(...values), unit);
        line(`${base}.max`, Math.max(...values), unit);
      }
    }
    const m = (name: string) => median(figures.get(name) ?? [Number.NaN]);
    line('mcp.first-query.vs.cli-query', m('cli.query.ms') / m('mcp.first-query.ms'), 'x');
    goal(
      'ui_tree of a 10,000-node application, 500-node cap, < 300 ms',
      m('mcp.tree.500.ms') < 300,
      `${m('mcp.tree.500.ms').toFixed(1)} ms`,
    );
    goal(
      'first ui_query after start < 1.5 s',
      m('mcp.first-query.ms') < 1500,
      `${m('mcp.first-query.ms').toFixed(1)} ms`,
    );
    goal('later ui_query < 50 ms', m('mcp.query.warm.ms') < 50, `${m('mcp.query.warm.ms').toFixed(1)} ms`);
    goal(
      'action answers within 200 ms of the reaction',
      m('mcp.act.after-reaction.ms') < 200,
      `${m('mcp.act.after-reaction.ms').toFixed(1)} ms`,
    );
    printLoad('end');
  } finally {
    await observer.shutdown();
    await chromium?.stop();
    await stopSession?.();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
