// A 20-step flow on gtk3-demo that a user records: demos chosen in the tree, the Info and Source tabs, the
// "Dialogs and Message Boxes" demo run, its entries typed into (text, <End>, <Ctrl+a>), its interactive dialog
// filled in and confirmed (the dialog's entries go back to the demo's), a message box opened and closed. Shared by
// the recorder's replay bench (bench/recorder-replay.ts) and its desktop test (main/cli/test/record-replay.desktop).
// The flow is driven by real XTest input; recording happens outside (a Recorder, or `record`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderRecording } from '../../shared/recording/export.js';
import type { RecordedStep } from '../../shared/recording/steps.js';
import { KeyboardController } from '../../main/runtime/input/keyboard.js';
import { PointerController } from '../../main/runtime/input/pointer.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { actionPointOf } from '../../main/services/bounds.js';
import { Recorder } from '../../main/services/recorder.js';
import { XPathService } from '../../main/xpath/xpath-service.js';
import { launchGtk3Demo, type LaunchedApp } from './apps.js';
import { projectRoot } from './paths.js';

const APP = "//app:Application[@Name='gtk3-demo']";
// Windows from the desktop (the CLI's fast path does not look below an application); gtk3-demo is the only one.
const MAIN = "/Frame[.//Button[@Name='Run']]";
const DIALOGS = "/Frame[.//Button[@Name='Interactive Dialog']]";
const INTERACTIVE = "/Dialog[@Name='Interactive Dialog']";
/** The message box the demo pops up: a window with an OK button that is not the interactive dialog. */
const MESSAGE = "/*[.//Button[@Name='OK']][not(@Name='Interactive Dialog')]";
const entry = (window: string, label: string) =>
  `${window}//Text[following-sibling::*[1][self::Label][@Name='${label}']]`;

/** One thing the user does: a click on an element, or keys typed (PlatynUI's keyboard sequence) into the focus. */
export type FlowAction = { click: string } | { type: string };

export const DEMO_FLOW: readonly FlowAction[] = [
  { click: `${MAIN}//item:TableCell[@Name='Button Boxes']` },
  { click: `${MAIN}//item:TableCell[@Name='Clipboard']` },
  { click: `${MAIN}//item:TabItem[@Name='Source']` },
  { click: `${MAIN}//item:TabItem[@Name='Info']` },
  { click: `${MAIN}//item:TableCell[@Name='Dialogs and Message Boxes']` },
  { click: `${MAIN}//Button[@Name='Run']` },
  { click: entry(DIALOGS, 'Entry 1') },
  { type: 'Ada' },
  { click: entry(DIALOGS, 'Entry 2') },
  { type: 'Lovelace' },
  { click: entry(DIALOGS, 'Entry 1') },
  { type: '<End> King' },
  { click: entry(DIALOGS, 'Entry 2') },
  { type: '<Ctrl+a>1815' },
  { click: `${DIALOGS}//Button[@Name='Interactive Dialog']` },
  { click: entry(INTERACTIVE, 'Entry 1') },
  { type: '<End>!' },
  { click: `${INTERACTIVE}//Button[@Name='OK']` },
  { click: `${DIALOGS}//Button[@Name='Message Dialog']` },
  { click: `${MESSAGE}//Button[@Name='OK']` },
];

/** What the two entries of the demo's window hold at the end of the flow. */
export const EXPECTED_ENTRIES = 'Ada King!|1815';

/** Longer than any double-click time, so that neither GTK nor the recorder joins two clicks. */
const PAUSE_MS = 600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the flow with real input (XTest), each element found when its step comes (windows open on the way). */
export async function performDemoFlow(runtime: Runtime, xpath: XPathService): Promise<void> {
  const pointer = new PointerController(runtime.platform!.pointer!);
  const keyboard = new KeyboardController(runtime.platform!.keyboard!);
  for (const action of DEMO_FLOW) {
    if ('type' in action) {
      await keyboard.type(action.type);
    } else {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const { items } = await xpath.evaluate(action.click);
        const node = items.flatMap((item) => (item.type === 'node' ? [item.node] : []))[0];
        if (node) {
          await pointer.click(await actionPointOf(node));
          break;
        }
        assert.ok(Date.now() < deadline, `not found: ${action.click}`);
        await sleep(200);
      }
    }
    await sleep(PAUSE_MS);
  }
}

