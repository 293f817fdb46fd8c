// The XPath console's words and checks, the tree filter's whole-tree search, "Try", and snapshots (save, open
// offline, compare) end to end on a real gtk3-demo through the inspector's accessible roles and names (the browser
// host in Debian's Chromium, or the Electron shell: e2e/support/inspector.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchGtk3Demo, sessionEnv, type LaunchedApp } from '../support/apps.js';
import { inspectorKind, launchInspector, type InspectorUnderTest } from '../support/inspector.js';
import { typeXPath, waitForStatus } from '../support/xpath-console.js';

const env = sessionEnv();
let app: LaunchedApp;
let inspector: InspectorUnderTest | undefined;
let page: Page;
let dir: string;

const ownApp = () => `/app:Application[@ProcessId=${app.pid}]`;
const treeitem = (name: string) => page.getByRole('tree').getByRole('treeitem', { name, exact: true });

/** The editor's text as Monaco shows it (its lines, with plain spaces). */
async function editorText(): Promise<string> {
  return ((await page.locator('.monaco-host .view-lines').textContent()) ?? '').replace(/\u00a0/g, ' ');
}

async function selectRunButton(): Promise<void> {
  await typeXPath(page, `${ownApp()}//Button[@Name='Run']`);
  await waitForStatus(page, /^1 result \(\d+ ms\)$/);
  await page.getByRole('listbox', { name: 'Results' }).getByRole('option', { name: 'Button "Run"' }).click();
  await page.waitForFunction(
    () => document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') === 'Button "Run"',
    undefined,
    { timeout: 20000 },
  );
}

