// The Screen panel end to end, in a virtual desktop the product starts itself (`serve --virtual-desktop` with
// gtk3-demo and a Chromium page, from an environment without any desktop): the live image named "Screen", a click on
// it selecting in the tree the element the API's hit test names there, hover naming it, and interact mode clicking a
// check box in the Chromium page. The ground truth (Bounds, ToggleState) comes from the same host over its API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type { InspectorClient } from '../../shared/api/client.js';
import type { Rect } from '../../shared/model/values.js';
import { DESKTOP_MARKER } from '../../main/desktop/virtual-desktop.js';
import { chromiumArgs, chromiumExecutable } from '../support/apps.js';
import { connectClient, openInspectorPage, startServe } from '../support/inspector.js';
import { projectRoot } from '../support/paths.js';
import { startWatchdog } from '../support/watchdog.js';

const DESKTOP = { width: 1280, height: 800 };

function noDesktopEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'screen-cfg-')) };
  for (const name of [
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'XAUTHORITY',
    'DBUS_SESSION_BUS_ADDRESS',
    'AT_SPI_BUS_ADDRESS',
    DESKTOP_MARKER,
  ]) {
    delete env[name];
  }
  return env;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** The one node an XPath finds (waiting for the application to show it), with its Bounds. */
async function find(client: InspectorClient, xpath: string): Promise<{ runtimeId: string; bounds: Rect }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ids: string[] = [];
    await client.evaluate(xpath, {
      onItems: (items) => items.forEach((item) => item.type === 'node' && ids.push(item.node.runtimeId)),
    }).done;
    if (ids.length === 1) {
      const [bounds] = (await client.boundsOf(ids)).rects;
      if (bounds && bounds.width > 0) return { runtimeId: ids[0]!, bounds };
    }
    if (Date.now() > deadline) throw new Error(`${xpath} found ${ids.length} nodes`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Where a desktop point is in the page: the Screen image shows the whole desktop, scaled uniformly. */
async function pagePoint(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByRole('img', { name: 'Screen' }).boundingBox())!;
  const zoom = box.width / DESKTOP.width;
  return { x: box.x + x * zoom, y: box.y + y * zoom };
}

const centre = (rect: Rect) => ({ x: Math.round(rect.x + rect.width / 2), y: Math.round(rect.y + rect.height / 2) });

async function selectedRow(page: Page): Promise<string | null> {
  return page.evaluate(
    () => document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') ?? null,
  );
}

