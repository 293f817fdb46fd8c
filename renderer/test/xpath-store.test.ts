import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDemoTree } from '../api/demo-tree.js';
import { MemoryApi } from '../api/memory-api.js';
import { completionsAt } from '../xpath/language.js';
import { createXPathStore, summaryText } from '../stores/xpath-store.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('typing evaluates after the debounce, once, with count and time', async () => {
  const memory = new MemoryApi(generateDemoTree(30));
  let evaluations = 0;
  const evaluate = memory.evaluate.bind(memory);
  memory.evaluate = (expression, onItems) => {
    evaluations++;
    return evaluate(expression, onItems);
  };
  const xpath = createXPathStore(memory, { debounceMs: 20 });
  xpath.getState().setExpression('//B');
  xpath.getState().setExpression('//Bu');
  xpath.getState().setExpression('//Button');
  await sleep(80);
  assert.equal(evaluations, 1);
  const state = xpath.getState();
  assert.equal(state.status, 'done');
  assert.equal(state.count, 3);
  assert.match(summaryText(state), /^3 results \(\d+ ms\)$/);
  assert.deepEqual(state.history, ['//Button']);
  xpath.setState({ count: 1 });
  assert.match(summaryText(xpath.getState()), /^1 result \(\d+ ms\)$/);
});

test('results stream in batches before the evaluation finishes', async () => {
  const memory = new MemoryApi(generateDemoTree(3000));
  memory.batchDelayMs = 5;
  const xpath = createXPathStore(memory);
  const counts: number[] = [];
  const off = xpath.subscribe((s) => s.status === 'running' && counts.push(s.count));
  await xpath.getState().evaluate('//Row');
  off();
  assert.equal(xpath.getState().count, 1500);
  assert.ok(
    counts.some((c) => c > 0 && c < 1500),
    `saw partial counts: ${counts.slice(0, 5).join(',')}`,
  );
});

test('a syntax error keeps the engine position; Stop cancels a running evaluation', async () => {
  const memory = new MemoryApi(generateDemoTree(3000));
  const xpath = createXPathStore(memory);
  await xpath.getState().evaluate('//Button[?]');
  const state = xpath.getState();
  assert.equal(state.status, 'error');
  assert.equal(state.error?.code, 'xpath-syntax');
  assert.deepEqual(state.error?.position, { line: 1, column: 10, offset: 9 });
  assert.deepEqual(state.history, [], 'failed expressions do not enter the history');

  memory.batchDelayMs = 20;
  const running = xpath.getState().evaluate('//Row');
  await sleep(30);
  assert.equal(xpath.getState().status, 'running');
  xpath.getState().stop();
  await running;
  assert.equal(xpath.getState().status, 'cancelled');
  assert.ok(xpath.getState().count < 1500);
  assert.match(summaryText(xpath.getState()), /^Stopped: /);
});

test('a new evaluation replaces the running one; its late results never mix in', async () => {
  const memory = new MemoryApi(generateDemoTree(3000));
  memory.batchDelayMs = 10;
  const xpath = createXPathStore(memory);
  const first = xpath.getState().evaluate('//Row');
  await sleep(15);
  await xpath.getState().evaluate('//Button');
  await first;
  assert.equal(xpath.getState().count, 3);
  assert.ok(xpath.getState().results.every((r) => r.type === 'node' && r.node.role === 'Button'));
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
