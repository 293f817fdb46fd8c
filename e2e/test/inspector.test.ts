// The inspector UI end to end with a real application (gtk3-demo) in the test desktop session, through the UI's
// accessibility contract (tree/treeitem, the "XPath" text area, the role="status" summary, the results listbox, the
// "Attributes" table). The inspector is the browser host (`serve --provider atspi`, driven through Debian's Chromium
// with playwright-core), or the Electron shell through Playwright's `_electron` when ELECTRON_OVERRIDE_DIST_PATH
// names an Electron build (e2e/support/inspector.ts). Also leaves docs/screenshot.png for the README.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { HIGHLIGHT_COLOR } from '../../main/platform/x11/highlight.js';
import type { Screenshot } from '../../main/core/platform.js';
import { decodePng } from '../../main/runtime/screenshot-png.js';
import { launchChromium, launchGtk3Demo, sessionEnv, type LaunchedApp } from '../support/apps.js';
import { inspectorKind, launchInspector, type InspectorUnderTest } from '../support/inspector.js';
import { clickAt, xdotool } from '../support/input.js';
import { projectRoot } from '../support/paths.js';
import { atspiReference, referenceNodes, type ReferenceNode } from '../support/reference.js';
import { typeXPath, waitForStatus } from '../support/xpath-console.js';

const env = sessionEnv();
const root = projectRoot();

let app: LaunchedApp;
let inspector: InspectorUnderTest | undefined;
let page: Page;

async function gtkReference(): Promise<ReferenceNode[]> {
  const dump = await atspiReference(env, {
    pid: app.pid,
    extents: true,
    fields: ['role', 'name', 'states', 'extents'],
  });
  return [...referenceNodes(dump.tree!)];
}

/** The launched gtk3-demo in XPath, by its process: other applications in the session never match. */
const ownApp = () => `/app:Application[@ProcessId=${app.pid}]`;

const treeitem = (name: string) => page.getByRole('tree').getByRole('treeitem', { name, exact: true });

