import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import {
  CONTROLS_READY_TITLE,
  FIXTURE_PASSWORD,
  fixtureUrl,
  launchChromium,
  launchGtk3Demo,
  sessionEnv,
} from '../../../e2e/support/apps.js';
import { startMcpClient, textOf, type McpClient } from '../../../e2e/support/mcp-client.js';
import type { NodeItem } from '../node-items.js';
import { UNTRUSTED_TAG } from '../untrusted.js';

// `platynui-inspector mcp` driven by the MCP SDK's own client over stdio, against a real gtk3-demo and a Chromium page.

let chromium: LaunchedApp;
let gtk: LaunchedApp;
let mcp: McpClient;
/** Every text and structured answer of the context, to prove the password never left. */
const seen: string[] = [];

before(async () => {
  const env = sessionEnv();
  [chromium, gtk] = await Promise.all([
    launchChromium(env, fixtureUrl('controls.html'), { title: CONTROLS_READY_TITLE }),
    launchGtk3Demo(env),
  ]);
  mcp = await startMcpClient([], env);
});

after(async () => {
  await mcp?.close();
  await Promise.all([chromium?.stop(), gtk?.stop()]);
});

async function call(name: string, args: { [key: string]: unknown } = {}): Promise<CallToolResult> {
  const result = await mcp.call(name, args);
  seen.push(textOf(result), JSON.stringify(result.structuredContent ?? null));
  return result;
}

function structured<T>(result: CallToolResult): T {
  assert.ok(!result.isError, `the call succeeded: ${textOf(result)}`);
  assert.ok(result.structuredContent, 'structured content');
  return result.structuredContent as T;
}

function errorOf(result: CallToolResult): { code: string; message: string; retryAfterMs?: number } {
  assert.equal(result.isError, true, `the call failed: ${textOf(result)}`);
  return (result.structuredContent as { error: { code: string; message: string; retryAfterMs?: number } }).error;
}

async function only(xpath: string): Promise<NodeItem> {
  const { items } = structured<{ items: NodeItem[] }>(await call('ui_query', { xpath }));
  assert.equal(items.length, 1, `${xpath} selects one node`);
  return items[0]!;
}

const page = () => `app:Application[@ProcessId=${chromium.pid}]`;

test('the server lists its six tools, each with an input schema', async () => {
  const { tools } = await mcp.client.listTools();
  const names = tools.map((tool) => tool.name).sort();
  assert.deepEqual(names, ['ui_act', 'ui_locate', 'ui_query', 'ui_screenshot', 'ui_tree', 'ui_wait']);
  for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', tool.name);
  const act = tools.find((tool) => tool.name === 'ui_act')!;
  assert.deepEqual([...(act.inputSchema.required ?? [])].sort(), ['action', 'id', 'revision']);
});

test('ui_tree reads the desktop with both applications, lines and nested items agreeing, under its caps', async () => {
  const result = await call('ui_tree', { maxNodes: 40, maxDepth: 3 });
  const { items, nodes, truncated } = structured<{
    items: Array<NodeItem & { children: NodeItem[] }>;
    nodes: number;
    truncated: boolean;
  }>(result);
  const text = textOf(result);
  assert.ok(nodes <= 40 && truncated, 'the node cap cut the tree');
  assert.match(text, /… \d+ more/);
  assert.ok(text.includes(`<${UNTRUSTED_TAG}>`), 'application text is wrapped');
  const root = items[0]!;
  assert.equal(root.role, 'Desktop');
  const applications = root.children.filter((child) => child.role === 'app:Application').map((child) => child.name);
  assert.ok(applications.includes('gtk3-demo') && applications.includes('Chromium'), applications.join(', '));
  for (const child of root.children) assert.ok(text.includes(`${child.id} r${child.revision} ${child.role}`), child.id);
});

test('gtk3-demo: find a demo in the list, click it through ui_act, and the window shows that demo', async () => {
  const app = `app:Application[@ProcessId=${gtk.pid}]`;
  const window = await only(`${app}/*`);
  const cells = structured<{ items: NodeItem[] }>(
    await call('ui_query', { xpath: `${app}//TreeTable/item:TableCell`, maxResults: 200 }),
  ).items;
  // A demo of its own (not a group that expands), on screen, not the one shown now.
  const target = cells.filter(
    (cell) =>
      !cell.states.includes('selected') &&
      !cell.states.includes('collapsed') &&
      !cell.states.includes('expanded') &&
      cell.bounds !== null &&
      cell.bounds.y > 0,
  )[2];
  assert.ok(target, 'gtk3-demo lists demos');
  const acted = structured<{ id: string; reacted: boolean; item: NodeItem }>(
    await call('ui_act', { id: target.id, revision: target.revision, action: { action: 'click' } }),
  );
  assert.equal(acted.id, target.id);
  assert.equal(acted.reacted, true, 'the application reacted');
  assert.ok(acted.item.states.includes('selected'), `the clicked demo is selected: ${acted.item.states.join(',')}`);
  const waited = structured<{ met: boolean; items: NodeItem[] }>(
    await call('ui_wait', { xpath: `${app}/*[@Name != ${JSON.stringify(window.name)}]`, timeoutMs: 10_000 }),
  );
  assert.equal(waited.met, true, `the window is no longer titled ${window.name}`);
});

