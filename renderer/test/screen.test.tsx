// The Screen panel: its coordinate transforms and key mapping (pure), its store over the real dispatcher on the mock
// platform (capture with the unchanged answer, the hover stack and cycling, interact mode's input in order, boxes),
// and the panel read through its accessible roles: the image named "Screen", a click selecting in the tree.
import './support/dom.js';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { StoresContext } from '../app-context.js';
import { ScreenPanel } from '../components/ScreenPanel.js';
import { SidePane } from '../components/SidePane.js';
import type { MockDevices } from '../../main/platform/mock/mock-platform.js';
import {
  anchoredScroll,
  desktopToView,
  fitZoom,
  keySequence,
  rectToView,
  viewToDesktop,
  zoomStep,
} from '../model/screen-transform.js';
import { CHANGE_WAIT_MS, createScreenStore } from '../stores/screen-store.js';
import type { InspectorClient } from '../../shared/api/client.js';
import { createInspector } from '../stores/wiring.js';
import { connectedHost } from './support/host.js';

afterEach(() => cleanup());

/** A 400x300 desktop with one window holding two buttons, one inside a panel. */
function smallDesktop(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-screen-'));
  const file = path.join(dir, 'desktop.xml');
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>
<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app">
  <Desktop Name="Small" Bounds='{"x":0,"y":0,"width":400,"height":300}'>
    <app:Application Name="Demo" RuntimeId="mock:app" ProcessId="7">
      <Window Name="Demo" RuntimeId="mock:window" Bounds='{"x":0,"y":0,"width":400,"height":300}'>
        <Pane Name="Panel" RuntimeId="mock:pane" Bounds='{"x":50,"y":40,"width":200,"height":100}'>
          <Button Name="Inner" RuntimeId="mock:inner" Bounds='{"x":60,"y":50,"width":80,"height":30}'/>
        </Pane>
        <Button Name="Other" RuntimeId="mock:other" Bounds='{"x":300,"y":200,"width":60,"height":30}'/>
      </Window>
    </app:Application>
  </Desktop>
</snapshot>
`,
  );
  return file;
}

test('desktop, image and view coordinates convert both ways; fit scales uniformly from the top-left', () => {
  const transform = { scale: 0.5, x: -50, y: -25 };
  assert.deepEqual(desktopToView({ x: 100, y: 50 }, transform, 2), { x: 0, y: 0 });
  assert.deepEqual(desktopToView({ x: 300, y: 250 }, transform, 2), { x: 200, y: 200 });
  assert.deepEqual(viewToDesktop({ x: 200, y: 200 }, transform, 2), { x: 300, y: 250 });
  assert.deepEqual(viewToDesktop({ x: 201.9, y: 0.5 }, transform, 2), { x: 301, y: 50 }, 'whole desktop pixels');
  assert.deepEqual(rectToView({ x: 110, y: 60, width: 40, height: 20 }, transform, 2), {
    x: 10,
    y: 10,
    width: 40,
    height: 20,
  });
  assert.equal(fitZoom({ width: 1920, height: 1080 }, { width: 480, height: 600 }), 0.25, 'width decides');
  assert.equal(fitZoom({ width: 1920, height: 1080 }, { width: 4000, height: 540 }), 0.5, 'height decides');
  assert.equal(zoomStep(1, -100), 1.25);
  assert.equal(zoomStep(1, 100), 0.8);
  assert.equal(zoomStep(8, -1), 8, 'zoom stops at its maximum');
  // The content point under the pointer (viewport 100,50 + scroll 0,0 = content 100,50) stays under it at 2x.
  assert.deepEqual(anchoredScroll({ x: 0, y: 0 }, { x: 100, y: 50 }, 1, 2), { x: 100, y: 50 });
});

test('key presses become keyboard sequences: text literally, chords and named keys in brackets', () => {
  const key = (k: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'metaKey' | 'shiftKey', boolean>> = {}) =>
    keySequence({ key: k, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, ...mods });
  assert.equal(key('a'), 'a');
  assert.equal(key('A', { shiftKey: true }), 'A');
  assert.equal(key('<'), '\\<');
  assert.equal(key('Enter'), '<Enter>');
  assert.equal(key('ArrowLeft', { shiftKey: true }), '<Shift+ArrowLeft>');
  assert.equal(key('a', { ctrlKey: true }), '<Ctrl+a>');
  assert.equal(key('+', { ctrlKey: true }), '<Ctrl+PLUS>');
  assert.equal(key(' ', { ctrlKey: true }), '<Ctrl+Space>');
  assert.equal(key('Shift', { shiftKey: true }), undefined, 'a lone modifier rides along with the next key');
});

test('the store captures while visible, skips unchanged screens, hovers the hit-test stack and cycles it', async (t) => {
  const { host, client } = await connectedHost(t, { mockFile: smallDesktop() });
  const screen = createScreenStore(client, { refreshMs: 20 });
  t.after(() => screen.getState().dispose());
  await client.evaluate('//*').done;
  screen.getState().setVisible(true);
  await waitFor(() => assert.ok(screen.getState().image));
  const first = screen.getState().image!;
  assert.deepEqual([first.width, first.height], [400, 300]);
  assert.deepEqual(first.transform, { scale: 1, x: 0, y: 0 });
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(screen.getState().image, first, 'an unchanged screen keeps its image (no new object URL)');
  screen.getState().setVisible(false);

  await screen.getState().hoverAt({ x: 70, y: 60 });
  const hover = screen.getState().hover!;
  assert.deepEqual(
    hover.stack.map((hit) => hit.node.runtimeId),
    ['mock:inner', 'mock:pane', 'mock:window'],
  );
  assert.deepEqual(hover.stack[0]!.bounds, { x: 60, y: 50, width: 80, height: 30 });
  screen.getState().cycle(1);
  assert.equal((await screen.getState().elementAt({ x: 70, y: 60 }))?.node.runtimeId, 'mock:pane');
  screen.getState().cycle(5);
  assert.equal(screen.getState().hover?.depth, 2, 'cycling stops at the window');

  const devices = host.context.runtime.platform as MockDevices;
  devices.takeKeyboardLog();
  await Promise.all([screen.getState().type('a'), screen.getState().type('b'), screen.getState().type('<Enter>')]);
  assert.deepEqual(
    devices.takeKeyboardLog().filter((entry) => entry.startsWith('press')),
    ['press a', 'press b', 'press Enter'],
    'keys arrive in the order they were typed',
  );

  await screen.getState().showMatches(['mock:inner', 'mock:other', 'mock:gone']);
  assert.deepEqual(screen.getState().boxes.matches, [
    { x: 60, y: 50, width: 80, height: 30 },
    { x: 300, y: 200, width: 60, height: 30 },
  ]);
});

test('where the host is told of screen changes the store long-polls, and a refresh overtakes a waiting poll', async (t) => {
  type Params = { scale?: number; ifChanged?: string; waitMs?: number };
  const requests: Params[] = [];
  const pending: Array<(digest: string) => void> = [];
  const answer = (digest: string) => ({
    changed: true,
    changeEvents: true,
    waitedMs: 0,
    digest,
    region: { x: 0, y: 0, width: 4, height: 2 },
    width: 4,
    height: 2,
    transform: { scale: 1, x: 0, y: 0 },
    mimeType: 'image/png',
    data: btoa(digest),
  });
  const client = {
    desktop: () => Promise.resolve({ bounds: { x: 0, y: 0, width: 4, height: 2 } }),
    captureScreen: (params: Params) => {
      requests.push(params);
      return new Promise((resolve) => pending.push((digest) => resolve(answer(digest))));
    },
  } as unknown as InspectorClient;
  const screen = createScreenStore(client, { refreshMs: 5000 });
  t.after(() => screen.getState().dispose());
  screen.getState().setVisible(true);
  await waitFor(() => assert.equal(pending.length, 1));
  pending.shift()!('first');
  await waitFor(() => assert.equal(screen.getState().image?.digest, 'first'));
  await waitFor(() => assert.equal(requests.length, 2));
  assert.deepEqual(requests[1], { scale: 1, ifChanged: 'first', waitMs: CHANGE_WAIT_MS }, 'a long poll');
  const waitingPoll = pending.shift()!;
  void screen.getState().refresh();
  await waitFor(() => assert.equal(requests.length, 3));
  assert.deepEqual(requests[2], { scale: 1, ifChanged: 'first', waitMs: 0 }, 'a refresh does not wait');
  pending.shift()!('newer');
  await waitFor(() => assert.equal(screen.getState().image?.digest, 'newer'));
  waitingPoll('older');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(screen.getState().image?.digest, 'newer', 'the poll that was overtaken does not replace the image');
});

test('the Screen tab shows the image named "Screen"; a click on it selects the element in the tree', async (t) => {
  const { client } = await connectedHost(t, { mockFile: smallDesktop() });
  const inspector = createInspector(client);
  t.after(async () => inspector.stop());
  await inspector.start();
  await client.evaluate('//*').done;
  const view = render(
    <StoresContext.Provider value={inspector.stores}>
      <SidePane />
    </StoresContext.Provider>,
  );
  const tab = await view.findByRole('tab', { name: 'Screen' });
  await waitFor(() => assert.equal(tab.hasAttribute('disabled'), false));
  assert.ok(view.getByRole('region', { name: 'Patterns' }), 'the details tab is shown first');
  fireEvent.click(tab);
  await view.findByRole('img', { name: 'Screen' });
  await waitFor(
    () =>
      assert.equal(
        view.getByRole('img', { name: 'Screen' }).tagName,
        'IMG',
        String(inspector.stores.screen.getState().error),
      ),
    { timeout: 5000 },
  );
  const shown = view.getByRole('img', { name: 'Screen' });
  // happy-dom lays nothing out: the image sits at 0,0 and fit is 1, so client coordinates are desktop ones.
  await act(async () => {
    fireEvent.click(shown, { clientX: 310, clientY: 210 });
  });
  await waitFor(() => assert.equal(inspector.stores.tree.getState().selectedId, 'mock:other'));
  await waitFor(() => assert.match(view.getByRole('status').textContent ?? '', /Button "Other" \(1\/\d\)/));
  await waitFor(() =>
    assert.deepEqual(inspector.stores.screen.getState().boxes.selected, { x: 300, y: 200, width: 60, height: 30 }),
  );
  assert.ok(view.container.querySelector('[data-box="selected"]'), 'the selected node is outlined on the screen');
});

test('interact mode sends a click on the screen view to the application instead of selecting', async (t) => {
  const { host, client } = await connectedHost(t, { mockFile: smallDesktop() });
  const inspector = createInspector(client);
  t.after(async () => inspector.stop());
  await inspector.start();
  const view = render(
    <StoresContext.Provider value={inspector.stores}>
      <ScreenPanel />
    </StoresContext.Provider>,
  );
  const image = await waitFor(
    () => {
      const found = view.getByRole('img', { name: 'Screen' });
      assert.equal(found.tagName, 'IMG');
      return found;
    },
    { timeout: 5000 },
  );
  fireEvent.click(view.getByRole('button', { name: 'Interact' }));
  assert.equal(view.getByRole('button', { name: 'Interact' }).getAttribute('aria-pressed'), 'true');
  const devices = host.context.runtime.platform as MockDevices;
  devices.takePointerLog();
  await act(async () => {
    fireEvent.click(image, { clientX: 70, clientY: 60 });
  });
  const sent: string[] = [];
  await waitFor(() => {
    sent.push(...devices.takePointerLog());
    assert.deepEqual(
      sent,
      ['move 70,60', 'press left', 'release left'],
      String(inspector.stores.screen.getState().error),
    );
  });
  assert.equal(inspector.stores.tree.getState().selectedId, undefined, 'nothing was selected');
});