function cli(env: NodeJS.ProcessEnv, args: string[]): string {
  const run = spawnSync(process.execPath, [path.join(projectRoot(), 'bin', 'platynui-inspector'), ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

/** The entries of the demo's window, `first|second` (empty while the window is not there). */
export function demoEntries(env: NodeJS.ProcessEnv): string {
  return ['Entry 1', 'Entry 2']
    .map((label) => cli(env, ['query', `string(${entry(DIALOGS, label)}/@Text)`]).trim())
    .join('|');
}

/** The subtree's snapshot as a user compares end states: the default attributes, geometry left out. */
export function snapshotWithoutGeometry(env: NodeJS.ProcessEnv, root: string): string {
  return cli(env, [
    'snapshot',
    root,
    '--attrs',
    'default',
    '--exclude',
    'control:Bounds*',
    '--exclude',
    'control:ActivationPoint*',
  ]);
}

/**
 * The application's end state: its snapshot with the default attributes, geometry left out, and the text of the
 * demo's entries (the default attributes hold no text).
 */
export function demoEndState(env: NodeJS.ProcessEnv): string {
  return `${snapshotWithoutGeometry(env, APP)}\nentries: ${demoEntries(env)}\n`;
}

/** A fresh gtk3-demo with its main window listed (the one before it stopped). */
export async function freshDemo(env: NodeJS.ProcessEnv, previous: LaunchedApp | undefined): Promise<LaunchedApp> {
  await previous?.stop();
  const app = await launchGtk3Demo(env);
  const deadline = Date.now() + 30_000;
  while (cli(env, ['query', `count(${MAIN}//Button[@Name='Run'])`]).trim() !== '1') {
    assert.ok(Date.now() < deadline, 'gtk3-demo showed no main window');
    await sleep(200);
  }
  return app;
}

/** Waits until the flow's end shows: the entries hold what was typed and the message box is gone. */
export async function awaitDemoFlowEnd(env: NodeJS.ProcessEnv, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entries = demoEntries(env);
    const messages = cli(env, ['query', `count(${MESSAGE})`]).trim();
    if (entries === EXPECTED_ENTRIES && messages === '0') return;
    assert.ok(
      Date.now() < deadline,
      `the flow did not end as expected: entries "${entries}", ${messages} message boxes`,
    );
    await sleep(300);
  }
}

/**
 * Records the flow on the running gtk3-demo (a Recorder over the AT-SPI provider and the X11 platform, as `record`
 * does) and reads the end state it reached.
 */
export async function recordDemoFlow(env: NodeJS.ProcessEnv): Promise<{ steps: RecordedStep[]; endState: string }> {
  const runtime = await Runtime.create({ providers: ['atspi'], platform: 'x11', env });
  const xpath = new XPathService(runtime);
  let steps: RecordedStep[];
  try {
    const recorder = await Recorder.start(runtime, xpath);
    await performDemoFlow(runtime, xpath);
    await awaitDemoFlowEnd(env);
    steps = await recorder.stop();
  } finally {
    await xpath.close();
    await runtime.shutdown();
  }
  return { steps, endState: demoEndState(env) };
}

/** Runs the recording's shell script of CLI commands (written to `file`); resolves with its duration in ms. */
export function replayCliScript(env: NodeJS.ProcessEnv, steps: readonly RecordedStep[], file: string): number {
  writeFileSync(file, renderRecording('cli', steps));
  const started = performance.now();
  // -x: a failure names the command that failed (the script's trace goes to stderr).
  const run = spawnSync('sh', ['-x', file], {
    env: { ...env, PLATYNUI_INSPECTOR: path.join(projectRoot(), 'bin', 'platynui-inspector') },
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(run.status, 0, run.stderr.split('\n').slice(-12).join('\n'));
  return performance.now() - started;
}