test('Chromium: a button clicked through ui_act changes the page, and the old revision is refused as stale', async () => {
  const button = await only(`${page()}//Button[@Name='Add item']`);
  const list = await only(`${page()}//List[@Name='Dynamic items']`);
  const acted = structured<{ revision: number; reacted: boolean; settledMs: number; item: NodeItem }>(
    await call('ui_act', { id: button.id, revision: button.revision, action: { action: 'click' } }),
  );
  assert.equal(acted.reacted, true);
  assert.ok(acted.settledMs < 2100, `answered within the reaction limit (${acted.settledMs} ms)`);
  assert.equal(acted.item.id, button.id);
  const waited = structured<{ met: boolean; items: NodeItem[] }>(
    await call('ui_wait', { xpath: `${page()}//*[@Name='Items: 2']`, timeoutMs: 10_000 }),
  );
  assert.equal(waited.met, true, 'the status says two items');
  // The list got a child: its revision moved on, and an action naming the revision read before is refused.
  const listNow = await only(`${page()}//List[@Name='Dynamic items']`);
  assert.equal(listNow.id, list.id, 'the list keeps its id');
  assert.ok(listNow.revision > list.revision, 'the list changed');
  const stale = errorOf(await call('ui_act', { id: list.id, revision: list.revision, action: { action: 'focus' } }));
  assert.equal(stale.code, 'stale-node');
  assert.match(stale.message, new RegExp(`revision ${list.revision}, now ${listNow.revision}`));
});

test('scroll_into_view brings a button below the fold of its scroll box into view; an element without it is refused', async () => {
  const box = await only(`${page()}//*[@Name='Scroll box']`);
  const far = await only(`${page()}//Button[@Name='Far button']`);
  assert.ok(box.bounds && far.bounds, 'both have bounds');
  const boxBottom = box.bounds.y + box.bounds.height;
  assert.ok(far.bounds.y >= boxBottom, `the button starts below the box (${far.bounds.y} >= ${boxBottom})`);
  const acted = structured<{ item: NodeItem }>(
    await call('ui_act', { id: far.id, revision: far.revision, action: { action: 'scroll_into_view' } }),
  );
  const moved = acted.item.bounds!;
  const again = await only(`${page()}//Button[@Name='Far button']`);
  assert.ok(
    moved.y >= box.bounds.y && moved.y + moved.height <= boxBottom,
    `inside the box now: ${JSON.stringify({ box: box.bounds, before: far.bounds, moved, again: again.bounds, acted })}`,
  );
  const application = await only(page());
  const refused = errorOf(
    await call('ui_act', {
      id: application.id,
      revision: application.revision,
      action: { action: 'scroll_into_view' },
    }),
  );
  assert.equal(refused.code, 'unsupported');
  assert.match(refused.message, /scrollIntoView/);
});

test('the password field is never revealed: <secure> in the tree, typing refused, nothing anywhere', async () => {
  const password = await only(`${page()}//*[@IsSecure=true()]`);
  assert.ok(password.states.includes('secure'));
  const tree = textOf(await call('ui_tree', { id: password.id }));
  assert.match(tree, /value=<secure>/);
  const refused = errorOf(
    await call('ui_act', { id: password.id, revision: password.revision, action: { action: 'type_text', text: 'x' } }),
  );
  assert.equal(refused.code, 'secure-field');
  await call('ui_locate', { id: password.id });
  await call('ui_query', { xpath: `${page()}//*[@IsSecure=true()]/@*` });
  await call('ui_tree', { maxNodes: 5000, maxDepth: 100 });
  const resource = await mcp.client.readResource({ uri: 'ui://tree.json' });
  seen.push(JSON.stringify(resource));
  const all = seen.join('\n');
  assert.ok(!all.includes(FIXTURE_PASSWORD), 'the password never left the server');
  assert.ok(!mcp.stderr().includes(FIXTURE_PASSWORD), 'nor reached its log');
});

