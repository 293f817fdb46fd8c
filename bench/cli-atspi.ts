// Benchmark: the live-desktop goals of issue 13, timed the way a user runs the commands (the real CLI as a child
// process, timed whole) against libatspi (python3-gi, what Accerciser and dogtail use: scripts/atspi-reference.py,
// also timed whole) in the same run, on a Chromium page with about 10,000 accessible nodes (e2e/fixtures/table.html).
// Cold: the first accessibility client after Chromium started with the page loaded (a fresh Chromium per sample);
// warm: later runs against the same Chromium. Median of the runs, min and max, the peak memory of each process, the
// machine's load and `node -e 0` as the floor. Each goal prints a `# goal ...: pass|FAIL` line.
//
//   node dist/bench/cli-atspi.js [--rows 2000] [--runs 5]
// Runs inside the desktop session when DISPLAY and DBUS_SESSION_BUS_ADDRESS are set, else starts its own.
import type { LaunchedApp } from '../e2e/support/apps.js';
import { fixtureUrl, launchChromium, tableReadyTitle } from '../e2e/support/apps.js';
import { atspiReferenceScript, SYSTEM_PYTHON } from '../e2e/support/paths.js';
import {
  cli,
  goal,
  joinDesktopSession,
  line,
  median,
  NODE_FLOOR,
  numberOption,
  printLoad,
  ratio,
  report,
  runProcess,
  sample,
  type ProcessRun,
  type ProcessSpec,
  type Samples,
} from './_cli.js';

const BUTTON = 'Find me';

interface Stats {
  evalMs: number;
  nodesFetched: number;
  results: number;
}

/** The `--stats` line a command wrote to stderr (its last line). */
function statsOf(run: ProcessRun): Stats {
  const last = run.stderr.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as Stats;
}

function libatspiWalk(pid: number, fields: string): ProcessSpec {
  return {
    command: SYSTEM_PYTHON,
    args: [atspiReferenceScript(), '--pid', String(pid), '--summary', '--fields', fields],
    timeoutMs: 300_000,
  };
}

function reportStats(name: string, samples: Samples): { evalMs: number; nodesFetched: number } {
  const stats = samples.runs.map(statsOf);
  const evalMs = median(stats.map((s) => s.evalMs));
  const nodesFetched = median(stats.map((s) => s.nodesFetched));
  line(`${name}.evalMs`, evalMs, 'ms');
  line(`${name}.nodesFetched`, nodesFetched, 'nodes');
  line(`${name}.results`, median(stats.map((s) => s.results)), 'items');
  return { evalMs, nodesFetched };
}

