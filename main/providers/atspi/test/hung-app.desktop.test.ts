// A hung application (SIGSTOP) through the CLI, started as a child process the way a user runs it: `snapshot` and
// `query '//*'` of the whole desktop exit 0, name the application on stderr and show it with what the bus and /proc
// know, marked IsResponding=false and without children, while every other application is complete; the command
// takes at most twice the per-call timeout longer than without the hung application; after SIGCONT it is back.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { launchGtk3Demo, launchPythonGtkApp } from '../../../../e2e/support/apps.js';
import { projectRoot } from '../../../../e2e/support/paths.js';
import { DEFAULT_CALL_TIMEOUT_MS } from '../../../dbus/dbus-client.js';
import { waitFor } from './support.js';

const bin = path.join(projectRoot(), 'bin/platynui-inspector');

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function cli(...args: string[]): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args, '--provider', 'atspi'], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: performance.now() - started });
    });
  });
}

interface JsonNode {
  role?: string;
  attributes?: { [name: string]: unknown };
  children?: JsonNode[];
}

/** The application nodes of a JSON query answer, with the attributes the query wrote. */
function applications(run: CliRun): JsonNode[] {
  const items = JSON.parse(run.stdout) as Array<{ type: string; node?: JsonNode } & JsonNode>;
  return items.map((item) => item.node ?? item);
}

const count = async (xpath: string) => {
  const run = await cli('query', `count(${xpath})`);
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout.trim());
};

test('a hung application: snapshot and query exit 0, name it, show it not responding and childless; it recovers', async (t) => {
  const other = await launchGtk3Demo(process.env);
  const hung = await launchPythonGtkApp('gtk3-probe.py', process.env);
  const hungApp = `//app:Application[@ProcessId=${hung.pid}]`;
  const otherApp = `//app:Application[@ProcessId=${other.pid}]`;
  try {
    const baselines = [await cli('snapshot'), await cli('snapshot')];
    for (const run of baselines) assert.equal(run.status, 0, run.stderr);
    const baselineMs = Math.max(...baselines.map((run) => run.ms));
    const noiseMs = Math.abs((baselines[0] as CliRun).ms - (baselines[1] as CliRun).ms);
    assert.ok((await count(`${hungApp}//*`)) > 3, 'the probe has a window, a label and buttons');
    const otherNodes = await count(`${otherApp}//*`);
    assert.ok(otherNodes > 10);

    hung.pause();
    const snapshot = await cli('snapshot');
    assert.equal(snapshot.status, 0, snapshot.stderr);
    const named = new RegExp(`warning: atspi: not responding: gtk3-probe \\(:\\d+\\.\\d+, pid ${hung.pid}\\)`);
    assert.match(snapshot.stderr, named);
    // Shown with what the bus and /proc know, marked, without children; the others as always.
    const element = new RegExp(`<app:Application Name="gtk3-probe"[^>]*IsResponding="false"[^>]*/>`);
    assert.match(snapshot.stdout, element);
    assert.equal((snapshot.stdout.match(/IsResponding="false"/g) ?? []).length, 1);
    assert.match(snapshot.stdout, /<app:Application Name="gtk3-demo"[^>]*IsResponding="true"[^>]*>/);
    const extraMs = snapshot.ms - baselineMs;
    t.diagnostic(
      `snapshot ${Math.round(baselineMs)} ms, with the hung application ${Math.round(snapshot.ms)} ms ` +
        `(+${Math.round(extraMs)} ms; baseline spread ${Math.round(noiseMs)} ms; per-call timeout ${DEFAULT_CALL_TIMEOUT_MS} ms)`,
    );
    assert.ok(
      extraMs <= 2 * DEFAULT_CALL_TIMEOUT_MS + noiseMs,
      `+${Math.round(extraMs)} ms over ${Math.round(baselineMs)} ms (spread ${Math.round(noiseMs)} ms)`,
    );

    const all = await cli('query', '//*', '--format', 'json', '--attrs', 'default');
    assert.equal(all.status, 0, all.stderr);
    assert.match(all.stderr, named);
    const listed = applications(all).filter((node) => node.role === 'app:Application' || node.role === 'Application');
    const marked = listed.filter((node) => node.attributes?.IsResponding === false);
    assert.equal(marked.length, 1, JSON.stringify(listed.map((node) => node.attributes)));
    assert.equal(marked[0]?.attributes?.Name, 'gtk3-probe');
    assert.equal(await count(`${hungApp}/*`), 0);
    assert.equal(await count(`${otherApp}//*`), otherNodes, 'the other application is complete');

    hung.resume();
    await waitFor(
      'the application to answer again',
      async () => ((await count(`${hungApp}//*`)) > 3 ? true : undefined),
      20_000,
    );
    const recovered = await cli('snapshot');
    assert.equal(recovered.status, 0, recovered.stderr);
    assert.doesNotMatch(recovered.stderr, /not responding/);
    assert.doesNotMatch(recovered.stdout, /IsResponding="false"/);
  } finally {
    hung.resume();
    await hung.stop();
    await other.stop();
  }
});