test('ui_locate gives verified locators and code; the best one finds the same node', async () => {
  const button = await only(`${page()}//Button[@Name='Remove item']`);
  const located = structured<{
    locators: Array<{ xpath: string }>;
    code: { robot: string; python: string; dogtail: string };
  }>(await call('ui_locate', { id: button.id }));
  assert.ok(located.locators.length > 0);
  assert.equal((await only(located.locators[0]!.xpath)).id, button.id);
  for (const code of Object.values(located.code)) assert.ok(code.includes('Remove item'), code);
});

test('ui_screenshot returns a PNG of an element and of the desktop within the size bound', async () => {
  const button = await only(`${page()}//Button[@Name='Add item']`);
  const element = await call('ui_screenshot', { id: button.id });
  const shot = structured<{ width: number; height: number; scale: number }>(element);
  const image = element.content.find((part) => part.type === 'image');
  assert.ok(image && image.type === 'image' && image.mimeType === 'image/png');
  assert.equal(Buffer.from(image.data, 'base64').subarray(1, 4).toString('latin1'), 'PNG');
  assert.ok(shot.width > 10 && shot.height > 5 && shot.scale === 1);
  const desktop = structured<{ width: number; height: number; scale: number }>(
    await call('ui_screenshot', { scope: 'desktop', maxSide: 64 }),
  );
  assert.ok(desktop.width <= 64 && desktop.height <= 64 && desktop.scale < 1);
});

test('a subscribed client hears of tree changes, at most once a second', async () => {
  const updates: number[] = [];
  mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void updates.push(performance.now()));
  const { resources } = await mcp.client.listResources();
  assert.deepEqual(resources.map((resource) => resource.uri).sort(), ['ui://tree', 'ui://tree.json']);
  await mcp.client.subscribeResource({ uri: 'ui://tree' });
  for (let i = 0; i < 3; i++) {
    const button = await only(`${page()}//Button[@Name='Add item']`);
    structured(await call('ui_act', { id: button.id, revision: button.revision, action: { action: 'click' } }));
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.ok(updates.length >= 1, 'notified');
  for (let i = 1; i < updates.length; i++) assert.ok(updates[i]! - updates[i - 1]! >= 900, 'coalesced to one a second');
  const text = await mcp.client.readResource({ uri: 'ui://tree' });
  assert.ok(String((text.contents[0] as { text: string }).text).startsWith(`<${UNTRUSTED_TAG}>`));
  await mcp.client.unsubscribeResource({ uri: 'ui://tree' });
});

test('bad input gets a clear error naming what and where', async () => {
  const unknown = errorOf(await call('ui_act', { id: 'e999999', revision: 0, action: { action: 'click' } }));
  assert.equal(unknown.code, 'invalid-input');
  assert.match(unknown.message, /no node has the id "e999999"/);
  const wrongType = await call('ui_act', { id: 'e1', revision: 'one', action: { action: 'fly' } });
  assert.equal(wrongType.isError, true);
  assert.match(textOf(wrongType), /revision/);
  assert.match(textOf(wrongType), /action\.action/);
  const syntax = errorOf(await call('ui_query', { xpath: '//Button[' }));
  assert.equal(syntax.code, 'xpath-syntax');
  assert.match(syntax.message, /column \d+/);
  const key = await only(`${page()}//Button[@Name='OK']`);
  const badKey = errorOf(
    await call('ui_act', { id: key.id, revision: key.revision, action: { action: 'press_key', key: '<Ctrl+S>' } }),
  );
  assert.equal(badKey.code, 'invalid-input');
  assert.equal(mcp.transportErrors.length, 0, `stdout carried only the protocol: ${mcp.transportErrors.join('; ')}`);
});

test('actions past the rate limit are refused with rate-limited and retryAfterMs', async () => {
  const limited = await startMcpClient(['--actions-per-second', '2'], sessionEnv());
  try {
    const { items } = (await limited.call('ui_query', { xpath: `${page()}//Button[@Name='OK']` }))
      .structuredContent as { items: NodeItem[] };
    const ok = items[0]!;
    const results = await Promise.all(
      [0, 1, 2, 3].map(() => limited.call('ui_act', { id: ok.id, revision: ok.revision, action: { action: 'focus' } })),
    );
    const refused = results.filter((result) => result.isError && errorOf(result).code === 'rate-limited');
    assert.equal(refused.length, 2, results.map(textOf).join('\n'));
    for (const result of refused) {
      const { retryAfterMs } = errorOf(result);
      assert.ok(retryAfterMs !== undefined && retryAfterMs > 0 && retryAfterMs <= 1000, String(retryAfterMs));
    }
  } finally {
    await limited.close();
  }
});
