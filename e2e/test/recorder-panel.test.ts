// The Recorder panel end to end: the GTK 3 recorder form (e2e/fixtures/gtk3-recorder-form.py) in the test desktop,
// clicked and typed into by real XTest input (the CLI's pointer, xdotool's keys), and the inspector's browser host
// (or the Electron shell) driven through its accessible roles: the "Recorder" tab, Record and Stop, the "Recorded
// steps" list and the script preview.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchPythonGtkApp, sessionEnv, type LaunchedApp } from '../support/apps.js';
import { typeText } from '../support/input.js';
import { inspectorKind, launchInspector, type InspectorUnderTest } from '../support/inspector.js';
import { projectRoot } from '../support/paths.js';

const env = sessionEnv();
let app: LaunchedApp;
let inspector: InspectorUnderTest | undefined;
let page: Page;

/** A real click through the CLI's pointer (XTest) on an element of the form. */
function click(xpath: string): void {
  const run = spawnSync(
    process.execPath,
    [path.join(projectRoot(), 'bin/platynui-inspector'), 'pointer', 'click', xpath],
    {
      env,
      encoding: 'utf8',
      timeout: 60000,
    },
  );
  assert.equal(run.status, 0, run.stderr);
}

describe(`the Recorder panel through the ${inspectorKind(env)}`, { timeout: 180000 }, () => {
  before(async () => {
    app = await launchPythonGtkApp('gtk3-recorder-form.py', env, { args: ['200', '160'] });
    inspector = await launchInspector(env, { args: ['--provider', 'atspi'], viewport: { width: 1440, height: 900 } });
    page = inspector.page;
    await page.getByRole('tree').waitFor({ timeout: 30000 });
  });

  after(async () => {
    await inspector?.close();
    await app?.stop();
  });

  test('a click and typing in the form show as steps; the script of the steps is exported', async () => {
    await page.getByRole('tab', { name: 'Recorder' }).click();
    const panel = page.getByRole('region', { name: 'Recorder' });
    await panel.getByRole('button', { name: 'Record' }).click();
    await panel.getByRole('button', { name: 'Stop' }).waitFor({ timeout: 30000 });

    const form = `/app:Application[@ProcessId=${app.pid}]`;
    click(`${form}//Text[@Name='Name']`);
    await typeText(env, 'Ada');
    click(`${form}//Button[@Name='Add']`);

    const steps = panel.getByRole('list', { name: 'Recorded steps' });
    await steps.getByRole('listitem', { name: 'Step 3: click Button "Add"' }).waitFor({ timeout: 30000 });
    assert.deepEqual(
      await steps.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label'))),
      ['Step 1: click Text "Name"', 'Step 2: type into Text "Name"', 'Step 3: click Button "Add"'],
    );
    await panel.getByRole('button', { name: 'Stop' }).click();
    await panel.getByRole('button', { name: 'Record' }).waitFor({ timeout: 30000 });
    await steps.getByRole('combobox', { name: 'Locator of step 3' }).waitFor({ timeout: 30000 });

    const script = panel.getByRole('group', { name: 'Script' });
    await script.getByRole('combobox', { name: 'Format' }).selectOption('dogtail');
    const preview = script.getByLabel('dogtail script', { exact: true });
    await page.waitForFunction(
      () => /node\.click\(1\)/.test(document.querySelector('[aria-label="dogtail script"]')?.textContent ?? ''),
      undefined,
      { timeout: 30000 },
    );
    const text = (await preview.textContent()) ?? '';
    assert.match(text, /rawinput\.typeText\("Ada"\)/);
    assert.match(text, /"Add"/);
    assert.match(text, /node\.click\(1\)/);
  });
});
