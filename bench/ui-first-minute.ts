// The first minute in the UI (issue 15), the way a new user meets it: `platynui-inspector serve` started freshly for
// every sample on a desktop with a ~10,000-node Chromium page (e2e/fixtures/table.html, 2,000 rows), its page opened
// in an already running Debian Chromium and driven through accessible roles and names (playwright-core). Median of
// 5 samples (--repeat N), the load printed beside every figure:
// - first tree rows: from page.goto to the Chromium application's row in the tree;
// - first XPath answer: from the last keystroke of the first query (typed after the rows appear) to the count shown;
// - "Find locators": from the click to the first locator shown, for a first node and then for a next node;
// - expanding the Chromium application's subtree (about 10,000 nodes) with `*` to its last row rendered (End);
// - a warm query through the API over a 111,111-node tree (`serve --mock-file`, the tree of xpath-fast-path.ts),
//   timed in the page's client from sending `evaluate` to its answer with the first page, against fontoxpath over
//   the same tree in this process (the same query, median of repeated runs).
// Goals: first rows < 1 s, first answer < 1 s, warm query < 1/50 of fontoxpath, locators < 1 s then < 100 ms,
// expanding < 1 s.
//   node dist/bench/ui-first-minute.js [--rows 2000] [--repeat 5] [--warm-only] [--vs <checkout>]
// --vs: also samples another built checkout's host and page, alternating with this one's (which goes first changes
//   each round), and prints its medians and the ratio this/other of each path, taken under the same load.
// Runs inside the desktop session when DISPLAY and DBUS_SESSION_BUS_ADDRESS are set, else starts its own.
// --warm-only: only the warm query (no desktop needed: the mock file's host and a headless page).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { fixtureUrl, launchChromium, tableReadyTitle, type LaunchedApp } from '../e2e/support/apps.js';
import { openInspectorPage, startServe } from '../e2e/support/inspector.js';
import { terminate } from '../e2e/support/processes.js';
import { typeXPath } from '../e2e/support/xpath-console.js';
import { PlainFacade } from '../shared/xpath/plain-facade.js';
import { goal, joinDesktopSession, line, median, numberOption, stringOption } from './_cli.js';
import type { MemNode } from '../shared/xpath/memory-tree.js';
import { generateSnapshotXml, parseSnapshotXml } from './xpath-fast-path.js';

const CHROMIUM_ROW = 'app:Application "Chromium"';
const FIRST_QUERY = "//Button[@Name='Find me']";
const NEXT_NODE_QUERY = "//CheckBox[@Name='Select item 3']";
const WARM_QUERIES: ReadonlyArray<readonly [name: string, xpath: string]> = [
  ['all_buttons', '//Button'],
  ['button_by_name', "//Button[@Name='b111110']"],
];

const LIVE = ['first_rows', 'first_xpath_answer', 'locators_first_node', 'locators_next_node', 'expand_subtree'];
const samples = new Map<string, number[]>();
function addSample(name: string, value: number): void {
  let list = samples.get(name);
  if (!list) samples.set(name, (list = []));
  list.push(value);
}
const med = (name: string) => median(samples.get(name) ?? [Number.NaN]);
const loads: number[] = [];
const noteLoad = () => loads.push(os.loadavg()[0]!);

/** Resolves when the XPath console's summary (its role="status") matches; checked on every frame. */
async function statusMatches(page: Page, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const handle = await page.waitForFunction(
    ({ source, flags }) => {
      const status = document.querySelector('section[aria-label="XPath console"] [role="status"]');
      const text = status?.textContent ?? '';
      return new RegExp(source, flags).test(text) ? text : false;
    },
    { source: pattern.source, flags: pattern.flags },
    { polling: 'raf', timeout: timeoutMs },
  );
  return (await handle.jsonValue()) as string;
}