test('the Screen panel shows the virtual desktop; clicking it selects, hovering names, interact clicks the application', async () => {
  const profile = mkdtempSync(path.join(tmpdir(), 'screen-chromium-'));
  const fixture = pathToFileURL(path.join(projectRoot(), 'e2e/fixtures/controls.html')).href;
  const chromium = [
    chromiumExecutable(),
    ...chromiumArgs(profile, fixture, { windowSize: { width: 640, height: 800 }, args: ['--window-position=640,0'] }),
  ]
    .map(quote)
    .join(' ');
  const size = `${DESKTOP.width}x${DESKTOP.height}`;
  const { url, host, log } = await startServe(noDesktopEnv(), [
    '--virtual-desktop',
    '--size',
    size,
    '--app',
    'gtk3-demo',
    '--app',
    chromium,
  ]);
  // One run in many hung for 300 s without a word: past this limit the host and the browser are ended, so the step
  // that waits fails, and the test says which step it was.
  const onStuck: Array<() => void> = [() => host.kill('SIGKILL')];
  const watchdog = startWatchdog(90_000, () => onStuck.forEach((end) => end()));
  watchdog.step('open the inspector page');
  const { browser, page } = await openInspectorPage(url);
  onStuck.push(() => void browser.close().catch(() => undefined));
  watchdog.step('connect a client');
  const client = await connectClient(url);
  try {
    watchdog.step('the tree shows gtk3-demo');
    await page
      .getByRole('tree')
      .getByRole('treeitem', { name: 'app:Application "gtk3-demo"', exact: true })
      .waitFor({ timeout: 30_000 });
    watchdog.step('the Screen tab shows a decoded image');
    await page.getByRole('tab', { name: 'Screen' }).click();
    // The element is there before its first capture has decoded (naturalWidth 0 until then).
    await page.waitForFunction(
      () => (document.querySelector<HTMLImageElement>('img[alt="Screen"]')?.naturalWidth ?? 0) > 0,
      undefined,
      { timeout: 20_000 },
    );
    const image = page.getByRole('img', { name: 'Screen' });
    const natural = await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    assert.ok(natural[0]! <= DESKTOP.width, `sent at the scale shown, at most the desktop's size: ${natural}`);
    assert.equal(natural[0]! / natural[1]!, DESKTOP.width / DESKTOP.height, 'the whole desktop');
    const box = (await image.boundingBox())!;
    const panel = (await page.locator('.screen-viewport').boundingBox())!;
    assert.ok(Math.abs(box.x - panel.x) < 1 && Math.abs(box.y - panel.y) < 1, 'from the top-left corner');
    assert.ok(Math.abs(box.width / box.height - DESKTOP.width / DESKTOP.height) < 0.01, 'scaled uniformly');
    assert.ok(box.width <= panel.width + 1 && box.height <= panel.height + 1, 'fit inside the panel');

    for (const xpath of [
      '//app:Application[@Name="gtk3-demo"]//control:Button[@Name="Run"]',
      '//control:CheckBox[@Name="Newsletter"]',
    ]) {
      watchdog.step(`find ${xpath}`);
      const target = await find(client, xpath);
      const point = centre(target.bounds);
      watchdog.step(`hit test and hover ${xpath}`);
      const { stack } = await client.elementAt(point.x, point.y);
      assert.equal(stack[0]?.node.runtimeId, target.runtimeId, `${xpath} is on top at ${point.x},${point.y}`);
      const at = await pagePoint(page, point.x, point.y);
      await page.mouse.move(at.x, at.y);
      const label = (await client.node(target.runtimeId)).name;
      await page.waitForFunction(
        (name) => (document.querySelector('.screen-hover')?.textContent ?? '').includes(`"${name}"`),
        label,
        { timeout: 10_000 },
      );
      watchdog.step(`a click selects ${xpath}`);
      await page.mouse.click(at.x, at.y);
      await page.waitForFunction(
        (name) =>
          (document.querySelector('[role=treeitem][aria-selected=true]')?.getAttribute('aria-label') ?? '').endsWith(
            `"${name}"`,
          ),
        label,
        { timeout: 10_000 },
      );
      assert.match((await selectedRow(page)) ?? '', new RegExp(`(Button|CheckBox) "${label}"$`));
      await page.locator('[data-box="selected"]').waitFor({ timeout: 5000 });
    }

    // Interact: the click reaches the page in the virtual desktop and ticks the check box.
    watchdog.step('interact mode ticks the check box');
    const newsletter = await find(client, '//control:CheckBox[@Name="Newsletter"]');
    const toggle = async () => {
      const { attributes } = await client.attributes(newsletter.runtimeId, { refresh: true });
      const value = attributes.find((entry) => entry.name === 'ToggleState')?.value;
      return value?.type === 'String' ? value.value : JSON.stringify(value);
    };
    assert.equal(await toggle(), 'Off');
    await page.getByRole('button', { name: 'Interact' }).click();
    const at = await pagePoint(page, centre(newsletter.bounds).x, centre(newsletter.bounds).y);
    const shownBefore = await image.getAttribute('src');
    await page.mouse.click(at.x, at.y);
    // The image follows the change on the X server's word (DAMAGE), not a poll: the host says it is told.
    assert.equal((await client.captureScreen({ scale: 0.1 })).changeEvents, true);
    await page.waitForFunction(
      (before) => document.querySelector('img[alt="Screen"]')?.getAttribute('src') !== before,
      shownBefore,
      { timeout: 5000 },
    );
    const deadline = Date.now() + 10_000;
    while ((await toggle()) !== 'On') {
      if (Date.now() > deadline) assert.fail(`the check box was not ticked: ${await toggle()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.match((await selectedRow(page)) ?? '', /CheckBox "Newsletter"$/, 'interact mode selects nothing new');
  } catch (error) {
    const stuck = watchdog.failure();
    throw stuck ? new Error(`${stuck}\n${log()}`, { cause: error }) : error;
  } finally {
    watchdog.step('stop the host');
    client.close();
    await browser.close().catch(() => undefined);
    const running = host.exitCode === null && host.signalCode === null;
    const exited = new Promise((resolve) => (running ? host.once('exit', resolve) : resolve(undefined)));
    host.kill('SIGTERM');
    // A host that does not stop is this test's failure, named with its log, not a hang of the whole run.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 15_000)));
    const stopped = await Promise.race([exited.then(() => true), late]);
    clearTimeout(timer);
    if (!stopped) host.kill('SIGKILL');
    watchdog.stop();
    rmSync(profile, { recursive: true, force: true });
    // After the watchdog, the error thrown above says what happened.
    if (!watchdog.failure()) assert.ok(stopped, `serve did not exit within 15 s of SIGTERM:\n${log()}`);
  }
  assert.doesNotMatch(log(), /unhandled|uncaught/i);
});
