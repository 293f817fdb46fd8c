import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { launchPythonGtkApp, sessionEnv } from '../../../e2e/support/apps.js';
import { projectRoot } from '../../../e2e/support/paths.js';
import type { UiEventNode, UiEventRecord } from '../../../shared/model/ui-events.js';
import { DESKTOP_RUNTIME_ID } from '../../core/provider.js';
import { AtspiProvider } from '../../providers/atspi/provider.js';

// `watch` as a user runs it: the CLI as a child process against a real GTK 3 application
// (e2e/fixtures/gtk3-events.py), changed by real input through the CLI; each event must name the node that
// `query` finds for the same element.

const bin = path.join(projectRoot(), 'bin', 'platynui-inspector');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SECRET = 'hunter2-typed';

let app: LaunchedApp;

before(async () => {
  app = await launchPythonGtkApp('gtk3-events.py', sessionEnv());
});

after(async () => {
  await app?.stop();
});

function ok(args: string[]): string {
  const run = spawnSync(process.execPath, [bin, ...args], { env: sessionEnv(), encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** The runtime id `query` reports for the one element an XPath selects. */
function runtimeIdOf(xpath: string): string {
  const items = JSON.parse(ok(['query', xpath, '--format', 'json', '--attrs', 'none'])) as Array<{ runtimeId: string }>;
  assert.equal(items.length, 1, `${xpath} selects one element`);
  return items[0]!.runtimeId;
}

interface Watching {
  child: ChildProcess;
  records: UiEventRecord[];
  stdout(): string;
  until(accept: (record: UiEventRecord) => boolean, what: string): Promise<UiEventRecord>;
  stop(): Promise<number | null>;
}

async function startWatch(args: string[]): Promise<Watching> {
  const child = spawn(process.execPath, [bin, 'watch', ...args, '--format', 'json'], {
    env: sessionEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const records: UiEventRecord[] = [];
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    out += chunk;
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    for (const line of lines) records.push(JSON.parse(line) as UiEventRecord);
  });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: string) => {
      err += chunk;
      if (err.includes('press Ctrl-C to stop')) resolve();
    });
    void exited.then(() => reject(new Error(`watch ended before it watched: ${err}`)));
  });
  return {
    child,
    records,
    stdout: () => JSON.stringify(records) + out,
    until: async (accept, what) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = records.find(accept);
        if (found) return found;
        if (Date.now() > deadline) {
          assert.fail(`${what}: not among ${records.length} events: ${JSON.stringify(records.slice(-20))}`);
        }
        await sleep(50);
      }
    },
    stop: async () => {
      child.kill('SIGINT');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** The fixture application: its events and its descendants' only. */
const appScope = () => `/app:Application[@ProcessId=${app.pid}]`;

test('watch sees a click that renames a button, a toggled check box, typed text and an opened window', async () => {
  const scope = appScope();
  const watching = await startWatch([scope]);
  try {
    const button = runtimeIdOf(`${scope}//Button[@Name='Rename me']`);
    ok(['pointer', 'click', `${scope}//Button[@Name='Rename me']`]);
    const renamed = await watching.until(
      (r) => r.type === 'name-changed' && r.runtimeId === button,
      'the button renamed',
    );
    assert.deepEqual([renamed.role, renamed.name, renamed.detail], ['Button', 'Renamed', { name: 'Renamed' }]);

    const checkBox = runtimeIdOf(`${scope}//CheckBox[@Name='Option']`);
    ok(['pointer', 'click', `${scope}//CheckBox[@Name='Option']`]);
    const checked = await watching.until(
      (r) => r.type === 'state-changed' && r.runtimeId === checkBox && r.detail.state === 'checked',
      'the check box checked',
    );
    assert.deepEqual([checked.role, checked.name, checked.detail.value], ['CheckBox', 'Option', true]);

    const field = runtimeIdOf(`${scope}//Text[@Name='Typing field']`);
    ok(['focus', `${scope}//Text[@Name='Typing field']`]);
    ok(['keyboard', 'type', 'abc']);
    const typed = await watching.until(
      (r) => r.type === 'text-changed' && r.runtimeId === field && r.detail.text === 'c',
      'the typed text',
    );
    assert.deepEqual(
      [typed.role, typed.name, typed.detail],
      ['Text', 'Typing field', { change: 'insert', position: 2, length: 1, text: 'c' }],
    );

    ok(['pointer', 'click', `${scope}//Button[@Name='Open window']`]);
    const opened = await watching.until(
      (r) => r.type === 'window-opened' && r.name === 'Second window',
      'the second window opened (found under the application once the XPath was evaluated again)',
    );
    assert.equal(opened.runtimeId, runtimeIdOf(`${scope}/Frame[@Name='Second window']`));
    assert.equal(opened.role, 'Frame');
    for (const record of watching.records) assert.match(record.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  } finally {
    assert.equal(await watching.stop(), 0, 'Ctrl-C ends watch with exit 0');
  }
});

test('watch --expression prints the results at the start and again after each change', async () => {
  const scope = appScope();
  const checked = `count(${scope}//CheckBox[@Name='Option' and @ToggleState='On'])`;
  const watching = await startWatch([scope, '--events', 'state-changed', '--expression', checked]);
  try {
    type ExpressionLine = { type: string; expression: string; results: unknown[] };
    const lines = () => watching.records as unknown as ExpressionLine[];
    const first = (await watching.until((r) => r.type === ('expression' as string), 'the results at the start')) as
      ExpressionLine | UiEventRecord;
    assert.equal(lines()[0], first, 'the results come before any event');
    assert.equal((first as ExpressionLine).expression, checked);
    ok(['pointer', 'click', `${scope}//CheckBox[@Name='Option']`]);
    const before = JSON.stringify((first as ExpressionLine).results);
    await watching.until(
      (r) => r.type === ('expression' as string) && JSON.stringify((r as unknown as ExpressionLine).results) !== before,
      'the results again, changed, after the check box was clicked',
    );
    await watching.until((r) => r.type === 'state-changed', 'the event that made it evaluate again');
  } finally {
    assert.equal(await watching.stop(), 0);
  }
});

test('an application coming and going is a children-changed of the desktop, naming the application', async () => {
  const watching = await startWatch(['--events', 'children-changed']);
  let second: LaunchedApp | undefined = await launchPythonGtkApp('gtk3-events.py', sessionEnv());
  const childOf = (record: UiEventRecord) => record.detail.child as UiEventNode | null | undefined;
  try {
    const appId = runtimeIdOf(`/app:Application[@ProcessId=${second.pid}]`);
    const added = await watching.until(
      (r) => r.runtimeId === DESKTOP_RUNTIME_ID && r.detail.change === 'added' && childOf(r)?.runtimeId === appId,
      'the application added to the desktop',
    );
    assert.equal(added.role, 'Desktop');
    assert.equal(childOf(added)?.role, 'Application');
    await second.stop();
    second = undefined;
    await watching.until(
      (r) => r.runtimeId === DESKTOP_RUNTIME_ID && r.detail.change === 'removed' && childOf(r)?.runtimeId === appId,
      'the application removed from the desktop',
    );
  } finally {
    await second?.stop();
    assert.equal(await watching.stop(), 0);
  }
});

test('text typed into a password field is reported without the text', async () => {
  const scope = appScope();
  const watching = await startWatch([scope, '--events', 'text-changed,name-changed,value-changed']);
  try {
    const secret = runtimeIdOf(`${scope}//PasswordText[@Name='Secret field']`);
    ok(['focus', `${scope}//PasswordText[@Name='Secret field']`]);
    ok(['keyboard', 'type', SECRET]);
    const inserted = await watching.until(
      (r) => r.type === 'text-changed' && r.runtimeId === secret && r.detail.position === SECRET.length - 1,
      'the last character typed into the password field',
    );
    assert.deepEqual(
      [inserted.role, inserted.detail],
      ['PasswordText', { change: 'insert', position: SECRET.length - 1, length: 1, secure: true }],
    );
    assert.ok(watching.records.every((r) => (r.runtimeId === secret ? r.detail.secure === true : true)));
    assert.ok(!watching.stdout().includes(SECRET.slice(0, 7)), 'the typed text appears in no event');
    assert.ok(
      watching.records.every((r) => r.type === 'text-changed'),
      `only the kinds asked for: ${[...new Set(watching.records.map((r) => r.type))].join(', ')}`,
    );
  } finally {
    assert.equal(await watching.stop(), 0);
  }
});

test('AT-SPI events the tree does not need are registered only while someone watches their kind', async () => {
  const provider = await AtspiProvider.create();
  const registered = async () => {
    const [events] = await provider.client.call({
      destination: 'org.a11y.atspi.Registry',
      path: '/org/a11y/atspi/registry',
      interface: 'org.a11y.atspi.Registry',
      member: 'GetRegisteredEvents',
    });
    // The registry keeps them in its own spelling: object:text-changed is Object:TextChanged:.
    return (events as Array<[string, string]>)
      .filter(([owner]) => owner === provider.client.uniqueName)
      .map(([, event]) => event)
      .sort();
  };
  const TEXT = 'Object:TextChanged:';
  const BOUNDS = 'Object:BoundsChanged:';
  try {
    assert.ok((await registered()).includes('Object:StateChanged:'), "the tree's own events are registered");
    assert.ok(!(await registered()).includes(TEXT), 'not registered before anyone watches');
    const stopText = provider.watchUiEvents(new Set(['text-changed', 'focus']), () => undefined);
    const stopBoth = provider.watchUiEvents(new Set(['text-changed', 'bounds-changed']), () => undefined);
    await eventually(registered, (events) => events.includes(TEXT) && events.includes(BOUNDS));
    stopBoth();
    await eventually(registered, (events) => !events.includes(BOUNDS));
    assert.ok((await registered()).includes(TEXT), 'still watched by the first watcher');
    stopText();
    await eventually(registered, (events) => !events.includes(TEXT));
    assert.ok((await registered()).includes('Object:StateChanged:'), "the tree's own events stay registered");
  } finally {
    await provider.shutdown();
  }
});

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (accept(value)) return;
    if (Date.now() > deadline) assert.fail(`still ${JSON.stringify(value)}`);
    await sleep(50);
  }
}
