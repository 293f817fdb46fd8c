// Benchmark: a snapshot (structure, role, name, states) of a Chromium page with about 10,000 accessible nodes
// (e2e/fixtures/table.html) through the AT-SPI provider against libatspi (python3-gi, what Accerciser and dogtail
// use) walking the same page, in the same run: cold (Chromium freshly started, before any client walked it) and warm
// (after a walk); and warm with the bounds of every node. Prints `name value unit` lines and the ratios. Also, not a
// goal: the warm snapshot with every node's developer id, which the provider reads only when asked (one bulk call).
//
//   node dist/bench/atspi-snapshot.js [--rows 2000] [--repeat 3]
// Runs inside the desktop session when DISPLAY and DBUS_SESSION_BUS_ADDRESS are set, else starts its own.
import { STATE_ATTRIBUTE_NAMES } from '../shared/model/attributes.js';
import type { LaunchedApp } from '../e2e/support/apps.js';
import { fixtureUrl, launchChromium, tableReadyTitle } from '../e2e/support/apps.js';
import { atspiReference } from '../e2e/support/reference.js';
import { joinDesktopSession } from './_cli.js';
import type { ProviderAttribute, ProviderNode } from '../main/core/provider.js';
import type { AtspiNode } from '../main/providers/atspi/node.js';
import { AtspiProvider } from '../main/providers/atspi/provider.js';

interface SnapshotNode {
  role: string;
  name: string;
  id?: string;
  states: { [name: string]: unknown };
  bounds?: unknown;
  children: SnapshotNode[];
}

let nodeCount = 0;
const STATE_NAMES: ReadonlySet<string> = new Set(STATE_ATTRIBUTE_NAMES);

/**
 * A snapshot the way an efficient client takes one through the ProviderNode contract: level by level, the children
 * (held ones through peekChildren) and attribute lists of a whole level at once, then the values of the wanted
 * attributes (held ones through peek).
 */
async function snapshot(root: ProviderNode, withBounds: boolean, withIds = false): Promise<SnapshotNode> {
  // Developer ids, when asked for, are made definitive first (the provider defers them until asked).
  if (withIds) await root.loadId?.();
  const top: SnapshotNode = { role: root.role, name: root.name, states: {}, children: [] };
  let level: Array<{ node: ProviderNode; out: SnapshotNode }> = [{ node: root, out: top }];
  while (level.length > 0) {
    nodeCount += level.length;
    // Children the provider already holds come without a promise (peekChildren); the rest are asked for.
    const childLists: Array<readonly ProviderNode[] | undefined> = level.map((entry) => entry.node.peekChildren?.());
    const asked: Array<Promise<void>> = [];
    for (let i = 0; i < level.length; i++) {
      if (childLists[i]) continue;
      const node = (level[i] as (typeof level)[number]).node;
      asked.push(node.children().then((children) => void (childLists[i] = children)));
    }
    // Attribute lists the provider hands out without a call come without a promise too (peekAttributes).
    const attributeLists: Array<readonly ProviderAttribute[] | undefined> = level.map((entry) =>
      entry.node.peekAttributes?.(),
    );
    for (let i = 0; i < level.length; i++) {
      if (attributeLists[i]) continue;
      const node = (level[i] as (typeof level)[number]).node;
      asked.push(node.attributes().then((attributes) => void (attributeLists[i] = attributes)));
    }
    if (asked.length > 0) await Promise.all(asked);
    const reads: Array<Promise<void>> = [];
    const next: typeof level = [];
    for (let i = 0; i < level.length; i++) {
      const { out } = level[i] as (typeof level)[number];
      for (const attribute of attributeLists[i] ?? []) {
        if (attribute.namespace !== 'control') continue;
        if (STATE_NAMES.has(attribute.name)) {
          // Values the provider holds come without a promise (peek); the rest are read.
          const held = attribute.peek?.();
          if (held !== undefined) out.states[attribute.name] = held;
          else reads.push(attribute.read().then((value) => void (out.states[attribute.name] = value)));
        } else if (withBounds && attribute.name === 'Bounds') {
          reads.push(attribute.read().then((value) => void (out.bounds = value)));
        }
      }
      for (const child of childLists[i] ?? []) {
        const childOut: SnapshotNode = { role: child.role, name: child.name, states: {}, children: [] };
        if (withIds && child.id !== undefined) childOut.id = child.id;
        out.children.push(childOut);
        next.push({ node: child, out: childOut });
      }
    }
    await Promise.all(reads);
    level = next;
  }
  return top;
}

/** A snapshot of one application through a fresh provider; the provider's connection setup is part of the time. */
/** Where a provider snapshot's time went: connection and event registration, roots, the bulk load, the walk. */
interface Phases {
  connect: number;
  roots: number;
  bulk: number;
  walk: number;
  /** CPU time of this process (user + system) during the snapshot. */
  cpu: number;
}

