import '../../backends/linux.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { sessionEnv } from '../../../e2e/support/apps.js';
import {
  awaitDemoFlowEnd,
  demoEndState,
  freshDemo,
  recordDemoFlow,
  replayCliScript,
} from '../../../e2e/support/gtk3-demo-flow.js';
import { describeStep } from '../../../shared/recording/steps.js';

// The replay goal, once: a 20-step flow on gtk3-demo (e2e/support/gtk3-demo-flow.ts: demos chosen, tabs,
// a demo window's entries typed into with text and shortcuts, a dialog filled in and confirmed, a message box) is
// recorded from real XTest input, and its shell script of CLI commands replays against a freshly started gtk3-demo
// to the same end state: the application's snapshot (default attributes, geometry left out) and the entries' values.
// bench/recorder-replay.ts replays it ten times.

let demo: LaunchedApp | undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'record-replay-'));

after(async () => {
  await demo?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test(
  'a recorded 20-step gtk3-demo flow replays from its CLI script to the same end state',
  { timeout: 300_000 },
  async () => {
    const env = sessionEnv();
    demo = await freshDemo(env, undefined);
    const { steps, endState } = await recordDemoFlow(env);
    assert.equal(steps.length, 20, steps.map(describeStep).join('\n'));
    for (const step of steps) assert.ok(step.target.locators.length > 0, `${describeStep(step)}: a verified locator`);
    assert.deepEqual(
      steps.filter((step) => step.action.kind === 'type').map((step) => step.action),
      [
        { kind: 'type', parts: [{ kind: 'text', text: 'Ada' }] },
        { kind: 'type', parts: [{ kind: 'text', text: 'Lovelace' }] },
        {
          kind: 'type',
          parts: [
            { kind: 'chord', keys: ['End'] },
            { kind: 'text', text: ' King' },
          ],
        },
        {
          kind: 'type',
          parts: [
            { kind: 'chord', keys: ['Ctrl', 'a'] },
            { kind: 'text', text: '1815' },
          ],
        },
        {
          kind: 'type',
          parts: [
            { kind: 'chord', keys: ['End'] },
            { kind: 'text', text: '!' },
          ],
        },
      ],
    );

    demo = await freshDemo(env, demo);
    replayCliScript(env, steps, path.join(dir, 'flow.sh'));
    await awaitDemoFlowEnd(env);
    assert.equal(demoEndState(env), endState);
  },
);
