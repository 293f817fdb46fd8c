// Benchmark: `check` on a Chromium page with about 10,000 accessible nodes (e2e/fixtures/table.html), the whole CLI
// process timed from spawn to exit, contrast included (one screenshot), without --tab-order. Baselines in the same
// run: `snapshot` of the same application (reading the tree alone) and `node -e 0`. Goal (issue 19): under 2 s.
//
//   node dist/bench/check-large.js [--rows 2000] [--repeat 5] [--cold 3] [--vs OTHER/bin/platynui-inspector]
//                                  [--cli SCRIPT]
// --cold N adds N cold samples: each on a freshly started Chromium whose first accessibility client the check is
// (the application then builds its cache for the first time), paired with a snapshot on another fresh Chromium.
// --vs times another build's check in the same rounds (a change against main under the same load) and says whether
// its JSON output is the same; --cli runs a script instead of bin/platynui-inspector for check (a wrapper that
// re-spawns node with --cpu-prof, say).
// Runs inside the desktop session when DISPLAY and DBUS_SESSION_BUS_ADDRESS are set, else starts its own.
import { fixtureUrl, launchChromium, tableReadyTitle } from '../e2e/support/apps.js';
import {
  cli,
  goal,
  joinDesktopSession,
  line,
  NODE_FLOOR,
  numberOption,
  printLoad,
  ratio,
  report,
  runProcess,
  stringOption,
  timeRoundRobin,
  type ProcessSpec,
  type Samples,
} from './_cli.js';

const CHECK_GOAL_MS = 2000;

async function main(): Promise<void> {
  const rows = numberOption('--rows', 2000);
  const repeat = numberOption('--repeat', 5);
  const stopSession = await joinDesktopSession();
  const page = await launchChromium(process.env, fixtureUrl('table.html', { rows }), { title: tableReadyTitle(rows) });
  try {
    const app = `app:Application[@Name='Chromium']`;
    const checked = await timeRoundRobin([['warm-up', cli(['check', app, '--fail-on', 'never'])]], 1);
    const summary = /(\d+) node\(s\) checked by (\d+) rule\(s\)/.exec(checked[0]!.runs[0]!.stdout);
    if (!summary) throw new Error(`check printed no summary: ${checked[0]!.runs[0]!.stdout.slice(-500)}`);
    line('check.nodes', Number(summary[1]), 'nodes');
    line('check.rules', Number(summary[2]), 'rules');
    const checkArgs = ['check', app, '--format', 'json', '--fail-on', 'never'];
    const wrapper = stringOption('--cli');
    const other = stringOption('--vs');
    const specs: [string, ProcessSpec][] = [
      ['check', wrapper ? { command: process.execPath, args: [wrapper, ...checkArgs] } : cli(checkArgs)],
      ['snapshot', cli(['snapshot', app, '--format', 'json'])],
      ['node.floor', NODE_FLOOR],
    ];
    if (other) specs.push(['other.check', { command: process.execPath, args: [other, ...checkArgs] }]);
    printLoad('before');
    const [check, snapshot, floor, otherCheck] = await timeRoundRobin(specs, repeat);
    printLoad('after');
    const checkFigures = report(check!);
    report(snapshot!);
    report(floor!);
    ratio('check.vs.snapshot', check!, snapshot!);
    if (otherCheck) {
      report(otherCheck);
      ratio('check.vs.other', check!, otherCheck);
      const outputs = new Set([...check!.runs, ...otherCheck.runs].map((run) => run.stdout));
      line('check.outputs.distinct', outputs.size, 'outputs');
    }
    goal(
      `check of ${summary[1]} nodes under ${CHECK_GOAL_MS} ms (warm)`,
      checkFigures.medianMs < CHECK_GOAL_MS,
      `${checkFigures.medianMs.toFixed(0)} ms`,
    );
    const cold = numberOption('--cold', 0);
    if (cold > 0) {
      // One Chromium at a time: the check's XPath names every application called Chromium.
      await page.stop();
      const coldCheck: Samples = { name: 'check.cold', runs: [] };
      const coldSnapshot: Samples = { name: 'snapshot.cold', runs: [] };
      for (let round = 0; round < cold; round++) {
        for (const [samples, spec] of [
          [coldCheck, specs[0]![1]],
          [coldSnapshot, specs[1]![1]],
        ] as const) {
          const fresh = await launchChromium(process.env, fixtureUrl('table.html', { rows }), {
            title: tableReadyTitle(rows),
          });
          try {
            samples.runs.push(await runProcess(spec));
          } finally {
            await fresh.stop();
          }
        }
      }
      const coldFigures = report(coldCheck);
      report(coldSnapshot);
      ratio('check.cold.vs.snapshot.cold', coldCheck, coldSnapshot);
      goal(
        `check of ${summary[1]} nodes under ${CHECK_GOAL_MS} ms (cold)`,
        coldFigures.medianMs < CHECK_GOAL_MS,
        `${coldFigures.medianMs.toFixed(0)} ms`,
      );
    }
  } finally {
    await page.stop();
    await stopSession?.();
  }
}

await main();