async function providerSnapshot(
  pid: number,
  withBounds: boolean,
  withIds = false,
): Promise<{ ms: number; nodes: number; calls: number; loadedBy: string; phases: Phases }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const provider = await AtspiProvider.create();
  try {
    const t1 = performance.now();
    const roots = (await provider.roots()) as AtspiNode[];
    const app = roots.find((root) => root.data.app.processId === pid);
    if (!app) throw new Error(`Chromium (pid ${pid}) is not registered`);
    const t2 = performance.now();
    // The bulk load runs on the first children() of the application anyway; started here only to time it apart.
    await provider.ensureBulk(app.data);
    const t3 = performance.now();
    nodeCount = 0;
    await snapshot(app, withBounds, withIds);
    const t4 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const phases = {
      connect: t1 - t0,
      roots: t2 - t1,
      bulk: t3 - t2,
      walk: t4 - t3,
      cpu: (cpu.user + cpu.system) / 1000,
    };
    return {
      ms: t4 - t0,
      nodes: nodeCount,
      calls: provider.client.callCount,
      loadedBy: app.data.app.loadedBy ?? '?',
      phases,
    };
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
  const stopSession = await joinDesktopSession();
  const url = fixtureUrl('table.html', { rows });
  const title = tableReadyTitle(rows);
  const apps: LaunchedApp[] = [];
  const launch = async () => {
    const app = await launchChromium(process.env, url, { title });
    apps.push(app);
    return app;
  };
  const ours = { cold: [] as number[], warm: [] as number[], bounds: [] as number[], ids: [] as number[] };
  const lib = { cold: [] as number[], warm: [] as number[], bounds: [] as number[] };
  let nodes = 0;
  let libNodes = 0;
  let coldCalls = 0;
  let warmCalls = 0;
  let loadedBy = '';
  const warmPhases: Phases[] = [];
  try {
    // Rounds interleave both sides so machine load hits them alike. Each round: a fresh Chromium for our cold
    // snapshot, then warm snapshots on it by both sides in turn; another fresh Chromium for libatspi's cold walk.
    for (let round = 0; round < repeat; round++) {
      const a = await launch();
      const cold = await providerSnapshot(a.pid, false);
      ours.cold.push(cold.ms);
      nodes = cold.nodes;
      coldCalls = cold.calls;
      loadedBy = cold.loadedBy;
      const libFirst = await libatspiWalk(a.pid, false); // makes the page warm for libatspi as well
      libNodes = libFirst.nodes;
      for (let i = 0; i < 2; i++) {
        const warm = await providerSnapshot(a.pid, false);
        ours.warm.push(warm.ms);
        warmPhases.push(warm.phases);
        warmCalls = warm.calls;
        lib.warm.push((await libatspiWalk(a.pid, false)).ms);
        ours.bounds.push((await providerSnapshot(a.pid, true)).ms);
        ours.ids.push((await providerSnapshot(a.pid, false, true)).ms);
        lib.bounds.push((await libatspiWalk(a.pid, true)).ms);
      }
      await a.stop();
      const b = await launch();
      lib.cold.push((await libatspiWalk(b.pid, false)).ms);
      await b.stop();
    }

    // Cold searches on fresh pages: the last button of the page, and the first check box.
    const searchApp = await launch();
    const findButton = await coldFind(searchApp.pid, (n) => n.role === 'Button' && n.name === 'Find me');
    await searchApp.stop();
    const checkApp = await launch();
    const firstCheckBox = await coldFind(checkApp.pid, (n) => n.role === 'CheckBox');
    await checkApp.stop();

    line('atspi.snapshot.nodes', nodes, 'nodes');
    line('libatspi.snapshot.nodes', libNodes, 'nodes');
    line('atspi.snapshot.cold', median(ours.cold), 'ms');
    line('atspi.snapshot.cold.calls', coldCalls, 'calls');
    line('atspi.snapshot.warm', median(ours.warm), 'ms');
    line('atspi.snapshot.warm.calls', warmCalls, 'calls');
    // Where the warm snapshot's time goes (medians of each phase; they need not add up to the median total).
    for (const phase of ['connect', 'roots', 'bulk', 'walk', 'cpu'] as const) {
      line(`atspi.snapshot.warm.${phase}`, median(warmPhases.map((p) => p[phase])), 'ms');
    }
    line('atspi.snapshot.warm.bounds', median(ours.bounds), 'ms');
    line('atspi.snapshot.warm.ids', median(ours.ids), 'ms');
    line('libatspi.snapshot.cold', median(lib.cold), 'ms');
    line('libatspi.snapshot.warm', median(lib.warm), 'ms');
    line('libatspi.snapshot.warm.bounds', median(lib.bounds), 'ms');
    line('ratio.cold', median(lib.cold) / median(ours.cold), 'x');
    line('ratio.warm', median(lib.warm) / median(ours.warm), 'x');
    line('ratio.warm.bounds', median(lib.bounds) / median(ours.bounds), 'x');
    // Not a goal: the warm snapshot that also gives every node's developer id (as `snapshot --attrs default` does).
    line('ratio.warm.ids', median(lib.warm) / median(ours.ids), 'x');
    line('atspi.coldFind.button', findButton.ms, 'ms');
    line('atspi.coldFind.button.fetched', findButton.fetched, 'nodes');
    line('atspi.coldFind.firstCheckBox', firstCheckBox.ms, 'ms');
    line('atspi.coldFind.firstCheckBox.fetched', firstCheckBox.fetched, 'nodes');
    console.log(`# ${repeat} rounds, medians; loaded by ${loadedBy}; goals: cold >= 3x, warm >= 8x, warm bounds >= 3x`);
  } finally {
    for (const app of apps) await app.stop();
    if (stopSession) await stopSession();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