/** --trace: each API request of the page with the time it was sent and answered (from page.goto), to stderr. */
function traceRequests(page: Page, started: number): void {
  const at = () => Math.round(performance.now() - started);
  page.on('requestfinished', (request) =>
    process.stderr.write(`${at()} ms loaded ${request.url().split('/').pop()}\n`),
  );
  page.on('websocket', (socket) => {
    const methods = new Map<number, string>();
    socket.on('framesent', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { id: number; method: string };
      methods.set(message.id, message.method);
      process.stderr.write(`${at()} ms -> ${message.method} ${message.id}\n`);
    });
    socket.on('framereceived', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { kind: string; id?: number };
      if (message.kind === 'response')
        process.stderr.write(`${at()} ms <- ${methods.get(message.id!)} ${message.id}\n`);
    });
  });
}

/** Picks the query's one result in the console (which reveals and selects it in the tree). */
async function selectByQuery(page: Page, xpath: string): Promise<void> {
  await typeXPath(page, xpath);
  await statusMatches(page, /^1 result /);
  await page.getByRole('listbox', { name: 'Results' }).getByRole('option').first().click();
  await page.getByRole('treeitem', { selected: true }).waitFor();
}

/** Clicks "Find locators" and resolves with the time to the first locator shown. */
async function findLocators(page: Page): Promise<number> {
  const list = page.getByRole('list', { name: 'Locators' });
  const started = performance.now();
  await page.getByRole('button', { name: 'Find locators' }).click();
  await list.getByRole('listitem').first().waitFor({ timeout: 120_000 });
  return performance.now() - started;
}

/** One fresh host on the live desktop and a fresh tab: the user's first minute. */
async function liveSample(browser: Browser, env: NodeJS.ProcessEnv, other?: string): Promise<void> {
  const add = other ? (name: string, value: number) => addSample(`vs.${name}`, value) : addSample;
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'ui-first-minute-'));
  const { url, host } = await startServe(
    { ...env, XDG_CONFIG_HOME: configDir },
    ['--provider', 'atspi'],
    ...(other ? [other] : []),
  );
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    noteLoad();
    const started = performance.now();
    if (process.argv.includes('--trace')) traceRequests(page, started);
    await page.goto(url);
    await page.getByRole('treeitem', { name: CHROMIUM_ROW, exact: true }).waitFor({ timeout: 60_000 });
    add('first_rows', performance.now() - started);

    // The first query, typed once the rows are there (the editor may still be loading: waiting for it is the
    // user's time before the keystroke, not part of the answer).
    await page.getByRole('textbox', { name: 'XPath' }).waitFor({ timeout: 60_000 });
    const typed = performance.now();
    await typeXPath(page, FIRST_QUERY);
    await statusMatches(page, /^1 result /);
    add('first_xpath_answer', performance.now() - typed);

    await page.getByRole('listbox', { name: 'Results' }).getByRole('option').first().click();
    await page.getByRole('treeitem', { selected: true }).waitFor();
    add('locators_first_node', await findLocators(page));
    await selectByQuery(page, NEXT_NODE_QUERY);
    add('locators_next_node', await findLocators(page));

    // Expand all below the application (`*` on its row), then End: the last row of the subtree rendered.
    const app = page.getByRole('treeitem', { name: CHROMIUM_ROW, exact: true });
    await app.click();
    await page.getByRole('treeitem', { name: CHROMIUM_ROW, selected: true }).waitFor();
    const collapsedRows = await page.evaluate(() =>
      Number(/^(\d+) rows/.exec(document.querySelector('.tree-footer span')?.textContent ?? '')?.[1] ?? 0),
    );
    const expandStarted = performance.now();
    await page.keyboard.press('*');
    // Done when the tree has grown and is no longer busy (aria-busy on the tree while expand-all runs).
    const rows = await page.waitForFunction(
      (initial) => {
        const footer = document.querySelector('.tree-footer span')?.textContent ?? '';
        const count = Number(/^(\d+) rows/.exec(footer)?.[1] ?? 0);
        const busy = document.querySelector('[role="tree"][aria-busy="true"], [role="treeitem"][aria-busy="true"]');
        return count > initial && !busy ? count : false;
      },
      collapsedRows,
      { polling: 'raf', timeout: 120_000 },
    );
    await page.keyboard.press('End');
    const last = await page.waitForFunction(
      () => {
        const selected = document.querySelector('[role="treeitem"][aria-selected="true"]');
        const index = Number(selected?.id.replace('treeitem-', '') ?? -1);
        const footer = document.querySelector('.tree-footer span')?.textContent ?? '';
        const count = Number(/^(\d+) rows/.exec(footer)?.[1] ?? 0);
        return index === count - 1 ? index : false;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    add('expand_subtree', performance.now() - expandStarted);
    add('expand_subtree_rows', Number(await rows.jsonValue()));
    void last;
  } finally {
    await context.close().catch(() => undefined);
    if (host.pid !== undefined) await terminate([host.pid], 5000);
    rmSync(configDir, { recursive: true, force: true });
  }
}

