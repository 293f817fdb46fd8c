// Benchmark: a snapshot (structure, role, name, states) of a Chromium page with about 10,000 accessible nodes
// (e2e/fixtures/table.html) through the AT-SPI provider against libatspi (python3-gi, what Accerciser and dogtail
// use) walking the same page, in the same run: cold (Chromium freshly started, before any client walked it) and warm
// (after a walk); and warm with the bounds of every node. Prints `name value unit` lines and the ratios.
//
//   node dist/bench/atspi-snapshot.js [--rows 2000] [--repeat 3]
// Runs inside the desktop session when DISPLAY and DBUS_SESSION_BUS_ADDRESS are set, else starts its own.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { STATE_ATTRIBUTE_NAMES } from '../shared/model/attributes.js';
import type { UiValue } from '../shared/model/values.js';
import type { LaunchedApp } from '../e2e/support/apps.js';
import { fixtureUrl, launchChromium, tableReadyTitle } from '../e2e/support/apps.js';
import { projectRoot } from '../e2e/support/paths.js';
import { atspiReference } from '../e2e/support/reference.js';
import type { ProviderNode } from '../main/runtime/provider.js';
import type { AtspiNode } from '../main/providers/atspi/node.js';
import { AtspiProvider } from '../main/providers/atspi/provider.js';

interface SnapshotNode {
  role: string;
  name: string;
  states: { [name: string]: unknown };
  bounds?: unknown;
  children: SnapshotNode[];
}

let nodeCount = 0;

async function snapshot(node: ProviderNode, withBounds: boolean): Promise<SnapshotNode> {
  nodeCount++;
  const [attributes, children] = await Promise.all([node.attributes(), node.children()]);
  const states: { [name: string]: unknown } = {};
  const reads: Array<Promise<void>> = [];
  let bounds: UiValue | undefined;
  for (const attribute of attributes) {
    if (attribute.namespace !== 'control') continue;
    if (STATE_ATTRIBUTE_NAMES.includes(attribute.name)) {
      reads.push(attribute.read().then((value) => void (states[attribute.name] = value)));
    } else if (withBounds && attribute.name === 'Bounds') {
      reads.push(attribute.read().then((value) => void (bounds = value)));
    }
  }
  const [kids] = await Promise.all([Promise.all(children.map((child) => snapshot(child, withBounds))), ...reads]);
  return { role: node.role, name: node.name, states, ...(bounds ? { bounds } : {}), children: kids };
}

/** A snapshot of one application through a fresh provider; the provider's connection setup is part of the time. */
async function providerSnapshot(
  pid: number,
  withBounds: boolean,
): Promise<{ ms: number; nodes: number; calls: number; loadedBy: string }> {
  const t0 = performance.now();
  const provider = await AtspiProvider.create();
  try {
    const roots = (await provider.roots()) as AtspiNode[];
    const app = roots.find((root) => root.data.app.processId === pid);
    if (!app) throw new Error(`Chromium (pid ${pid}) is not registered`);
    nodeCount = 0;
    await snapshot(app, withBounds);
    const ms = performance.now() - t0;
    return { ms, nodes: nodeCount, calls: provider.client.callCount, loadedBy: app.data.app.loadedBy ?? '?' };
  } finally {
    await provider.shutdown();
  }
}

async function libatspiWalk(pid: number, withExtents: boolean): Promise<{ ms: number; nodes: number }> {
  const result = await atspiReference(process.env, {
    pid,
    summary: true,
    fields: withExtents ? ['role', 'name', 'states', 'extents'] : ['role', 'name', 'states'],
  });
  return { ms: result.elapsedMs, nodes: result.nodes };
}

