// The recorder's replay goal (10 runs out of 10): a 20-step flow on gtk3-demo (e2e/support/gtk3-demo-flow.ts) is
// recorded once from real XTest input, then its shell script of CLI commands replays RUNS times (default 10), each
// against a freshly started gtk3-demo, and each run's end state (the application's snapshot with the default
// attributes, geometry left out, and the demo's entries) is compared with the recorded one. Prints the runs that
// reached it, the replay times and the machine's load; exits non-zero when a run did not.
//
//   node dist/bench/recorder-replay.js        (starts its own desktop session unless DISPLAY is set)
import '../main/backends/linux.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { LaunchedApp } from '../e2e/support/apps.js';
import {
  awaitDemoFlowEnd,
  demoEndState,
  freshDemo,
  recordDemoFlow,
  replayCliScript,
} from '../e2e/support/gtk3-demo-flow.js';
import { describeStep } from '../shared/recording/steps.js';
import { useDesktop } from '../main/platform/x11/test/support/desktop.js';
import { percentile, print } from './_stats.js';

const RUNS = Number(process.env.RUNS ?? 10);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const desktop = await useDesktop();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-recorder-replay-'));
  let demo: LaunchedApp | undefined;
  try {
    demo = await freshDemo(desktop.env, undefined);
    const { steps, endState } = await recordDemoFlow(desktop.env);
    print('recorder-replay-steps', steps.length, 'steps');
    for (const [index, step] of steps.entries()) process.stdout.write(`# ${index + 1}. ${describeStep(step)}\n`);
    const times: number[] = [];
    let matched = 0;
    for (let run = 1; run <= RUNS; run++) {
      demo = await freshDemo(desktop.env, demo);
      try {
        times.push(replayCliScript(desktop.env, steps, path.join(dir, `flow-${run}.sh`)));
        await awaitDemoFlowEnd(desktop.env);
        if (demoEndState(desktop.env) === endState) matched++;
        else process.stdout.write(`# run ${run}: another end state\n`);
      } catch (error) {
        process.stdout.write(`# run ${run} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    print('recorder-replay-same-end-state', matched, `runs of ${RUNS}`);
    if (times.length > 0) {
      print('recorder-replay-time-median', percentile(times, 50) / 1000, 's');
      print('recorder-replay-time-max', Math.max(...times) / 1000, 's');
    }
    process.stdout.write(`# load ${load()}\n`);
    if (matched !== RUNS) process.exitCode = 1;
  } finally {
    await demo?.stop();
    rmSync(dir, { recursive: true, force: true });
    await desktop.stop();
  }
}

await main();