/** In the page: one `evaluate` from sending to its answer with the first page (the first 500 items). */
async function warmQuery(page: Page, xpath: string): Promise<{ ms: number; count: number; firstPage: number }> {
  return page.evaluate(
    async ({ query, timeoutMs }) => {
      interface Answer {
        count: number;
        items?: unknown[];
      }
      interface Client {
        evaluate(
          xpath: string,
          options: { pageSize?: number; timeoutMs?: number; onItems?: (items: unknown[]) => void },
        ): { done: Promise<Answer> };
      }
      const client = (window as unknown as { __inspector: { stores: { client: Client } } }).__inspector.stores.client;
      let streamed = 0;
      const started = performance.now();
      const answer = await client.evaluate(query, {
        pageSize: 500,
        timeoutMs,
        onItems: (items) => (streamed += items.length),
      }).done;
      const ms = performance.now() - started;
      return { ms, count: answer.count, firstPage: answer.items?.length ?? streamed };
    },
    { query: xpath, timeoutMs: 300_000 },
  );
}

/** fontoxpath over the same tree in this process: the median of repeated runs after one warm-up. */
function fontoxpathMs(facade: PlainFacade<MemNode>, root: MemNode, xpath: string): number {
  facade.evaluate(xpath, root);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    facade.evaluate(xpath, root);
    times.push(performance.now() - started);
  }
  return median(times);
}

async function warmSamples(browser: Browser, env: NodeJS.ProcessEnv, repeat: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ui-first-minute-tree-'));
  const xml = generateSnapshotXml();
  const file = path.join(dir, 'tree.xml');
  writeFileSync(file, xml);
  const tree = parseSnapshotXml(xml);
  const facade = new PlainFacade(tree);
  const { url, host } = await startServe({ ...env, XDG_CONFIG_HOME: dir }, ['--mock-file', file]);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('treeitem', { name: 'Window "w"', exact: true }).waitFor({ timeout: 60_000 });
    for (const [name, xpath] of WARM_QUERIES) {
      await warmQuery(page, xpath); // the first query of a tree generation brings the tree to the worker
      for (let i = 0; i < repeat; i++) {
        noteLoad();
        const { ms, count, firstPage } = await warmQuery(page, xpath);
        addSample(`warm.${name}`, ms);
        addSample(`warm.${name}.count`, count);
        addSample(`warm.${name}.first_page`, firstPage);
      }
      noteLoad();
      addSample(`warm.${name}.fontoxpath`, fontoxpathMs(facade, tree.root, xpath));
    }
  } finally {
    await context.close().catch(() => undefined);
    if (host.pid !== undefined) await terminate([host.pid], 5000);
    rmSync(dir, { recursive: true, force: true });
  }
}

function printWarm(): void {
  for (const [name] of WARM_QUERIES) {
    line(`api.warm.${name}`, med(`warm.${name}`), 'ms');
    line(`api.warm.${name}.count`, med(`warm.${name}.count`), 'items');
    line(`api.warm.${name}.first_page`, med(`warm.${name}.first_page`), 'items');
    line(`api.warm.${name}.fontoxpath`, med(`warm.${name}.fontoxpath`), 'ms');
    line(`api.warm.${name}.ratio`, med(`warm.${name}.fontoxpath`) / med(`warm.${name}`), 'x');
  }
}