describe(`inspector UI on gtk3-demo through the ${inspectorKind(env)}`, { timeout: 240000 }, () => {
  before(async () => {
    app = await launchGtk3Demo(env);
    inspector = await launchInspector(env, { args: ['--provider', 'atspi'], viewport: { width: 1440, height: 900 } });
    page = inspector.page;
  });

  after(async () => {
    await inspector?.close();
    await app?.stop();
  });

  test('opens with the desktop and the running application in the tree', async () => {
    const tree = page.getByRole('tree');
    await tree.waitFor();
    const desktop = tree.getByRole('treeitem').first();
    await desktop.waitFor();
    assert.equal(await desktop.getAttribute('aria-level'), '1');
    assert.equal(await desktop.getAttribute('aria-expanded'), 'true');
    assert.match((await desktop.getAttribute('aria-label')) ?? '', /^Desktop/);
    const gtk = treeitem('app:Application "gtk3-demo"');
    await gtk.waitFor({ timeout: 20000 });
    assert.equal(await gtk.getAttribute('aria-level'), '2');
    assert.equal(await gtk.getAttribute('aria-expanded'), 'false');
  });

  test('expands the application with the keyboard and selects its window', async () => {
    const gtk = treeitem('app:Application "gtk3-demo"');
    await gtk.click();
    assert.equal(await gtk.getAttribute('aria-selected'), 'true');
    await page.keyboard.press('ArrowRight');
    const frame = treeitem('Frame "Application Class"');
    await frame.waitFor({ timeout: 15000 });
    assert.equal(await gtk.getAttribute('aria-expanded'), 'true');
    assert.equal(await frame.getAttribute('aria-level'), '3');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() =>
      document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label')?.startsWith('Frame'),
    );
    assert.equal(await frame.getAttribute('aria-selected'), 'true');
  });

  test('outlines the selected row on screen and says where it is (the extents libatspi reports)', async () => {
    // The frame "Application Class" is selected (the test before).
    const frame = (await gtkReference()).find((n) => n.role === 'frame' && n.name === 'Application Class');
    assert.ok(frame?.extents, 'the frame has extents');
    const { x, y, width, height } = frame.extents;
    await page
      .getByRole('note', { name: 'On screen' })
      .filter({ hasText: `Outlined at ${x}, ${y} · ${width}×${height}` })
      .waitFor({ timeout: 15000 });
  });

  test('shows the selected node attributes with namespace, typed value and type', async () => {
    const table = page.getByRole('table', { name: 'Attributes' });
    const nameRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Name', exact: true }) });
    await nameRow.waitFor({ timeout: 15000 });
    assert.deepEqual((await nameRow.getByRole('cell').allTextContents()).slice(0, 2), ['Application Class', 'String']);
    const bounds = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Bounds', exact: true }) });
    assert.equal((await bounds.getByRole('cell').allTextContents())[1], 'Rect');
    const derived = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^Bounds\.X/ }) });
    assert.equal(await derived.count(), 0, 'derived aliases are hidden at first');
    await page.getByRole('checkbox', { name: 'Hide derived' }).uncheck();
    assert.match((await derived.textContent()) ?? '', /derived/);
    await page.getByRole('checkbox', { name: 'Hide derived' }).check();
    const nativeRole = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'native:Role' }) });
    assert.equal((await nativeRole.getByRole('cell').allTextContents())[0], 'frame');
  });

  test('evaluates XPath as you type and reports the count and time', async () => {
    await typeXPath(page, `${ownApp()}//item:TabItem[@Name='Source']`);
    const status = page.getByRole('status');
    await waitForStatus(page, /^1 result \(\d+ ms\)$/);
    assert.match((await status.textContent()) ?? '', /^1 result \(\d+ ms\)$/);
    const options = page.getByRole('listbox', { name: 'Results' }).getByRole('option');
    assert.deepEqual(await options.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), [
      'item:TabItem "Source"',
    ]);

    await typeXPath(page, `${ownApp()}//item:TabItem`);
    await waitForStatus(page, /^\d+ results \(\d+ ms\)$/);
    const count = Number(/^(\d+)/.exec((await status.textContent()) ?? '')?.[1]);
    const reference = (await gtkReference()).filter((n) => n.role === 'page tab').length;
    assert.equal(count, reference, 'the console counts what libatspi sees');
  });

  test('marks a syntax error at the position the engine reports', async () => {
    await typeXPath(page, '//Button[@Name=]');
    await waitForStatus(page, /^Error: Expected a value after '=' at column 16$/);
    const marker = page.locator('.monaco-host .squiggly-error');
    await marker.first().waitFor({ timeout: 10000 });
    const markerBox = await marker.first().boundingBox();
    const editorBox = await page.locator('.monaco-host .view-lines').boundingBox();
    assert.ok(markerBox && editorBox, 'the marker and the text are on screen');
    // The engine points into the predicate, not at the start of the expression.
    assert.ok(markerBox.x > editorBox.x + 20, `marker at x=${markerBox.x}, text starts at x=${editorBox.x}`);
  });

  test('reveals a result in the tree', async () => {
    await typeXPath(page, `${ownApp()}//item:TabItem[@Name='Source']`);
    await waitForStatus(page, /^1 result \(\d+ ms\)$/);
    const option = page
      .getByRole('listbox', { name: 'Results' })
      .getByRole('option', { name: 'item:TabItem "Source"' });
    await option.waitFor({ timeout: 20000 });
    await option.click();
    const row = treeitem('item:TabItem "Source"');
    await row.waitFor({ timeout: 20000 });
    await page.waitForFunction(
      () =>
        document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') ===
        'item:TabItem "Source"',
      undefined,
      { timeout: 20000 },
    );
    assert.ok(Number(await row.getAttribute('aria-level')) > 3, 'revealed below the window');
    assert.equal(await option.getAttribute('aria-selected'), 'true');
  });

  test('runs a pattern action and the real application changes', async () => {
    const sourceTab = () =>
      gtkReference().then((nodes) => nodes.find((n) => n.role === 'page tab' && n.name === 'Source'));
    assert.equal((await sourceTab())?.states.includes('selected'), false, 'the Source tab starts unselected');
    const patterns = page.getByRole('region', { name: 'Patterns' });
    const select = patterns.getByRole('button', { name: 'select', exact: true });
    await select.waitFor({ timeout: 15000 });
    await select.click();
    await patterns.locator('.outcome').waitFor({ timeout: 15000 });
    assert.match((await patterns.locator('.outcome').textContent()) ?? '', /select: done/);
    let selected = false;
    for (let i = 0; i < 40 && !selected; i++) {
      selected = (await sourceTab())?.states.includes('selected') ?? false;
      if (!selected) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(selected, 'libatspi reports the Source tab selected in gtk3-demo');
  });

  test('picks the element under the real pointer', async () => {
    const run = (await gtkReference()).find((n) => n.role === 'push button' && n.name === 'Run');
    assert.ok(run?.extents, 'the Run button has extents');
    await page.getByRole('button', { name: 'Pick' }).click();
    const x = Math.round(run.extents.x + run.extents.width / 2);
    const y = Math.round(run.extents.y + run.extents.height / 2);
    await xdotool(env, ['mousemove', '--sync', String(x - 3), String(y - 2)]);
    await xdotool(env, ['mousemove', '--sync', String(x), String(y)]);
    const info = page.locator('.pick-info');
    await page.waitForFunction(
      () => (document.querySelector('.pick-info')?.textContent ?? '').startsWith('Button "Run"'),
      undefined,
      { timeout: 20000 },
    );
    assert.match((await info.textContent()) ?? '', /^Button "Run" \(1\/\d+\)$/);
    await page.keyboard.press('F8');
    await page.waitForFunction(
      () =>
        document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') === 'Button "Run"',
      undefined,
      { timeout: 20000 },
    );
    assert.equal(await page.getByRole('button', { name: /^Pick/ }).getAttribute('aria-pressed'), 'false');
  });

  test('exports a locator for the selected node, or says why it cannot', async () => {
    const panel = page.getByRole('region', { name: 'Export' });
    const locators = panel.getByRole('list', { name: 'Locators' }).getByRole('listitem');
    const message = panel.locator('.error, .muted');
    await panel.getByRole('button', { name: 'Find locators' }).click();
    await Promise.race([locators.first().waitFor({ timeout: 20000 }), message.first().waitFor({ timeout: 20000 })]);
    if ((await locators.count()) > 0) {
      const xpath = (await locators.first().locator('code').textContent()) ?? '';
      assert.match(xpath, /Run/);
      await locators
        .first()
        .getByRole('button', { name: /^Copy locator/ })
        .click();
      await page.getByText('Copied locator').waitFor({ timeout: 10000 });
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), xpath);
      await locators
        .first()
        .getByRole('button', { name: /^Try locator/ })
        .click();
      await waitForStatus(page, /^1 result \(\d+ ms\)$/);
    } else {
      assert.match((await message.first().textContent()) ?? '', /locator/i);
    }
  });

  test('picks by clicking in the application: the wheel cycles, the click selects, neither reaches the app', async () => {
    // The demo list: "Application Class" is the selected row (Run starts it in the last test), "Assistant" is not.
    const cells = async () => (await gtkReference()).filter((n) => n.role === 'table cell');
    const cell = async (name: string) => (await cells()).find((n) => n.name === name);
    const target = await cell('Assistant');
    assert.ok(target?.extents, 'the Assistant row has extents');
    assert.equal(target.states.includes('selected'), false);
    assert.equal((await cell('Application Class'))?.states.includes('selected'), true);
    const pickButton = page.getByRole('button', { name: /^Pick/ });
    await pickButton.click();
    await page.getByRole('button', { name: 'Picking… (click or F8 selects)' }).waitFor({ timeout: 10000 });
    const x = Math.round(target.extents.x + Math.min(40, target.extents.width / 2));
    const y = Math.round(target.extents.y + target.extents.height / 2);
    await xdotool(env, ['mousemove', '--sync', String(x - 3), String(y - 2)]);
    await xdotool(env, ['mousemove', '--sync', String(x), String(y)]);
    const pickInfo = () =>
      page
        .locator('.pick-info')
        .textContent()
        .then((t) => t ?? '');
    const waitForPickInfo = async (pattern: RegExp) => {
      const deadline = Date.now() + 20000;
      let text = await pickInfo();
      while (!pattern.test(text)) {
        if (Date.now() > deadline) assert.fail(`the pick info never matched ${pattern}; last: "${text}"`);
        await new Promise((r) => setTimeout(r, 50));
        text = await pickInfo();
      }
    };
    await waitForPickInfo(/"Assistant" \(1\/\d+\)$/);
    const deepest = await pickInfo();
    // Wheel up (button 4): one step towards the window; down goes back. Reaching the list, it would scroll it.
    await xdotool(env, ['click', '4']);
    await waitForPickInfo(/\(2\/\d+\)$/);
    await xdotool(env, ['click', '5']);
    await waitForPickInfo(/\(1\/\d+\)$/);
    assert.equal(await pickInfo(), deepest);
    const label = deepest.replace(/ \(\d+\/\d+\)$/, '');
    await xdotool(env, ['click', '1']);
    await page.waitForFunction(
      (name) => document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') === name,
      label,
      { timeout: 20000 },
    );
    assert.equal(await pickButton.getAttribute('aria-pressed'), 'false', 'the click ended pick mode');
    // Fold the demo list again (Left goes up to the TreeTable, Left again collapses it): the tests after this one
    // read the application rows at the end of the tree.
    await treeitem(label).click();
    const selectedRow = () =>
      page.evaluate(() => {
        const row = document.querySelector('[role=treeitem][aria-selected=true]');
        return { label: row?.getAttribute('aria-label') ?? '', expanded: row?.getAttribute('aria-expanded') };
      });
    for (let i = 0; i < 12 && (await selectedRow()).label !== 'TreeTable'; i++) await page.keyboard.press('ArrowLeft');
    assert.deepEqual(await selectedRow(), { label: 'TreeTable', expanded: 'true' });
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
      () => document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-expanded') === 'false',
    );
    const after = await cell('Assistant');
    assert.equal(after?.states.includes('selected'), false, 'the click did not select the row in gtk3-demo');
    assert.deepEqual(after?.extents, target.extents, 'the wheel did not scroll the list');
    assert.equal((await cell('Application Class'))?.states.includes('selected'), true);
    // Pick mode is over and the grab with it: the same click now reaches gtk3-demo.
    const selectedIn = async (name: string) => {
      for (let i = 0; i < 40; i++) {
        if ((await cell(name))?.states.includes('selected')) return true;
        await new Promise((r) => setTimeout(r, 250));
      }
      return false;
    };
    await xdotool(env, ['click', '1']);
    assert.ok(await selectedIn('Assistant'), 'after the pick a normal click selects the row');
    const first = (await cell('Application Class'))!.extents!;
    await clickAt(env, first.x + Math.min(40, first.width / 2), first.y + first.height / 2);
    assert.ok(await selectedIn('Application Class'), 'the first demo is selected again for the tests after this one');
  });

  test('highlights all matches at once on the real screen, and the highlight clears', async () => {
    await typeXPath(page, `${ownApp()}//item:TabItem`);
    const text = await waitForStatus(page, /^\d+ results \(\d+ ms\)$/);
    const tabs = (await gtkReference()).filter((n) => n.role === 'page tab' && n.extents);
    assert.equal(Number(/^(\d+)/.exec(text)?.[1]), tabs.length);
    assert.ok(tabs.length >= 2, 'several matches');
    // Just outside each tab's top and left edges: the frame (3 px wide) of that match; 6 px out: no frame.
    const probes = tabs.flatMap((tab) => {
      const e = tab.extents!;
      return [
        { x: e.x + Math.floor(e.width / 2), y: e.y - 2, frame: true },
        { x: e.x - 2, y: e.y + Math.floor(e.height / 2), frame: true },
        { x: e.x + Math.floor(e.width / 2), y: e.y - 6, frame: false },
      ];
    });
    // One region around all matches, read through ImageMagick's `import` (a tool of its own, not the platform).
    const left = Math.min(...probes.map((p) => p.x)) - 2;
    const top = Math.min(...probes.map((p) => p.y)) - 2;
    const width = Math.max(...probes.map((p) => p.x)) - left + 3;
    const height = Math.max(...probes.map((p) => p.y)) - top + 3;
    const red = (shot: Screenshot, p: { x: number; y: number }) => {
      const i = ((p.y - top) * shot.width + (p.x - left)) * 4;
      const [r, g, b] = [shot.pixels[i], shot.pixels[i + 1], shot.pixels[i + 2]];
      return r === HIGHLIGHT_COLOR.red && g === HIGHLIGHT_COLOR.green && b === HIGHLIGHT_COLOR.blue;
    };
    const crop = `${width}x${height}+${left}+${top}`;
    const screen = () => decodePng(execFileSync('import', ['-window', 'root', '-crop', crop, 'png:-'], { env }));
    assert.ok(
      probes.every((p) => !red(screen(), p)),
      'no frame before',
    );
    await page.getByRole('button', { name: 'Highlight all' }).click();
    await page.getByText(`Highlighted ${tabs.length} elements`).waitFor({ timeout: 10000 });
    const shot = screen();
    assert.deepEqual(
      probes.map((p) => red(shot, p)),
      probes.map((p) => p.frame),
      'a frame around each match, all at once',
    );
    // The UI's highlight lasts 3 s, then the host takes the frames down.
    let cleared = false;
    for (let i = 0; i < 40 && !cleared; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const later = screen();
      cleared = probes.every((p) => !red(later, p));
    }
    assert.ok(cleared, 'the frames are gone again');
  });

  test('saves a screenshot of the UI inspecting gtk3-demo', async () => {
    await typeXPath(page, '//Button | //item:TabItem');
    await waitForStatus(page, /^\d+ results \(\d+ ms\)$/);
    await treeitem('Button "Run"').click();
    await page.waitForTimeout(500);
    mkdirSync(path.join(root, 'docs'), { recursive: true });
    const file = path.join(root, 'docs', 'screenshot.png');
    const png = await page.screenshot({ path: file });
    assert.ok(png.length > 10000);
  });
  test('follows the desktop: an application started from gtk3-demo appears without a refresh, selection kept', async () => {
    // "Run" starts the selected demo, "Application Class", as a process of its own: a new application on the bus.
    // Rows are virtualized, so the test scrolls the tree to its end before it reads the application rows.
    const applications = async () => {
      await page.getByRole('tree').evaluate((tree) => (tree.scrollTop = tree.scrollHeight));
      await page.waitForTimeout(100);
      return page
        .getByRole('tree')
        .getByRole('treeitem')
        .evaluateAll((els) =>
          els
            .filter((e) => e.getAttribute('aria-level') === '2')
            .map((e) => e.getAttribute('aria-label') ?? '')
            .filter((label) => label.startsWith('app:Application')),
        );
    };
    const before = await applications();
    assert.ok(before.includes('app:Application "gtk3-demo"'), JSON.stringify(before));
    await page.getByRole('tree').evaluate((tree) => (tree.scrollTop = 0));
    await treeitem('Button "Run"').click();
    const patterns = page.getByRole('region', { name: 'Patterns' });
    await patterns.getByRole('button', { name: 'activate', exact: true }).click();
    const deadline = Date.now() + 30000;
    let after = before;
    while (Date.now() < deadline && after.length <= before.length) {
      await new Promise((r) => setTimeout(r, 250));
      after = await applications();
    }
    assert.ok(after.length > before.length, `a new application row appeared: ${JSON.stringify(after)}`);
    assert.ok(after.includes('app:Application "gtk3-demo-application"'), JSON.stringify(after));
    await page.getByRole('tree').evaluate((tree) => (tree.scrollTop = 0));
    assert.equal(await treeitem('Button "Run"').getAttribute('aria-selected'), 'true', 'the selection is kept');
    assert.equal(await treeitem('app:Application "gtk3-demo"').getAttribute('aria-expanded'), 'true');
  });

  test('an application row shows its process id; a browser showing this inspector on the desktop is marked', async () => {
    const gtk = treeitem('app:Application "gtk3-demo"');
    assert.match((await gtk.getAttribute('aria-description')) ?? '', new RegExp(`pid ${app.pid}\\b`));
    // The inspector's own page, opened in a browser on the desktop (as the Electron shell's window would be).
    const own = await launchChromium(env, page.url(), { title: 'PlatynUI Inspector', waitForDocument: false });
    try {
      // Rows are virtualized: the tree is scrolled to its end, where new applications appear, while waiting.
      const applications = () =>
        page.getByRole('tree').evaluate((tree) => {
          tree.scrollTop = tree.scrollHeight;
          return Array.from(tree.querySelectorAll('[role=treeitem][aria-level="2"]')).map(
            (row) => `${row.getAttribute('aria-label')} ${row.getAttribute('aria-description')}`,
          );
        });
      const marked = `app:Application "Chromium" this inspector`;
      const deadline = Date.now() + 30000;
      let rows = await applications();
      while (!rows.some((row) => row.startsWith(marked)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        rows = await applications();
      }
      const row = rows.find((row) => row.startsWith(marked));
      assert.match(row ?? '', new RegExp(`pid ${own.pid}\\b`), JSON.stringify(rows));
      assert.doesNotMatch((await gtk.getAttribute('aria-description')) ?? '', /this inspector/);
    } finally {
      await own.stop();
      await page.getByRole('tree').evaluate((tree) => (tree.scrollTop = 0));
    }
  });

  test('pages the results as the list scrolls and expands the whole application with * in one go', async () => {
    await typeXPath(page, `count(${ownApp()}//*)`);
    // The one result of the count, a number (not what an earlier query left in the list).
    const counted = await page.waitForFunction(
      () => {
        const label = document.querySelector('[aria-label=Results] [role=option]')?.getAttribute('aria-label') ?? '';
        return /^\d+$/.test(label) ? Number(label) : false;
      },
      undefined,
      { timeout: 20000 },
    );
    const count = Number(await counted.jsonValue());
    assert.ok(count > 10, `gtk3-demo has nodes (${count})`);
    await typeXPath(page, `${ownApp()}//*`);
    await waitForStatus(page, new RegExp(`^${count} results \\(\\d+ ms\\)$`));
    const results = page.getByRole('listbox', { name: 'Results' });
    await results.getByRole('option').first().waitFor();
    await results.focus();
    await page.keyboard.press('End');
    // The last result's page comes from the host when the list shows it.
    const last = results.locator(`#result-${count - 1}`);
    await last.waitFor({ timeout: 20000 });
    await page.waitForFunction(
      (id) => document.getElementById(id)?.getAttribute('aria-busy') !== 'true',
      `result-${count - 1}`,
      {
        timeout: 20000,
      },
    );
    assert.notEqual(await last.getAttribute('aria-label'), 'Loading result');

    const rowCount = async () =>
      Number(/^(\d+) rows/.exec((await page.locator('.tree-footer').textContent()) ?? '')?.[1]);
    const gtk = treeitem('app:Application "gtk3-demo"');
    await gtk.click();
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
      () => document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-expanded') === 'false',
    );
    const collapsed = await rowCount();
    await page.keyboard.press('*');
    await page.waitForFunction(
      (before) => {
        const rows = Number(/^(\d+) rows/.exec(document.querySelector('.tree-footer')?.textContent ?? '')?.[1]);
        return rows > before && document.querySelector('[role=tree][aria-busy=true]') === null;
      },
      collapsed,
      { timeout: 30000 },
    );
    assert.equal((await rowCount()) - collapsed, count, 'every node below the application has its row');
  });
});