/** Cold live search the way a query engine would do it: depth first until the first match, through a fresh provider. */
async function coldFind(pid: number, match: (node: ProviderNode) => boolean): Promise<{ ms: number; fetched: number }> {
  const t0 = performance.now();
  const provider = await AtspiProvider.create();
  try {
    const roots = (await provider.roots()) as AtspiNode[];
    const app = roots.find((root) => root.data.app.processId === pid);
    if (!app) throw new Error('not registered');
    const stack: ProviderNode[] = [app];
    while (stack.length > 0) {
      const node = stack.pop() as ProviderNode;
      if (match(node)) break;
      const children = await node.children();
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as ProviderNode);
    }
    return { ms: performance.now() - t0, fetched: provider.store.nodes.size };
  } finally {
    await provider.shutdown();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const line = (name: string, value: number, unit: string) =>
  console.log(`${name} ${unit === 'ms' ? value.toFixed(1) : unit === 'x' ? value.toFixed(2) : value} ${unit}`);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const index = argv.indexOf(name);
    return index >= 0 ? Number(argv[index + 1]) : fallback;
  };
  const rows = option('--rows', 2000);
  const repeat = Math.max(1, option('--repeat', 3));
  let stopSession: (() => Promise<void>) | undefined;
  if (!process.env.DISPLAY || !process.env.DBUS_SESSION_BUS_ADDRESS) {
    const sessionModule = pathToFileURL(path.join(projectRoot(), 'scripts', 'desktop', 'session.mjs')).href;
    const { startDesktopSession } = (await import(sessionModule)) as {
      startDesktopSession: () => Promise<{ env: NodeJS.ProcessEnv; stop: () => Promise<void> }>;
    };
    const session = await startDesktopSession();
    Object.assign(process.env, session.env);
    stopSession = session.stop;
  }
  const url = fixtureUrl('table.html', { rows });
  const title = tableReadyTitle(rows);
  const apps: LaunchedApp[] = [];
  try {
    // Ours: cold on a fresh Chromium, then warm on the same one.
    const ours = await launchChromium(process.env, url, { title });
    apps.push(ours);
    const cold = await providerSnapshot(ours.pid, false);
    const warm: Array<Awaited<ReturnType<typeof providerSnapshot>>> = [];
    for (let i = 0; i < repeat; i++) warm.push(await providerSnapshot(ours.pid, false));
    const warmBounds: number[] = [];
    for (let i = 0; i < repeat; i++) warmBounds.push((await providerSnapshot(ours.pid, true)).ms);
    await ours.stop();

    // libatspi: cold on another fresh Chromium, then warm on the same one.
    const theirs = await launchChromium(process.env, url, { title });
    apps.push(theirs);
    const libCold = await libatspiWalk(theirs.pid, false);
    const libWarm: number[] = [];
    for (let i = 0; i < repeat; i++) libWarm.push((await libatspiWalk(theirs.pid, false)).ms);
    const libBounds: number[] = [];
    for (let i = 0; i < repeat; i++) libBounds.push((await libatspiWalk(theirs.pid, true)).ms);
    await theirs.stop();

    // Cold searches: the last button of the page, and the first check box.
    const searchApp = await launchChromium(process.env, url, { title });
    apps.push(searchApp);
    const findButton = await coldFind(searchApp.pid, (n) => n.role === 'Button' && n.name === 'Find me');
    await searchApp.stop();
    const checkApp = await launchChromium(process.env, url, { title });
    apps.push(checkApp);
    const firstCheckBox = await coldFind(checkApp.pid, (n) => n.role === 'CheckBox');
    await checkApp.stop();

    const warmMs = median(warm.map((w) => w.ms));
    line('atspi.snapshot.nodes', cold.nodes, 'nodes');
    line('libatspi.snapshot.nodes', libCold.nodes, 'nodes');
    line('atspi.snapshot.cold', cold.ms, 'ms');
    line('atspi.snapshot.cold.calls', cold.calls, 'calls');
    line('atspi.snapshot.warm', warmMs, 'ms');
    line('atspi.snapshot.warm.calls', warm[0]?.calls ?? 0, 'calls');
    line('atspi.snapshot.warm.bounds', median(warmBounds), 'ms');
    line('libatspi.snapshot.cold', libCold.ms, 'ms');
    line('libatspi.snapshot.warm', median(libWarm), 'ms');
    line('libatspi.snapshot.warm.bounds', median(libBounds), 'ms');
    line('ratio.cold', libCold.ms / cold.ms, 'x');
    line('ratio.warm', median(libWarm) / warmMs, 'x');
    line('ratio.warm.bounds', median(libBounds) / median(warmBounds), 'x');
    line('atspi.coldFind.button', findButton.ms, 'ms');
    line('atspi.coldFind.button.fetched', findButton.fetched, 'nodes');
    line('atspi.coldFind.firstCheckBox', firstCheckBox.ms, 'ms');
    line('atspi.coldFind.firstCheckBox.fetched', firstCheckBox.fetched, 'nodes');
    console.log(`# loaded by ${cold.loadedBy}; goals: cold >= 3x, warm >= 8x, warm with bounds >= 3x`);
  } finally {
    for (const app of apps) await app.stop();
    if (stopSession) await stopSession();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
