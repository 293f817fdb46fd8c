import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { fixtureUrl, launchChromium, launchGtk3Demo, sessionEnv, tableReadyTitle } from '../../../e2e/support/apps.js';
import { projectRoot } from '../../../e2e/support/paths.js';
import { EXIT_TIMEOUT } from '../exit-codes.js';

// The CLI as a user runs it against a large Chromium page (e2e/fixtures/table.html, about 5 nodes a row) beside
// gtk3-demo: a query that names one application loads only that one, and timeouts end a command while an
// application's tree is still coming in bulk.

const ROWS = 1000;
let page: LaunchedApp;
let demo: LaunchedApp;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function cli(...args: string[]): Run {
  const started = performance.now();
  const run = spawnSync(process.execPath, [path.join(projectRoot(), 'bin', 'platynui-inspector'), ...args], {
    env: sessionEnv(),
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 1 << 28,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, ms: performance.now() - started };
}

/** The `--stats` line of a run. */
function stats(run: Run): { nodesFetched: number; results: number } {
  const line = run.stderr
    .trim()
    .split('\n')
    .findLast((l) => l.startsWith('{"evalMs"'));
  assert.ok(line, `no --stats line in: ${run.stderr}`);
  return JSON.parse(line) as { nodesFetched: number; results: number };
}

/** `//Button[@Name='Find me']` over the whole desktop (run once): loads every application. */
let unscopedRun: Run | undefined;
function unscoped(): Run {
  if (!unscopedRun) {
    unscopedRun = cli('query', "//Button[@Name='Find me']", '--stats');
    assert.equal(unscopedRun.status, 0, unscopedRun.stderr);
    assert.equal(unscopedRun.stdout, 'Button "Find me"\n');
  }
  return unscopedRun;
}

before(async () => {
  [page, demo] = await Promise.all([
    launchChromium(sessionEnv(), fixtureUrl('table.html', { rows: ROWS }), { title: tableReadyTitle(ROWS) }),
    launchGtk3Demo(sessionEnv()),
  ]);
});

after(async () => {
  await Promise.all([page?.stop(), demo?.stop()]);
});

test('a query naming one application anywhere (//app:Application) loads only that application', () => {
  const found = cli('query', "//app:Application[@Name='Chromium']", '--stats');
  assert.equal(found.status, 0, found.stderr);
  // Only the desktop's children: neither application's tree.
  assert.equal(stats(found).results, 1);
  assert.ok(stats(found).nodesFetched < 100, `fetched ${stats(found).nodesFetched} nodes`);

  const small = cli('query', "//app:Application[@Name='gtk3-demo']//*", '--stats');
  assert.equal(small.status, 0, small.stderr);
  const desktop = stats(unscoped()).nodesFetched;
  // The whole desktop holds the page's thousands of nodes; gtk3-demo and the desktop's children are far fewer.
  assert.ok(desktop > ROWS * 4, `${desktop} nodes on the desktop`);
  assert.ok(stats(small).results > 10);
  assert.ok(stats(small).nodesFetched < ROWS, JSON.stringify(stats(small)));

  const button = cli('query', "//app:Application[@Name='Chromium']//Button[@Name='Find me']", '--stats');
  assert.equal(button.status, 0, button.stderr);
  assert.equal(button.stdout, 'Button "Find me"\n');
  // The page, without gtk3-demo.
  assert.ok(
    stats(button).nodesFetched <= desktop - stats(small).nodesFetched + 20,
    `${JSON.stringify(stats(button))}, ${desktop} for the whole desktop`,
  );
});

test('a timeout ends a query and a snapshot while the page comes in bulk, with exit 4 and partial output only', () => {
  const full = unscoped();
  const query = cli('query', "//Button[@Name='Find me']", '--timeout', '50');
  assert.equal(query.status, EXIT_TIMEOUT, `${query.stdout}\n${query.stderr}`);
  assert.match(query.stderr, /did not finish within 50 ms/);
  assert.equal(query.stdout, '');
  // Ended at the timeout, not after the load it interrupted (which the full query waited for).
  assert.ok(
    query.ms < full.ms,
    `timed out after ${Math.round(query.ms)} ms, the full query took ${Math.round(full.ms)} ms`,
  );

  const snapshot = cli(
    'snapshot',
    "app:Application[@Name='Chromium']",
    '--format',
    'text',
    '--attrs',
    'all',
    '--timeout',
    '300',
  );
  assert.equal(snapshot.status, EXIT_TIMEOUT, snapshot.stderr);
  assert.match(snapshot.stderr, /the snapshot did not finish within 300 ms/);
  // What was written before the timeout is a part of the tree, never all of it (each node one line).
  const lines = snapshot.stdout === '' ? 0 : snapshot.stdout.trimEnd().split('\n').length;
  assert.ok(lines < ROWS * 4, `${lines} lines written`);
});
