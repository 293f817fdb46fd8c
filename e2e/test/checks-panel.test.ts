// The Checks panel end to end: the GTK 3 fixture with seeded faults and its clean twin (e2e/fixtures/gtk3-a11y-checks.py)
// in the test desktop, the inspector's browser host (or the Electron shell) driven through its accessible roles: the
// "Checks" region, its "Run checks" and "Export report" buttons, the "Findings by rule" list.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchPythonGtkApp, sessionEnv, type LaunchedApp } from '../support/apps.js';
import { inspectorKind, launchInspector, type InspectorUnderTest } from '../support/inspector.js';

const env = sessionEnv();
let app: LaunchedApp;
let tabApp: LaunchedApp;
let inspector: InspectorUnderTest | undefined;
let page: Page;

const part = (name: string) => `app:Application[@ProcessId=${app.pid}]//Filler[@Name='${name}']`;
const checks = () => page.getByRole('region', { name: 'Checks' });

/** Selects a node through the XPath console's result list, as a user does. */
async function selectByXPath(expression: string, label: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'XPath' });
  await editor.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(expression);
  const option = page.getByRole('listbox', { name: 'Results' }).getByRole('option', { name: label, exact: true });
  await option.waitFor({ timeout: 30000 });
  await option.click();
  await waitForSelectedTreeItem(label);
}

async function waitForSelectedTreeItem(label: string): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') === expected,
    label,
    { timeout: 30000 },
  );
}

async function runChecks(): Promise<string> {
  await checks().getByRole('button', { name: 'Run checks' }).click();
  const summary = checks().locator('.check-summary');
  await summary.waitFor({ timeout: 60000 });
  await page.waitForFunction(
    () => !document.querySelector('section[aria-label=Checks] button')?.textContent?.includes('Checking'),
    undefined,
    { timeout: 60000 },
  );
  return (await summary.textContent()) ?? '';
}

describe(`the Checks panel through the ${inspectorKind(env)}`, { timeout: 240000 }, () => {
  before(async () => {
    [app, tabApp] = await Promise.all([
      launchPythonGtkApp('gtk3-a11y-checks.py', env),
      launchPythonGtkApp('gtk3-tab-order.py', env),
    ]);
    inspector = await launchInspector(env, { args: ['--provider', 'atspi'], viewport: { width: 1440, height: 900 } });
    page = inspector.page;
    await page.getByRole('tree').waitFor({ timeout: 30000 });
  });

  after(async () => {
    await inspector?.close();
    await Promise.all([app?.stop(), tabApp?.stop()]);
  });

  test('runs on the selected subtree and lists its findings by rule, with severity and WCAG criteria', async () => {
    await selectByXPath(part('Faulty part'), 'Filler "Faulty part"');
    assert.match(await runChecks(), /^10 finding\(s\) in 20 node\(s\) of Filler "Faulty part"/);
    const groups = checks().getByRole('list', { name: 'Findings by rule' });
    const ruleLists = await groups
      .getByRole('list')
      .evaluateAll((lists) => lists.map((l) => l.getAttribute('aria-label')));
    assert.deepEqual(ruleLists.sort(), [
      'Findings of contradictory-states',
      'Findings of duplicate-sibling-name',
      'Findings of geometry',
      'Findings of poor-name',
      'Findings of role-requirements',
      'Findings of text-contrast',
      'Findings of unlabelled-field',
      'Findings of unnamed-control',
      'Findings of unnamed-image',
    ]);
    const roleFindings = checks().getByRole('list', { name: 'Findings of role-requirements' }).getByRole('button');
    assert.equal(await roleFindings.count(), 2);
    const text = (await groups.textContent()) ?? '';
    assert.match(text, /error.*An element lacks what its role requires/);
    assert.match(text, /WCAG 1\.1\.1 Non-text Content/);
  });

  test("a rule's help is one click away", async () => {
    const help = checks().getByRole('button', { name: 'Help for geometry' });
    assert.equal(await help.getAttribute('aria-expanded'), 'false');
    await help.click();
    assert.equal(await help.getAttribute('aria-expanded'), 'true');
    assert.match((await checks().locator('.check-help').textContent()) ?? '', /outside its window/);
  });

  test('a finding selects its node in the tree', async () => {
    await checks()
      .getByRole('list', { name: 'Findings of geometry' })
      .getByRole('button', { name: /Button "Help" at .* lies outside its window/ })
      .click();
    await waitForSelectedTreeItem('Button "Help"');
  });

  test('exports the report as SARIF with a verified locator per finding', async () => {
    await selectByXPath(part('Faulty part'), 'Filler "Faulty part"');
    await runChecks();
    await checks().getByRole('combobox', { name: 'Report' }).selectOption('sarif');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60000 }),
      checks().getByRole('button', { name: 'Export report' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'accessibility-checks.sarif');
    const file = await download.path();
    const log = JSON.parse(readFileSync(file, 'utf8')) as {
      version: string;
      runs: { results: { ruleId: string; locations: { logicalLocations: { fullyQualifiedName: string }[] }[] }[] }[];
    };
    assert.equal(log.version, '2.1.0');
    const results = log.runs[0]!.results;
    assert.equal(results.length, 10);
    for (const result of results) {
      const name = result.locations[0]!.logicalLocations[0]!.fullyQualifiedName;
      assert.match(name, /^\//, `an XPath locator for ${result.ruleId}, not the runtime id`);
    }
  });

  test('the clean twin gives no findings', async () => {
    await selectByXPath(part('Clean part'), 'Filler "Clean part"');
    assert.match(await runChecks(), /^0 finding\(s\) in 21 node\(s\) of Filler "Clean part"/);
    assert.equal(await checks().getByRole('list', { name: 'Findings by rule' }).getByRole('listitem').count(), 0);
  });

  test('"Tab order" walks the window with the keyboard, lists the order and numbers it on the Screen view', async () => {
    await selectByXPath(
      `app:Application[@ProcessId=${tabApp.pid}]/Frame[@Name='Tab order faulty']`,
      'Frame "Tab order faulty"',
    );
    await checks().getByRole('button', { name: 'Tab order' }).click();
    const order = checks().getByRole('list', { name: 'Tab order of Tab order faulty' });
    await order.waitFor({ timeout: 60000 });
    assert.deepEqual(await order.getByRole('button').allTextContents(), [
      'Text "First"',
      'Button "Second"',
      'Text "Trap"',
    ]);
    const findings = (rule: string) =>
      checks()
        .getByRole('list', { name: `Findings of ${rule}` })
        .getByRole('button')
        .allTextContents();
    assert.deepEqual(await findings('tab-unreachable'), [
      'Button "Skipped" takes focus, but 4 press(es) of Tab never reached it',
    ]);
    assert.match((await findings('tab-trap'))[0] ?? '', /^Text "Trap": Tab leaves the focus on it/);
    await page.getByRole('tab', { name: 'Screen' }).click();
    await page.locator('img[alt="Screen"]').waitFor({ timeout: 20000 });
    const numbers = page.locator('[data-box=tab-stop] .tab-stop-number');
    assert.deepEqual(await numbers.allTextContents(), ['1', '2', '3']);
    await page.getByRole('tab', { name: 'Details' }).click();
  });
});
