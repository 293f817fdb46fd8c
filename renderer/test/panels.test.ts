// The panels rendered to HTML (react-dom/server) over stores backed by the in-memory API: the accessibility
// contract the e2e tests rely on, grouping and derived marks, the stale refusal shown in place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryApi } from '../api/memory-api.js';
import { StoresContext, type Stores } from '../app-context.js';
import { AttributesPanel } from '../components/AttributesPanel.js';
import { PatternsPanel } from '../components/PatternsPanel.js';
import { StatusBar } from '../components/StatusBar.js';
import { AccessibilityOff } from '../components/AccessibilityOff.js';
import { createDetailsStore } from '../stores/details-store.js';
import { createSessionStore } from '../stores/session-store.js';
import { createSettingsStore } from '../stores/settings-store.js';
import { createTreeStore } from '../stores/tree-store.js';
import { createXPathStore } from '../stores/xpath-store.js';

function stores(): Stores & { memory: MemoryApi } {
  const memory = new MemoryApi({
    id: 'desktop',
    role: 'Desktop',
    name: 'Desktop',
    children: [
      {
        id: 'ok',
        role: 'Button',
        name: 'OK',
        patterns: ['Element', 'Activatable'],
        attributes: { Bounds: { type: 'Rect', value: { x: 1, y: 2, width: 3, height: 4 } } },
      },
    ],
  });
  return {
    memory,
    api: memory,
    tree: createTreeStore(memory),
    details: createDetailsStore(memory),
    xpath: createXPathStore(memory),
    session: createSessionStore(memory, { onReveal: () => undefined }),
    settings: createSettingsStore(undefined),
  };
}

/** Server rendering reads a store's initial state (useSyncExternalStore's server snapshot): show the current one. */
function render(s: Stores, node: ReactNode): string {
  for (const store of [s.tree, s.details, s.xpath, s.session, s.settings] as Array<{
    getInitialState: () => unknown;
    getState: () => unknown;
  }>) {
    store.getInitialState = store.getState;
  }
  return renderToStaticMarkup(createElement(StoresContext.Provider, { value: s }, node));
}

test('the attributes panel is a table named "Attributes", grouped by namespace, derived aliases marked', async () => {
  const s = stores();
  await s.details.getState().show(s.memory.view('ok'));
  const html = render(s, createElement(AttributesPanel));
  assert.match(html, /<table class="attributes" aria-label="Attributes"/);
  assert.match(html, /<th colSpan="4" scope="rowgroup">control<\/th>/i);
  assert.match(
    html,
    /<th scope="row" class="attr-name">Bounds\.X<span class="badge derived-badge"[^>]*>derived<\/span>/,
  );
  assert.match(
    html,
    /<td class="attr-value">\{&quot;x&quot;:1,&quot;y&quot;:2,&quot;width&quot;:3,&quot;height&quot;:4\}<\/td><td class="attr-type">Rect<\/td>/,
  );
  assert.match(html, /aria-sort="ascending"/);
});

test('the patterns panel offers the actions and shows a stale refusal in place', async () => {
  const s = stores();
  await s.details.getState().show(s.memory.view('ok'));
  let html = render(s, createElement(PatternsPanel));
  assert.match(html, /<section class="patterns-panel" aria-label="Patterns">/);
  assert.match(html, /<button type="button">activate<\/button>/);
  s.memory.rename('ok', 'Okay');
  await s.details.getState().perform('activate');
  html = render(s, createElement(PatternsPanel));
  assert.match(html, /class="outcome stale"[^>]*>Refused: Button &quot;Okay&quot; changed since it was shown/);
});

test('the status bar names the provider and the accessibility state; the off page offers the switch', async () => {
  const s = stores();
  s.memory.accessibility = 'off';
  await s.session.getState().connect();
  const bar = render(s, createElement(StatusBar));
  assert.match(bar, /In-memory tree \(ready\) · accessibility off/);
  const off = render(s, createElement(AccessibilityOff, { onEnabled: () => undefined }));
  assert.match(off, /<h1 id="a11y-off-title">Accessibility is switched off<\/h1>/);
  assert.match(off, /<button type="button">Switch accessibility on<\/button>/);
});