function warmGoals(): void {
  for (const [name] of WARM_QUERIES) {
    const ratio = med(`warm.${name}.fontoxpath`) / med(`warm.${name}`);
    goal(`warm ${name} under 1/50 of fontoxpath`, ratio >= 50, `${ratio.toFixed(1)}x`);
  }
}

function printLoads(): void {
  line('load.median', median(loads), 'load');
  line('load.max', Math.max(...loads), 'load');
}

/** --warm-only: the warm query alone, in a headless page. */
async function warmOnly(repeat: number): Promise<void> {
  const { browser } = await openInspectorPage('about:blank');
  try {
    await warmSamples(browser, process.env, repeat);
  } finally {
    await browser.close().catch(() => undefined);
  }
  process.stdout.write(`# ui-first-minute --warm-only: ${repeat} samples each, medians\n`);
  printLoads();
  printWarm();
  warmGoals();
}

async function main(): Promise<void> {
  const rows = numberOption('--rows', 2000);
  const repeat = numberOption('--repeat', 5);
  if (process.argv.includes('--warm-only')) return warmOnly(repeat);
  const stopSession = await joinDesktopSession();
  let app: LaunchedApp | undefined;
  let browser: Browser | undefined;
  try {
    app = await launchChromium(process.env, fixtureUrl('table.html', { rows }), { title: tableReadyTitle(rows) });
    // The user's browser, already running: a blank page opened once.
    const opened = await openInspectorPage('about:blank');
    browser = opened.browser;
    const other = stringOption('--vs');
    const lastSample = (prefix: string) =>
      `${LIVE.map(
        (name) =>
          `${name} ${samples
            .get(prefix + name)!
            .at(-1)!
            .toFixed(1)}`,
      ).join(', ')}, load ${loads.at(-1)!.toFixed(2)}`;
    for (let round = 0; round < repeat; round++) {
      const otherFirst = other !== undefined && round % 2 === 1;
      if (otherFirst) await liveSample(browser, process.env, other);
      await liveSample(browser, process.env);
      process.stdout.write(`# sample ${round + 1}: ${lastSample('')}\n`);
      if (other && !otherFirst) await liveSample(browser, process.env, other);
      if (other) process.stdout.write(`# sample ${round + 1} of ${other}: ${lastSample('vs.')}\n`);
    }
    await warmSamples(browser, process.env, repeat);

    process.stdout.write(`# ui-first-minute: ${repeat} samples each, medians; table.html with ${rows} rows\n`);
    printLoads();
    for (const name of LIVE) line(`ui.${name}`, med(name), 'ms');
    line('ui.expand_subtree_rows', med('expand_subtree_rows'), 'rows');
    if (other) {
      process.stdout.write(`# --vs ${other}: its medians, and this build's over its (same rounds, alternating)\n`);
      for (const name of LIVE) line(`vs.${name}`, med(`vs.${name}`), 'ms');
      for (const name of LIVE) line(`ratio.${name}`, med(name) / med(`vs.${name}`), 'x');
    }
    printWarm();
    goal('first tree rows < 1 s', med('first_rows') < 1000, `${med('first_rows').toFixed(1)} ms`);
    goal('first XPath answer < 1 s', med('first_xpath_answer') < 1000, `${med('first_xpath_answer').toFixed(1)} ms`);
    warmGoals();
    goal(
      'Find locators first node < 1 s',
      med('locators_first_node') < 1000,
      `${med('locators_first_node').toFixed(1)} ms`,
    );
    goal(
      'Find locators next node < 100 ms',
      med('locators_next_node') < 100,
      `${med('locators_next_node').toFixed(1)} ms`,
    );
    goal('expanding the subtree < 1 s', med('expand_subtree') < 1000, `${med('expand_subtree').toFixed(1)} ms`);
  } finally {
    await browser?.close().catch(() => undefined);
    await app?.stop();
    await stopSession?.();
  }
}

await main();