async function main(): Promise<void> {
  const rows = numberOption('--rows', 2000);
  const runs = numberOption('--runs', 5);
  const stopSession = await joinDesktopSession();
  const url = fixtureUrl('table.html', { rows });
  const title = tableReadyTitle(rows);
  const apps: LaunchedApp[] = [];
  const launch = async () => {
    const app = await launchChromium(process.env, url, { title });
    apps.push(app);
    return app;
  };
  const stop = async (app: LaunchedApp) => {
    await app.stop();
    apps.splice(apps.indexOf(app), 1);
  };
  const scope = (pid: number) => `app:Application[@ProcessId=${pid}]`;
  const snapshot = (pid: number, attrs: 'default' | 'all') =>
    cli(['snapshot', scope(pid), '--format', 'json', '--attrs', attrs, '--stats']);
  const findButton = () => cli(['query', `//Button[@Name='${BUTTON}']`, '--stats']);
  const findScoped = (pid: number) => cli(['query', `${scope(pid)}//Button[@Name='${BUTTON}']`, '--stats']);
  const countTop = () => cli(['query', 'count(/*)', '--stats']);
  const samples = (name: string): Samples => ({ name, runs: [] });
  const cold = {
    snapshot: samples('cli.snapshot.default.cold'),
    libatspi: samples('libatspi.walk.cold'),
    button: samples('cli.query.button.cold'),
    scoped: samples('cli.query.button.scoped.cold'),
    countTop: samples('cli.query.countTop.cold'),
  };
  const warm = {
    floor: samples('node.e0'),
    snapshot: samples('cli.snapshot.default.warm'),
    libatspi: samples('libatspi.walk.warm'),
    snapshotAll: samples('cli.snapshot.all.warm'),
    libatspiExtents: samples('libatspi.walk.extents.warm'),
    button: samples('cli.query.button.warm'),
    countTop: samples('cli.query.countTop.warm'),
    pick: samples('cli.pick.warm'),
    locate: samples('cli.locate.warm'),
  };
  let snapshotBytes = 0;
  try {
    printLoad('before');
    // Cold: each sample on a Chromium nobody has walked yet; the kinds take turns, so machine load hits them alike.
    for (let round = 0; round < runs; round++) {
      for (const [into, spec] of [
        [cold.snapshot, (pid: number) => snapshot(pid, 'default')],
        [cold.libatspi, (pid: number) => libatspiWalk(pid, 'role,name,states')],
        [cold.button, () => findButton()],
        [cold.scoped, (pid: number) => findScoped(pid)],
        [cold.countTop, () => countTop()],
      ] as const) {
        await sample(into, async () => {
          const app = await launch();
          try {
            return await runProcess(spec(app.pid));
          } finally {
            await stop(app);
          }
        });
      }
    }
    printLoad('after-cold');
    // Warm: one Chromium, walked once by each side first.
    const app = await launch();
    await runProcess(libatspiWalk(app.pid, 'role,name,states'));
    snapshotBytes = (await runProcess(snapshot(app.pid, 'default'))).stdout.length;
    const checkBox = await runProcess(
      cli(['query', `${scope(app.pid)}//CheckBox[@Name='Select item 1']/@Bounds`, '--format', 'json']),
    );
    const [bounds] = JSON.parse(checkBox.stdout) as Array<{
      value: { x: number; y: number; width: number; height: number };
    }>;
    if (!bounds) throw new Error('the page has no check box "Select item 1"');
    const at = `${Math.round(bounds.value.x + bounds.value.width / 2)},${Math.round(bounds.value.y + bounds.value.height / 2)}`;
    for (let round = 0; round < runs; round++) {
      for (const [into, spec] of [
        [warm.floor, NODE_FLOOR],
        [warm.snapshot, snapshot(app.pid, 'default')],
        [warm.libatspi, libatspiWalk(app.pid, 'role,name,states')],
        [warm.snapshotAll, snapshot(app.pid, 'all')],
        [warm.libatspiExtents, libatspiWalk(app.pid, 'role,name,states,extents')],
        [warm.button, findButton()],
        [warm.countTop, countTop()],
        [warm.pick, cli(['pick', '--at', at, '--stats'])],
        [warm.locate, cli(['locate', `//Button[@Name='${BUTTON}']`])],
      ] as const) {
        await sample(into, () => runProcess(spec));
      }
    }
    await stop(app);
    printLoad('after-warm');
  } finally {
    for (const app of [...apps]) await app.stop();
    if (stopSession) await stopSession();
  }

  line('cli.snapshot.default.bytes', snapshotBytes, 'bytes');
  const figures = new Map<Samples, { medianMs: number; peakMb: number }>();
  for (const group of [cold, warm]) for (const s of Object.values(group)) figures.set(s, report(s));
  const libNodes = Number((JSON.parse(warm.libatspi.runs[0]!.stdout) as { nodes: number }).nodes);
  line('libatspi.walk.nodes', libNodes, 'nodes');
  const coldButton = reportStats(cold.button.name, cold.button);
  reportStats(cold.scoped.name, cold.scoped);
  const coldCount = reportStats(cold.countTop.name, cold.countTop);
  reportStats(warm.button.name, warm.button);
  reportStats(warm.countTop.name, warm.countTop);
  const pick = reportStats(warm.pick.name, warm.pick);
  reportStats(cold.snapshot.name, cold.snapshot);

  const coldRatio = ratio('ratio.snapshot.default.cold', cold.snapshot, cold.libatspi);
  const warmRatio = ratio('ratio.snapshot.default.warm', warm.snapshot, warm.libatspi);
  const allRatio = ratio('ratio.snapshot.all.warm', warm.snapshotAll, warm.libatspiExtents);
  const fig = (s: Samples) => figures.get(s)!;
  const ms = (s: Samples) => `${fig(s).medianMs.toFixed(0)} ms`;
  goal('snapshot --attrs default cold at least 5x faster than libatspi', coldRatio >= 5, `${coldRatio.toFixed(2)}x`);
  goal('snapshot --attrs default warm at least 8x faster than libatspi', warmRatio >= 8, `${warmRatio.toFixed(2)}x`);
  goal('snapshot --attrs all at least 3x faster than libatspi with extents', allRatio >= 3, `${allRatio.toFixed(2)}x`);
  for (const s of [cold.snapshot, warm.snapshot, warm.snapshotAll]) {
    goal(`${s.name} peak memory under 300 MB`, fig(s).peakMb < 300, `${fig(s).peakMb.toFixed(0)} MB`);
  }
  goal(
    'query //Button[@Name] cold: evaluation under 1 s',
    coldButton.evalMs < 1000,
    `${coldButton.evalMs.toFixed(0)} ms`,
  );
  goal('query //Button[@Name] cold: whole process under 1.5 s', fig(cold.button).medianMs < 1500, ms(cold.button));
  goal(
    'query scoped to its application cold: whole process under 1 s',
    fig(cold.scoped).medianMs < 1000,
    ms(cold.scoped),
  );
  goal("query 'count(/*)' cold: whole process under 0.8 s", fig(cold.countTop).medianMs < 800, ms(cold.countTop));
  goal(
    "query 'count(/*)' cold: fewer than 200 nodes fetched",
    coldCount.nodesFetched < 200,
    `${coldCount.nodesFetched}`,
  );
  goal('pick --at warm: evaluation under 1 s', pick.evalMs < 1000, `${pick.evalMs.toFixed(0)} ms`);
  goal('locate of one node warm: under 1.5 s', fig(warm.locate).medianMs < 1500, ms(warm.locate));
  process.stdout.write(
    `# ${runs} runs each, whole processes, medians; ${rows} table rows; pick and locate measured warm only\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
