// The Events panel end to end: the GTK 3 events fixture (e2e/fixtures/gtk3-events.py) in the test desktop, changed by
// the CLI's real pointer input, and the inspector's browser host (or the Electron shell) driven through its accessible
// roles: the "Events" tab, its "Watch events" button, the "Event list" table and its rows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchPythonGtkApp, sessionEnv, type LaunchedApp } from '../support/apps.js';
import { inspectorKind, launchInspector, type InspectorUnderTest } from '../support/inspector.js';
import { projectRoot } from '../support/paths.js';

const env = sessionEnv();
let app: LaunchedApp;
let inspector: InspectorUnderTest | undefined;
let page: Page;

describe(`the Events panel through the ${inspectorKind(env)}`, { timeout: 180000 }, () => {
  before(async () => {
    app = await launchPythonGtkApp('gtk3-events.py', env);
    inspector = await launchInspector(env, { args: ['--provider', 'atspi'], viewport: { width: 1440, height: 900 } });
    page = inspector.page;
    await page.getByRole('tree').waitFor({ timeout: 30000 });
  });

  after(async () => {
    await inspector?.close();
    await app?.stop();
  });

  test('a click that renames a button shows as an event; clicking the event selects the button', async () => {
    await page.getByRole('tab', { name: 'Events' }).click();
    const panel = page.getByRole('region', { name: 'Events' });
    await panel.getByRole('button', { name: 'Watch events' }).click();
    await panel.getByRole('button', { name: 'Stop watching' }).waitFor({ timeout: 30000 });
    const button = `/app:Application[@ProcessId=${app.pid}]//Button[@Name='Rename me']`;
    const click = spawnSync(
      process.execPath,
      [path.join(projectRoot(), 'bin/platynui-inspector'), 'pointer', 'click', button],
      {
        env,
        encoding: 'utf8',
        timeout: 60000,
      },
    );
    assert.equal(click.status, 0, click.stderr);
    const row = panel
      .getByRole('table', { name: 'Event list' })
      .getByRole('row')
      .filter({ hasText: 'name-changed' })
      .filter({ hasText: 'Button "Renamed"' });
    await row.first().waitFor({ timeout: 30000 });
    assert.match((await row.first().textContent()) ?? '', /name="Renamed"/);
    await row.first().getByRole('button', { name: 'Button "Renamed"' }).click();
    await page.waitForFunction(
      () => document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') ?? '',
      undefined,
      { timeout: 30000 },
    );
    const selected = await page.locator('[role=treeitem][aria-selected=true]').getAttribute('aria-label');
    assert.match(selected ?? '', /Renamed/);
    const counts = await panel.getByRole('status', { name: 'Event counts' }).textContent();
    assert.match(counts ?? '', /\d+ shown, \d+ received, \d+ merged, \d+ dropped/);
  });
});
