// The UI's settings are the host's: a panel size, the XPath history and the last expression survive a restart of
// the host on another port (a new origin, so nothing of the page's own storage carries over). Mock provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sessionEnv } from '../support/apps.js';
import { launchInspector } from '../support/inspector.js';

const env = sessionEnv();

async function opened(page: Page): Promise<void> {
  await page.getByRole('treeitem', { name: 'app:Application "Studio"' }).waitFor({ timeout: 30000 });
}

test('panel sizes, history and the last expression survive a restart of the host', { timeout: 180000 }, async () => {
  const configDir = mkdtempSync(path.join(tmpdir(), 'platynui-e2e-settings-'));
  try {
    const first = await launchInspector(env, { args: ['--provider', 'mock'], configDir });
    let firstUrl: string;
    let resized: number;
    try {
      const page = first.page;
      firstUrl = page.url();
      await opened(page);
      const splitter = page.getByRole('separator', { name: 'Resize tree' });
      const before = Number(await splitter.getAttribute('aria-valuenow'));
      await splitter.focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      resized = before + 30;
      assert.equal(Number(await splitter.getAttribute('aria-valuenow')), resized);
      const editor = page.getByRole('textbox', { name: 'XPath' });
      await editor.focus();
      await page.keyboard.insertText("//Button[@Name='OK']");
      await page
        .getByRole('status')
        .filter({ hasText: /^3 results/ })
        .waitFor({ timeout: 20000 });
      // Saved a moment after the last change; the page's unload saves what is still pending too.
      await page.waitForTimeout(1000);
    } finally {
      await first.close();
    }

    const second = await launchInspector(env, { args: ['--provider', 'mock'], configDir });
    try {
      const page = second.page;
      assert.notEqual(new URL(page.url()).port, new URL(firstUrl).port, 'another port, another origin');
      await opened(page);
      const splitter = page.getByRole('separator', { name: 'Resize tree' });
      assert.equal(Number(await splitter.getAttribute('aria-valuenow')), resized);
      // The console (and its History) loads after the tree is on screen.
      const history = page.getByRole('combobox', { name: 'History' });
      await history
        .getByRole('option', { name: "//Button[@Name='OK']" })
        .waitFor({ state: 'attached', timeout: 30000 });
      assert.deepEqual(await history.getByRole('option').allTextContents(), ['History…', "//Button[@Name='OK']"]);
      await page.locator('.monaco-host .view-lines').filter({ hasText: 'Button' }).waitFor({ timeout: 30000 });
      const lines = await page.locator('.monaco-host .view-lines').textContent();
      assert.equal(lines?.replace(/\u00a0/g, ' '), "//Button[@Name='OK']");
    } finally {
      await second.close();
    }
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
});
