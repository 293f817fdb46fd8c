// What recording costs the user's input (goal: under 5 ms): from an XTest click on the form's "Add" button
// (e2e/fixtures/gtk3-recorder-form.py) to the application's accessibility reaction (the count label's name change
// seen on the bus), 50 clicks with `record` running as a user runs it (the CLI as a child process, which hit-tests and
// locates every click) against 50 without, in the same run (25 off, 50 on, 25 off). Prints the medians, their
// difference and the machine's load.
//
//   node dist/bench/recorder.js        (starts its own desktop session unless DISPLAY is set)
import '../main/backends/linux.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { launchPythonGtkApp, type LaunchedApp } from '../e2e/support/apps.js';
import { projectRoot } from '../e2e/support/paths.js';
import { useDesktop } from '../main/platform/x11/test/support/desktop.js';
import { PointerController } from '../main/runtime/input/pointer.js';
import { Runtime } from '../main/runtime/runtime.js';
import { actionPointOf } from '../main/services/bounds.js';
import { XPathService } from '../main/xpath/xpath-service.js';
import { percentile, print } from './_stats.js';

const GOAL_MS = 5;
const FORM = "//Frame[@Name='Recorder form']";
/** Longer than any double-click time, so that neither GTK nor the recorder joins two clicks. */
const PAUSE_MS = 600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function startRecording(env: NodeJS.ProcessEnv, output: string): Promise<ChildProcess> {
  const bin = path.join(projectRoot(), 'bin', 'platynui-inspector');
  const child = spawn(process.execPath, [bin, 'record', '--format', 'cli', '--output', output], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 120_000;
  while (!stderr.includes('recording (')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`record did not start: ${stderr}`);
    await sleep(100);
  }
  return child;
}

async function main(): Promise<void> {
  const desktop = await useDesktop();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-recorder-'));
  let form: LaunchedApp | undefined;
  let runtime: Runtime | undefined;
  let xpath: XPathService | undefined;
  let recording: ChildProcess | undefined;
  try {
    form = await launchPythonGtkApp('gtk3-recorder-form.py', desktop.env, { args: ['240', '160'] });
    runtime = await Runtime.create({ providers: ['atspi'], platform: 'x11', env: desktop.env });
    xpath = new XPathService(runtime);
    const one = async (expression: string) => {
      for (let tries = 0; tries < 50; tries++) {
        const { items } = await xpath!.evaluate(expression);
        const node = items.flatMap((item) => (item.type === 'node' ? [item.node] : []))[0];
        if (node) return node;
        await sleep(200);
      }
      throw new Error(`not found: ${expression}`);
    };
    const add = await actionPointOf(await one(`${FORM}//Button[@Name='Add']`));
    const label = await one(`${FORM}//Label[@Description='count-status']`);
    let reacted: (() => void) | undefined;
    runtime.registerEventSink((event) => {
      if (event.kind === 'NodeUpdated' && event.runtimeId === label.runtimeId) reacted?.();
    });
    const pointer = new PointerController(runtime.platform!.pointer!);
    const click = async (): Promise<number> => {
      const seen = new Promise<void>((resolve) => (reacted = resolve));
      const started = performance.now();
      await pointer.click(add);
      await Promise.race([seen, sleep(5000).then(() => Promise.reject(new Error('no reaction within 5 s')))]);
      const elapsed = performance.now() - started;
      reacted = undefined;
      await sleep(PAUSE_MS);
      return elapsed;
    };
    const off: number[] = [];
    const on: number[] = [];
    await click(); // warm up: the label's first change, the bus match rules
    for (let i = 0; i < 25; i++) off.push(await click());
    recording = await startRecording(desktop.env, path.join(dir, 'recorded.sh'));
    await click();
    for (let i = 0; i < 50; i++) on.push(await click());
    recording.kill('SIGTERM');
    await once(recording, 'exit');
    recording = undefined;
    for (let i = 0; i < 25; i++) off.push(await click());
    const medianOff = percentile(off, 50);
    const medianOn = percentile(on, 50);
    print('recorder.click_to_reaction_off_median', medianOff, 'ms');
    print('recorder.click_to_reaction_on_median', medianOn, 'ms');
    print('recorder.added_median', medianOn - medianOff, 'ms');
    print('recorder.on_p95', percentile(on, 95), 'ms');
    print('recorder.off_p95', percentile(off, 95), 'ms');
    process.stdout.write(
      `recorder.goal added median < ${GOAL_MS} ms: ${medianOn - medianOff < GOAL_MS ? 'met' : 'NOT met'} (load ${load()})\n`,
    );
  } finally {
    recording?.kill('SIGTERM');
    await xpath?.close();
    await runtime?.shutdown();
    await form?.stop();
    await desktop.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
