// Element-at-point lookup on the test desktop (goal: p95 < 30 ms): the X11 stacking order (windowsAtPoint), then
// the AT-SPI provider's deepest element (Component.GetAccessibleAtPoint, descending). Prints `name value unit`.
//
//   node dist/bench/element-at-point.bench.js        (starts its own desktop session unless DISPLAY is set)
import '../main/backends/linux.js';
import { launchGtk3Demo, type LaunchedApp } from '../e2e/support/apps.js';
import { ProbeApp, useDesktop } from '../main/platform/x11/test/support/desktop.js';
import { providerNodesAtPoint } from '../main/runtime/element-at-point.js';
import { Runtime } from '../main/runtime/runtime.js';
import { percentile, print } from './_stats.js';

const GOAL_P95_MS = 30;
const ROUNDS = 200;

async function main(): Promise<void> {
  const desktop = await useDesktop();
  let demo: LaunchedApp | undefined;
  let probe: ProbeApp | undefined;
  let runtime: Runtime | undefined;
  try {
    demo = await launchGtk3Demo(desktop.env);
    probe = await ProbeApp.start(desktop.env, 'Bench probe', 600, 150, true);
    runtime = await Runtime.create({ providers: ['atspi'], platform: 'x11', env: desktop.env });
    const wm = runtime.platform!.windowManager!;
    const windows = (await wm.list()).filter((w) => w.processId === demo!.pid || w.processId === probe!.pid);
    // A grid of points over both windows.
    const points = windows.flatMap((w) =>
      [0.2, 0.4, 0.6, 0.8].flatMap((fx) =>
        [0.2, 0.5, 0.8].map((fy) => ({
          x: Math.round(w.bounds.x + w.bounds.width * fx),
          y: Math.round(w.bounds.y + w.bounds.height * fy),
        })),
      ),
    );
    const cold: number[] = [];
    for (const point of points) {
      const t = performance.now();
      await providerNodesAtPoint(wm, runtime.providers, point);
      cold.push(performance.now() - t);
    }
    const stacking: number[] = [];
    const lookup: number[] = [];
    const all: number[] = [];
    let depth = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const point = points[i % points.length]!;
      let t = performance.now();
      await wm.windowsAtPoint(point);
      stacking.push(performance.now() - t);
      t = performance.now();
      const hits = await providerNodesAtPoint(wm, runtime.providers, point);
      lookup.push(performance.now() - t);
      depth += hits[0]?.nodes.length ?? 0;
      t = performance.now();
      await providerNodesAtPoint(wm, runtime.providers, point, { all: true });
      all.push(performance.now() - t);
    }
    print('pick.points', points.length, 'points');
    print('pick.chainDepth.mean', depth / ROUNDS, 'nodes');
    print('x11.windowsAtPoint.p50', percentile(stacking, 50), 'ms');
    print('x11.windowsAtPoint.p95', percentile(stacking, 95), 'ms');
    print('pick.elementAtPoint.cold.p95', percentile(cold, 95), 'ms');
    print('pick.elementAtPoint.p50', percentile(lookup, 50), 'ms');
    print('pick.elementAtPoint.p95', percentile(lookup, 95), 'ms');
    print('pick.elementAtPoint.p95/goal', percentile(lookup, 95) / GOAL_P95_MS, 'ratio');
    print('pick.allAtPoint.p95', percentile(all, 95), 'ms');
    print('pick.windowsAtPoint/elementAtPoint.p50', percentile(stacking, 50) / percentile(lookup, 50), 'ratio');
  } finally {
    await runtime?.shutdown();
    await probe?.stop();
    await demo?.stop();
    await desktop.stop();
  }
}

await main();