describe(
  `XPath words, names, filter, Try and snapshots on gtk3-demo through the ${inspectorKind(env)}`,
  { timeout: 300000 },
  () => {
    before(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'platynui-e2e-snapshots-'));
      app = await launchGtk3Demo(env);
      inspector = await launchInspector(env, { args: ['--provider', 'atspi'], viewport: { width: 1440, height: 900 } });
      page = inspector.page;
      await treeitem('app:Application "gtk3-demo"').waitFor({ timeout: 30000 });
    });

    after(async () => {
      await inspector?.close();
      await app?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    test('an XPath error is said in plain words with its column, never in the engine’s terms', async () => {
      await typeXPath(page, "//Button[contain(@Name,'Run')]");
      await waitForStatus(page, /^Error: Unknown function contain\(\) at column 10; did you mean contains\(\)\?$/);
      await typeXPath(page, `${ownApp()}//Button[@Name=]`);
      const text = await waitForStatus(page, /^Error: Expected a value after '=' at column \d+$/);
      assert.equal(Number(/column (\d+)/.exec(text)![1]), `${ownApp()}//Button[@Name=`.length + 1);
      await page.locator('.monaco-host .squiggly-error').first().waitFor({ timeout: 10000 });
    });

    test('typos in element and attribute names are marked and answered with the name meant', async () => {
      await typeXPath(page, `${ownApp()}//Buton`);
      await waitForStatus(page, /^0 results \(\d+ ms\)\. No element is called Buton; did you mean Button\?$/);
      await page.locator('.monaco-host .squiggly-warning').first().waitFor({ timeout: 10000 });
      await typeXPath(page, `${ownApp()}//Button[@Nam='Run']`);
      await waitForStatus(page, /^0 results \(\d+ ms\)\. No attribute is called Nam; did you mean @Name\?$/);
      await typeXPath(page, `${ownApp()}//Button[Name='Run']`);
      await waitForStatus(page, /^0 results \(\d+ ms\)\. Name is an attribute, written @Name;/);
      await typeXPath(page, `${ownApp()}//Button[@Name='Run']`);
      await waitForStatus(page, /^1 result \(\d+ ms\)$/);
      assert.equal(await page.locator('.monaco-host .squiggly-warning').count(), 0, 'a correct expression has no mark');
    });

    test('the filter finds a node not loaded yet through the whole tree and shows it under its real parents', async () => {
      const filter = page.getByRole('searchbox', { name: 'Filter tree' });
      await filter.fill('Run');
      await page.getByText('No loaded node matches "Run"').waitFor({ timeout: 10000 });
      await page.getByRole('button', { name: 'Search the whole tree' }).click();
      await page.getByText(/matches in the whole tree, shown under their parents$/).waitFor({ timeout: 30000 });
      const run = treeitem('Button "Run"');
      await run.waitFor({ timeout: 10000 });
      const rows = await page
        .getByRole('tree')
        .getByRole('treeitem')
        .evaluateAll((els) =>
          els.map((e) => ({ label: e.getAttribute('aria-label'), level: Number(e.getAttribute('aria-level')) })),
        );
      const at = rows.findIndex((row) => row.label === 'Button "Run"');
      const level = rows[at]!.level;
      assert.ok(level > 3, `deep in the tree (level ${level})`);
      // Every level above the match has its ancestor before it: nothing hangs under the desktop.
      for (let wanted = level - 1, i = at - 1; wanted >= 1; i--) {
        assert.ok(i >= 0, `no ancestor at level ${wanted} above the match: ${JSON.stringify(rows)}`);
        if (rows[i]!.level === wanted) wanted--;
        else assert.ok(rows[i]!.level > wanted, `row ${rows[i]!.label} breaks the chain of ancestors`);
      }
      assert.ok(
        rows.every((row) => row.level === 1 || /run/i.test(row.label!) || rows.some((r) => r.level > row.level)),
      );
      await filter.fill('');
    });

    test('"Try" puts the locator into the editor, so the editor and the results agree', async () => {
      await selectRunButton();
      await page.getByRole('button', { name: 'Find locators' }).click();
      const tryButton = page.getByRole('button', { name: /^Try locator / }).first();
      await tryButton.waitFor({ timeout: 60000 });
      const locator = ((await tryButton.getAttribute('aria-label')) ?? '').replace(/^Try locator /, '');
      await tryButton.click();
      await waitForStatus(page, /^1 result \(\d+ ms\)$/);
      await page.waitForFunction((expected) => {
        const text = (document.querySelector('.monaco-host .view-lines')?.textContent ?? '').replace(/\u00a0/g, ' ');
        return text === expected;
      }, locator);
      assert.equal(await editorText(), locator);
    });

    test('the selected subtree saves as a snapshot, opens offline and read-only, and two snapshots compare', async () => {
      await selectRunButton();
      const frame = treeitem('Frame "Application Class"');
      await frame.click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Save snapshot' }).click(),
      ]);
      const saved = path.join(dir, download.suggestedFilename());
      await download.saveAs(saved);
      assert.equal(path.basename(saved), 'frame-application-class.xml');
      const xml = readFileSync(saved, 'utf8');
      assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<snapshot /);
      assert.match(xml, /<Frame Name="Application Class"/);
      assert.match(xml, /<Button Name="Run"/);

      await page.getByLabel('Open snapshot').setInputFiles(saved);
      const banner = page.getByRole('region', { name: 'Offline snapshot' });
      await banner.waitFor({ timeout: 20000 });
      assert.match((await banner.textContent()) ?? '', /Offline.*frame-application-class\.xml, read-only/);
      await treeitem('Frame "Application Class"').waitFor({ timeout: 20000 });
      assert.equal(await treeitem('app:Application "gtk3-demo"').count(), 0, 'only the snapshot is shown');
      assert.equal(await page.getByRole('button', { name: 'Pick' }).isDisabled(), true, 'nothing to pick offline');
      await typeXPath(page, "//Button[@Name='Run']");
      await waitForStatus(page, /^1 result \(\d+ ms\)$/);
      await banner.getByRole('button', { name: 'Back to the live desktop' }).click();
      await banner.waitFor({ state: 'detached', timeout: 20000 });
      await treeitem('app:Application "gtk3-demo"').waitFor({ timeout: 20000 });

      const changed = path.join(dir, 'changed.xml');
      writeFileSync(changed, xml.replace('<Button Name="Run"', '<Button Name="Run it"'));
      await page.getByRole('button', { name: 'Compare snapshots' }).click();
      const dialog = page.getByRole('dialog', { name: 'Compare snapshots' });
      await dialog.getByLabel('Before').setInputFiles(saved);
      await dialog.getByLabel('After').setInputFiles(changed);
      await dialog.getByRole('button', { name: 'Compare', exact: true }).click();
      await dialog
        .getByText(/^0 added, 0 removed, 1 changed \(\d+ nodes before, \d+ after\)$/)
        .waitFor({ timeout: 20000 });
      const entries = dialog.getByRole('list', { name: 'Differences' }).locator(':scope > li');
      assert.equal(await entries.count(), 1);
      assert.match((await entries.first().textContent()) ?? '', /^changed .*Button "Run it".*Name: Run → Run it/);
      await dialog.getByRole('button', { name: 'Close' }).click();
    });
  },
);
