// The inspector as a daily tool, in Chromium through its accessible roles (mock provider, the browser host; or the
// Electron shell: e2e/support/inspector.ts): the layout at 1024x700 (tabs, no sideways scrolling, the History menu
// in view), Tab leaving the XPath editor, F6 between panes, type-to-jump, F8 to pick, the About box's version, the
// selection outlined with where it is, the best locator next to the title, one copy menu and Ctrl+C per attribute
// row, results with their application and path, and status messages that clear.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sessionEnv } from '../support/apps.js';
import { inspectorKind, launchInspector, type InspectorUnderTest } from '../support/inspector.js';
import { projectRoot } from '../support/paths.js';
import { typeXPath, waitForStatus } from '../support/xpath-console.js';

const env = sessionEnv();
let inspector: InspectorUnderTest | undefined;
let page: Page;

const treeitem = (name: string) => page.getByRole('tree').getByRole('treeitem', { name, exact: true });
const selectedLabel = () =>
  page.evaluate(() => document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label'));
/** Which pane holds the focus (its class), or the focused element's tag when none does. */
const focusedPane = () =>
  page.evaluate(() => {
    const pane = document.activeElement?.closest('.pane-tree, .pane-attributes, .pane-side, .pane-console');
    return pane ? pane.className.split(' ')[0] : (document.activeElement?.tagName ?? '');
  });

async function selectInTree(name: string, label: string): Promise<void> {
  await typeXPath(page, `(//*[@Name='${name}'])[1]`);
  await waitForStatus(page, /^1 result/);
  await page.getByRole('listbox', { name: 'Results' }).getByRole('option', { name: label, exact: true }).click();
  await page.waitForFunction(
    (wanted) => document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') === wanted,
    label,
    { timeout: 20000 },
  );
}

describe(`the inspector as a daily tool through the ${inspectorKind(env)}`, { timeout: 240000 }, () => {
  before(async () => {
    inspector = await launchInspector(env, { args: ['--provider', 'mock'], viewport: { width: 1024, height: 700 } });
    page = inspector.page;
    await treeitem('app:Application "Studio"').waitFor({ timeout: 30000 });
  });

  after(async () => {
    await inspector?.close();
  });

  test('at 1024x700 nothing scrolls sideways, the side views are tabs and the History menu is in view', async () => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the window`);
    const tabs = page.getByRole('tablist', { name: 'Side pane' }).getByRole('tab');
    assert.deepEqual((await tabs.allTextContents()).slice(0, 3), ['Export', 'Patterns', 'Checks']);
    await tabs.filter({ hasText: 'Patterns' }).click();
    await page.getByRole('region', { name: 'Patterns' }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Export' }).isVisible(), false);
    await tabs.filter({ hasText: 'Export' }).click();
    const history = (await page.getByRole('combobox', { name: 'History' }).boundingBox())!;
    assert.ok(history.x + history.width <= 1024 && history.y + history.height <= 700, JSON.stringify(history));
    const values = (await page.getByRole('columnheader', { name: /Value/ }).boundingBox())!;
    assert.ok(values.width >= 100, `the value column is ${values.width} px wide`);
  });

  test('Tab leaves the XPath editor without typing into it', async () => {
    await typeXPath(page, '//Button');
    await page.keyboard.press('Escape'); // a completion list, if one opened, takes Tab
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement?.closest('.monaco-host') !== null),
      false,
      'the focus left the editor',
    );
    assert.equal(
      ((await page.locator('.monaco-host .view-lines').textContent()) ?? '').replace(/\u00a0/g, ' '),
      '//Button',
    );
  });

  test('F6 moves between the panes; typing in the tree jumps to a row', async () => {
    await page.getByRole('tree').focus();
    const visited = [await focusedPane()];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('F6');
      visited.push(await focusedPane());
    }
    assert.deepEqual(visited, ['pane-tree', 'pane-attributes', 'pane-side', 'pane-console', 'pane-tree']);
    await page.keyboard.press('Shift+F6');
    assert.equal(await focusedPane(), 'pane-console');
    await page.getByRole('tree').focus();
    await page.keyboard.type('log');
    await page.waitForFunction(
      () =>
        document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') ===
        'app:Application "Login"',
      undefined,
      { timeout: 10000 },
    );
    assert.equal(await selectedLabel(), 'app:Application "Login"');
  });

  test('F8 starts picking; the pressed Pick button stays readable while hovered', async () => {
    const pick = page.getByRole('button', { name: /^Pick/ });
    assert.equal(await pick.getAttribute('aria-keyshortcuts'), 'F8');
    await page.getByRole('tree').focus();
    await page.keyboard.press('F8');
    await page.waitForFunction(() => document.querySelector('.pick-button')?.getAttribute('aria-pressed') === 'true');
    await pick.hover();
    const [fg, bg] = await pick.evaluate((button) => {
      const style = getComputedStyle(button);
      return [style.color, style.backgroundColor];
    });
    const luminance = (css: string) => {
      const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
    };
    const [light, dark] = [luminance(fg), luminance(bg)].sort((a, b) => b - a) as [number, number];
    const contrast = (light + 0.05) / (dark + 0.05);
    assert.ok(contrast >= 4.5, `text ${fg} on ${bg}: contrast ${contrast.toFixed(2)}`);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('.pick-button')?.getAttribute('aria-pressed') === 'false');
  });

  test('the About box gives the version over the protocol', async () => {
    const { version } = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as {
      version: string;
    };
    await page.getByRole('button', { name: 'About' }).click();
    const about = page.getByRole('dialog', { name: 'About PlatynUI Inspector' });
    assert.match((await about.textContent()) ?? '', new RegExp(`Version${version.replace(/\./g, '\\.')}Protocol`));
    await page.keyboard.press('Escape');
    await about.waitFor({ state: 'detached' });
  });

  test('a selected row is outlined and the tree says where; the best locator sits by the title', async () => {
    await selectInTree('Auto save', 'CheckBox "Auto save"');
    const note = page.getByRole('note', { name: 'On screen' });
    await note.filter({ hasText: 'Outlined at 300, 115 · 120×30' }).waitFor({ timeout: 10000 });
    await selectInTree('Cancel', 'Button "Cancel"');
    await note.filter({ hasText: /^Outlined at -1600, 740/ }).waitFor({ timeout: 10000 });
    const best = page.getByRole('group', { name: 'Best locator' });
    await best.getByRole('button', { name: 'Find locator' }).click();
    const copy = best.getByRole('button', { name: /^Copy best locator / });
    await copy.waitFor({ timeout: 20000 });
    const xpath = (await best.getByRole('code').textContent()) ?? '';
    assert.match(xpath, /Cancel/);
    await copy.click();
    await page.getByText('Copied locator').waitFor({ timeout: 10000 });
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), xpath);
    // Status messages clear after a while.
    await page.getByText('Copied locator').waitFor({ state: 'detached', timeout: 15000 });
  });

  test('one copy menu per attribute row, Ctrl+C copies the value, values are readable', async () => {
    const table = page.getByRole('table', { name: 'Attributes' });
    const row = (name: string) =>
      table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    assert.equal((await row('Bounds').getByRole('cell').allTextContents())[0], '-1600, 740 · 80×30');
    await row('Name').focus();
    await page.keyboard.press('Control+c');
    await page.waitForFunction(async () => (await navigator.clipboard.readText()) === 'Cancel');
    await row('Bounds').getByRole('button', { name: 'Copy Bounds…' }).click();
    const menu = page.getByRole('menu', { name: 'Copy Bounds' });
    await menu.getByRole('menuitem', { name: 'Copy value' }).click();
    await page.waitForFunction(
      async () => (await navigator.clipboard.readText()) === '{"x":-1600,"y":740,"width":80,"height":30}',
    );
    assert.equal(await menu.count(), 0);
  });

  test('result rows carry their application and path', async () => {
    await typeXPath(page, "//Button[@Name='OK']");
    await waitForStatus(page, /^3 results/);
    const options = page.getByRole('listbox', { name: 'Results' }).getByRole('option');
    await options.first().filter({ hasText: 'in Studio › Studio - demo › Pane' }).waitFor({ timeout: 10000 });
    await options.last().filter({ hasText: 'in Login › Sign in' }).waitFor({ timeout: 10000 });
  });
});
