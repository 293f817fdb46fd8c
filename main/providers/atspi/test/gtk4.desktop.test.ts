// A GTK 4 application (e2e/fixtures/gtk4-notebook.py: a Gtk.Notebook of three pages) against libatspi's own walk:
// GTK 4 lists each page as a panel holding the page's content, and gives that content its index among widget
// siblings (1 under a page with one child); GetChildren skips the page panels. The provider must show what libatspi
// shows, through the provider and through the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchPythonGtkApp, type LaunchedApp } from '../../../../e2e/support/apps.js';
import { projectRoot } from '../../../../e2e/support/paths.js';
import { AtspiProvider } from '../provider.js';
import { applicationOf, assertMatchesLibatspi } from './support.js';

let app: LaunchedApp;
let provider: AtspiProvider;

before(async () => {
  app = await launchPythonGtkApp('gtk4-notebook.py', process.env);
});

after(async () => {
  await provider?.shutdown();
  await app?.stop();
});

async function equalsLibatspi(provider: AtspiProvider): Promise<string> {
  const root = await applicationOf(provider, app.pid);
  const { ours, theirs } = await assertMatchesLibatspi(root, app.pid, app.busName);
  const byId = new Map(ours.map((w) => [w.node.runtimeId, w]));
  // The pages themselves: a panel named "Tab" per page, its content (label and button) inside.
  const pages = theirs.filter((node) => node.role === 'panel' && node.name === 'Tab');
  assert.equal(pages.length, 3);
  for (const page of pages) {
    const mine = byId.get(`atspi://${app.busName}${page.path}`);
    const content = mine?.children[0];
    assert.deepEqual(
      content?.children.map((c) => c.node.name),
      [
        `${['Alpha', 'Beta', 'Gamma'][pages.indexOf(page)]} content`,
        `${['Alpha', 'Beta', 'Gamma'][pages.indexOf(page)]} button`,
      ],
    );
  }
  return root.data.app.loadedBy ?? 'GetChildren';
}

test('GTK 4 notebook, walked lazily: structure, roles, names and states equal libatspi, the pages included', async () => {
  const lazy = await AtspiProvider.create({ bulk: false });
  try {
    assert.equal(await equalsLibatspi(lazy), 'GetChildren');
  } finally {
    await lazy.shutdown();
  }
});

test('GTK 4 notebook through the CLI: each page content sits inside its page panel', () => {
  const bin = path.join(projectRoot(), 'bin/platynui-inspector');
  const application = `//app:Application[@ProcessId=${app.pid}]`;
  for (const name of ['Alpha', 'Beta', 'Gamma']) {
    const query = `count(${application}//*[@Name='Tab'][*/*[@Name='${name} content']])`;
    const run = spawnSync(process.execPath, [bin, 'query', query, '--provider', 'atspi'], {
      env: process.env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), '1', `the ${name} page panel holds its content`);
  }
});

test('GTK 4 notebook from its cache in one call: the same tree as libatspi, the pages included', async () => {
  provider = await AtspiProvider.create();
  // By now the application has made every accessible object, so its cache is complete.
  assert.equal(await equalsLibatspi(provider), 'Cache.GetItems');
});
