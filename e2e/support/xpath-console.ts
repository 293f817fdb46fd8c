// Driving the inspector page's XPath console in end-to-end tests, through its accessible roles.
import type { Page } from 'playwright-core';

/** Replaces the editor's expression in one input event, as a paste: the debounced evaluation then runs once. */
export async function typeXPath(page: Page, expression: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'XPath' });
  await editor.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // Typing key by key on a loaded machine can let a prefix such as "/" evaluate first.
  await page.keyboard.insertText(expression);
}

/** Waits until the result summary (role="status") matches; fails with what it read last. */
export async function waitForStatus(page: Page, pattern: RegExp, timeoutMs = 20000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = (await page.getByRole('status').textContent()) ?? '';
    if (pattern.test(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the status never matched ${pattern}; last: "${text}"`);
}
