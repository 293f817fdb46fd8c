// The inspector UI in Debian's Chromium (playwright-core) against the browser host with the mock provider and a
// generated snapshot of 100,000 rows (--mock-file): time from starting the host to the first tree rows on screen,
// time to expand the 100,000-row table, and frame times while scrolling it, against idle frames of the same page as
// the baseline. Prints `name value unit` lines and ratios.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROWS = 100_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What the inspector page exposes for tests and benchmarks (renderer/main.tsx). */
interface InspectorWindow {
  __inspector?: { firstTreeMs?: number; stores: { tree: { getState(): { rows: unknown[] } } } };
}

function line(name: string, value: number, unit: string): void {
  process.stdout.write(`${name} ${Math.round(value * 100) / 100} ${unit}\n`);
}

function generateSnapshot(rows: number): string {
  const out: string[] = [
    '<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app" xmlns:item="urn:platynui:item">',
    '<app:Application Name="Big" RuntimeId="big:app" ProcessId="4242">',
    '<Window Name="Big table" RuntimeId="big:window" Bounds=\'{"x":0,"y":0,"width":800,"height":600}\' IsVisible="true" IsEnabled="true">',
    '<Table Name="Rows" RuntimeId="big:table">',
  ];
  for (let i = 0; i < rows; i++) out.push(`<item:ListItem Name="Row ${i}" RuntimeId="big:row-${i}"/>`);
  out.push('</Table></Window></app:Application></snapshot>');
  return out.join('\n');
}

function startHost(mockFile: string): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin/platynui-inspector'), 'serve', '--port', '0', '--no-open', '--mock-file', mockFile],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let text = '';
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => (text += d));
    child.stdout!.on('data', (d: string) => {
      text += d;
      const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(text)?.[0];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
  });
}

function stats(samples: number[]): { p50: number; p95: number; max: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    p50: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1] ?? 0,
    mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length),
  };
}

const dir = mkdtempSync(path.join(tmpdir(), 'platynui-ui-bench-'));
const mockFile = path.join(dir, 'big.xml');
writeFileSync(mockFile, generateSnapshot(ROWS));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
  env: { ...process.env, DISPLAY: '', DBUS_SESSION_BUS_ADDRESS: 'disabled:' } as { [key: string]: string },
});
let host: ChildProcess | undefined;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const started = performance.now();
  const { url, child } = await startHost(mockFile);
  host = child;
  const hostReady = performance.now() - started;
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.firstTree === 'ready', undefined, {
    timeout: 60000,
  });
  const firstTree = performance.now() - started;
  const inPage = await page.evaluate(() => (window as unknown as InspectorWindow).__inspector?.firstTreeMs ?? -1);
  line('ui.host_start_to_url', hostReady, 'ms');
  line('ui.start_to_first_tree', firstTree, 'ms');
  line('ui.page_to_first_tree', inPage, 'ms');

  // Expand the application, its window and the 100,000-row table with the keyboard.
  const expandStarted = performance.now();
  await page.getByRole('treeitem', { name: 'app:Application "Big"', exact: true }).click();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('treeitem', { name: 'Window "Big table"', exact: true }).click();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('treeitem', { name: 'Table "Rows"', exact: true }).click();
  const tableClicked = performance.now();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    (n) => ((window as unknown as InspectorWindow).__inspector?.stores.tree.getState().rows.length ?? 0) >= n,
    ROWS + 4,
    {
      timeout: 120000,
    },
  );
  await page.getByRole('treeitem', { name: 'item:ListItem "Row 0"', exact: true }).waitFor();
  const expanded = performance.now();
  line('ui.expand_path_to_table', tableClicked - expandStarted, 'ms');
  line('ui.expand_100k_rows', expanded - tableClicked, 'ms');
  line(
    'ui.rows',
    await page.evaluate(
      () => (window as unknown as InspectorWindow).__inspector?.stores.tree.getState().rows.length ?? 0,
    ),
    'rows',
  );

  // Frames: idle first (baseline), then scrolling the tree by a page per frame, then by large jumps.
  const frames = (mode: 'idle' | 'page' | 'jump') =>
    page.evaluate(
      ({ mode, count }) =>
        new Promise<{ deltas: number[]; rendered: number }>((resolve) => {
          const tree = document.querySelector('[role=tree]') as HTMLElement;
          const deltas: number[] = [];
          let last = performance.now();
          let i = 0;
          const step = () => {
            const now = performance.now();
            if (i > 0) deltas.push(now - last);
            last = now;
            if (mode === 'page') tree.scrollTop += tree.clientHeight;
            else if (mode === 'jump') tree.scrollTop = ((i * 7919) % 1000) * (tree.scrollHeight / 1000);
            if (++i <= count) requestAnimationFrame(step);
            else resolve({ deltas, rendered: tree.querySelectorAll('[role=treeitem]').length });
          };
          requestAnimationFrame(step);
        }),
      { mode, count: 240 },
    );
  const idle = await frames('idle');
  const paging = await frames('page');
  const jumping = await frames('jump');
  const i = stats(idle.deltas);
  const p = stats(paging.deltas);
  const j = stats(jumping.deltas);
  line('ui.frame_idle_p50', i.p50, 'ms');
  line('ui.frame_idle_p95', i.p95, 'ms');
  line('ui.frame_scroll_page_p50', p.p50, 'ms');
  line('ui.frame_scroll_page_p95', p.p95, 'ms');
  line('ui.frame_scroll_page_max', p.max, 'ms');
  line('ui.frame_scroll_jump_p50', j.p50, 'ms');
  line('ui.frame_scroll_jump_p95', j.p95, 'ms');
  line('ui.frame_scroll_jump_max', j.max, 'ms');
  line('ui.rendered_rows_while_scrolling', paging.rendered, 'rows');
  line('ui.ratio_scroll_page_p95_vs_idle_p95', p.p95 / Math.max(0.001, i.p95), 'x');
  line('ui.ratio_scroll_jump_p95_vs_idle_p95', j.p95 / Math.max(0.001, i.p95), 'x');

  // Keyboard: End on 100,000 rows (selection, scroll to the last row).
  const endStarted = performance.now();
  await page.getByRole('tree').focus();
  await page.keyboard.press('End');
  await page.getByRole('treeitem', { name: `item:ListItem "Row ${ROWS - 1}"`, exact: true }).waitFor();
  line('ui.key_end_to_last_row', performance.now() - endStarted, 'ms');
} finally {
  await browser.close();
  host?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
