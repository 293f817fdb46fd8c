// The browser host never records clicks on its own page: Chromium showing the inspector's page (through `serve`) as
// a real window on the test desktop holds the page's WebSocket, so the host counts its windows as the inspector's own
// (main/hosts/browser/peer-process.ts, through /proc). While recording, an XTest click on that page is no step, though
// the tree names an element of Chromium's there; a click in the GTK recorder form (e2e/fixtures/gtk3-recorder-form.py)
// at the same time is one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { InspectorClient } from '../../shared/api/client.js';
import { launchChromium, launchPythonGtkApp, sessionEnv, type LaunchedApp } from '../support/apps.js';
import { connectClient, startServe } from '../support/inspector.js';
import { projectRoot } from '../support/paths.js';
import { terminate } from '../support/processes.js';

const env = sessionEnv();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A point on the inspector's page: Chromium's window is at 0,0 (820x700), the form well to its right. */
const ON_PAGE = { x: 400, y: 420 };

function cli(args: string[]): string {
  const run = spawnSync(process.execPath, [path.join(projectRoot(), 'bin/platynui-inspector'), ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

async function eventually(read: () => string, wanted: (value: string) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (let value = read(); !wanted(value); value = read()) {
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value)}`);
    await sleep(500);
  }
}

describe(
  'recording through the browser host leaves out the browser showing its page (desktop)',
  { timeout: 300_000 },
  () => {
    let form: LaunchedApp | undefined;
    let serve: Awaited<ReturnType<typeof startServe>> | undefined;
    let chromium: LaunchedApp | undefined;
    let client: InspectorClient | undefined;

    before(async () => {
      form = await launchPythonGtkApp('gtk3-recorder-form.py', env, { args: ['900', '160'] });
      serve = await startServe(env, ['--provider', 'atspi']);
      chromium = await launchChromium(env, serve.url, {
        title: 'PlatynUI Inspector',
        windowSize: { width: 820, height: 700 },
      });
      client = await connectClient(serve.url);
    });

    after(async () => {
      client?.close();
      await chromium?.stop();
      if (serve?.host.pid !== undefined) await terminate([serve.host.pid], 5000);
      await form?.stop();
    });

    test("a click on the inspector's page is no step; a click in the form is one", async () => {
      // The page is connected once it shows the desktop's tree.
      await eventually(
        () => cli(['query', "count(//Frame[contains(@Name, 'PlatynUI Inspector')]//Tree)"]),
        (count) => Number(count) > 0,
        "the inspector's page",
      );
      const picked = cli(['pick', '--at', `${ON_PAGE.x},${ON_PAGE.y}`, '--format', 'json', '--attrs', 'none']);
      assert.ok(picked.includes(`atspi://${chromium!.busName}/`), `Chromium's element under the point: ${picked}`);

      const started = await client!.startRecording();
      assert.equal(started.recording, true);
      cli(['pointer', 'click', '--at', `${ON_PAGE.x},${ON_PAGE.y}`]);
      cli(['pointer', 'click', `/app:Application[@ProcessId=${form!.pid}]//Button[@Name='Add']`]);
      await eventually(
        () => cli(['query', "string(//Frame[@Name='Recorder form']//Label[@Description='count-status']/@Name)"]),
        (status) => status === 'count 1',
        'the click in the form',
      );
      const stopped = await client!.stopRecording();
      assert.deepEqual(
        stopped.steps.map((step) => [step.action.kind, step.target.role, step.target.name]),
        [['click', 'Button', 'Add']],
      );
      assert.equal(stopped.unattributed, 0);
    });
  },
);
