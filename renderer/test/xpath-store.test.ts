// The XPath console's store over the protocol client, against the real dispatcher and XPath engine (mock provider).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { completionsAt } from '../xpath/language.js';
import { createXPathStore, summaryText } from '../stores/xpath-store.js';
import { connectedHost, writeTableTree } from './support/host.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function bigTable(t: { after(fn: () => void | Promise<void>): void }, rows: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-xpath-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return connectedHost(t, { mockFile: writeTableTree(dir, rows) });
}

test('typing evaluates after the debounce, once, with count and time', async (t) => {
  const { client } = await connectedHost(t);
  let evaluations = 0;
  const evaluate = client.evaluate.bind(client);
  client.evaluate = (expression, options) => {
    evaluations++;
    return evaluate(expression, options);
  };
  const xpath = createXPathStore(client, { debounceMs: 20 });
  xpath.getState().setExpression('//B');
  xpath.getState().setExpression('//Bu');
  xpath.getState().setExpression('//Button');
  await sleep(60);
  while (xpath.getState().status === 'running') await sleep(10);
  assert.equal(evaluations, 1);
  const state = xpath.getState();
  assert.equal(state.status, 'done');
  assert.equal(state.count, 6);
  assert.deepEqual(
    state.results.map((item) => (item?.type === 'node' ? item.node.name : item?.type)),
    ['OK', 'Save', 'Flaky', 'OK', 'Cancel', 'OK'],
  );
  assert.match(summaryText(state), /^6 results \(\d+ ms\)$/);
  assert.deepEqual(state.history, ['//Button']);
});

test('values and attributes come back typed', async (t) => {
  const { client } = await connectedHost(t);
  const xpath = createXPathStore(client);
  await xpath.getState().evaluate('count(//Button)');
  assert.deepEqual(xpath.getState().results, [{ type: 'value', value: { type: 'Integer', value: 6 } }]);
  assert.match(summaryText(xpath.getState()), /^1 result \(\d+ ms\)$/);
  await xpath.getState().evaluate("//Button[@Name='Save']/@IsEnabled");
  const [item] = xpath.getState().results;
  assert.equal(item?.type, 'attribute');
  assert.deepEqual(item?.type === 'attribute' ? [item.owner.runtimeId, item.value] : [], [
    'mock:button-save',
    { type: 'Bool', value: false },
  ]);
});

test('results come a page at a time: the count and the first page with the answer, other pages as asked for', async (t) => {
  const { client } = await bigTable(t, 20_000);
  const pages: number[] = [];
  const evaluationPage = client.evaluationPage;
  client.evaluationPage = (id, offset, limit) => {
    pages.push(offset);
    return evaluationPage(id, offset, limit);
  };
  let streamed = 0;
  client.on('evaluation.items', (event) => (streamed += event.items.length));
  const xpath = createXPathStore(client);
  await xpath.getState().evaluate('//Row');
  const loaded = () => xpath.getState().results.filter((item) => item !== undefined).length;
  assert.equal(xpath.getState().status, 'done');
  assert.equal(xpath.getState().count, 20_000);
  assert.equal(xpath.getState().results.length, 20_000);
  assert.equal(loaded(), 500, 'only the first page came');
  assert.equal(streamed, 0, 'nothing streams to a paged evaluation');
  const name = (index: number) => {
    const item = xpath.getState().results[index];
    return item?.type === 'node' ? item.node.name : undefined;
  };
  assert.equal(name(499), 'Row 499');
  assert.equal(name(500), undefined);

  // The list scrolled to rows 10,490-10,520: the two pages that hold them, each asked for once.
  await Promise.all([xpath.getState().loadRange(10_490, 10_520), xpath.getState().loadRange(10_495, 10_505)]);
  assert.deepEqual(pages, [10_000, 10_500]);
  assert.equal(name(10_490), 'Row 10490');
  assert.equal(name(10_999), 'Row 10999');
  assert.equal(loaded(), 1500);
  await xpath.getState().loadRange(0, 100);
  assert.equal(pages.length, 2, 'a page already here is not asked for again');
});

test("Highlight all outlines every result from the host's copy; pages of an evaluation no longer kept are refused", async (t) => {
  const { client } = await connectedHost(t);
  const xpath = createXPathStore(client);
  await xpath.getState().evaluate('//Button');
  const id = xpath.getState().evaluationId!;
  const all = await client.highlight({ evaluationId: id });
  const ids = xpath.getState().results.map((item) => (item?.type === 'node' ? item.node.runtimeId : ''));
  const named = await client.highlight({ runtimeIds: ids });
  assert.equal(all.rects.length, 6);
  assert.deepEqual(all.rects, named.rects);

  for (const query of ['//Window', '//Pane', '//Edit', '//Slider']) await xpath.getState().evaluate(query);
  await assert.rejects(client.evaluationPage(id, 0), /no results kept for evaluation/);
});

test("a syntax error keeps the engine's position and stays out of the history", async (t) => {
  const { client } = await connectedHost(t);
  const xpath = createXPathStore(client);
  await xpath.getState().evaluate('//Button[?]');
  const state = xpath.getState();
  assert.equal(state.status, 'error');
  assert.equal(state.error?.code, 'xpath-syntax');
  assert.equal(state.error?.position?.line, 1);
  assert.ok((state.error?.position?.column ?? 0) >= 9, JSON.stringify(state.error));
  assert.deepEqual(state.history, []);
});

test('Stop cancels a running evaluation; a new one replaces it and its late results never mix in', async (t) => {
  const { client } = await bigTable(t, 20_000);
  const xpath = createXPathStore(client);
  const slow = 'for $i in 1 to 3000000 return $i * 2';
  const running = xpath.getState().evaluate(slow);
  await sleep(50);
  assert.equal(xpath.getState().status, 'running');
  xpath.getState().stop();
  await running;
  assert.equal(xpath.getState().status, 'cancelled');
  assert.match(summaryText(xpath.getState()), /^Stopped: /);

  const first = xpath.getState().evaluate('//Row');
  await xpath.getState().evaluate("//Table[@Name='Rows']");
  await first;
  assert.equal(xpath.getState().status, 'done');
  assert.equal(xpath.getState().count, 1);
  assert.ok(xpath.getState().results.every((r) => r?.type === 'node' && r.node.role === 'Table'));
});

test('completions: attributes after @, roles of the live tree after /, prefixed roles after a prefix', () => {
  const vocabulary = { roles: ['Button', 'Window', 'item:ListItem'], attributes: ['Name', 'IsEnabled'] };
  const at = completionsAt('//Button[@', 10, vocabulary);
  assert.deepEqual(
    at.map((c) => c.label),
    ['IsEnabled', 'Name'],
  );
  const step = completionsAt('//', 2, vocabulary).map((c) => c.label);
  assert.ok(step.includes('Button') && step.includes('descendant::') && step.includes('item:'));
  const prefixed = completionsAt('//item:Li', 9, vocabulary).map((c) => c.label);
  assert.deepEqual(prefixed, ['item:ListItem']);
  const start = completionsAt('', 0, vocabulary).map((c) => c.label);
  assert.ok(start.includes('count()') && start.includes('for'));
});
