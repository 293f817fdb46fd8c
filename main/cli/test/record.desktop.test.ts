import '../../backends/linux.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Point } from '../../../shared/model/values.js';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { fixtureUrl, launchChromium, launchPythonGtkApp, sessionEnv } from '../../../e2e/support/apps.js';
import { snapshotWithoutGeometry } from '../../../e2e/support/gtk3-demo-flow.js';
import { projectRoot } from '../../../e2e/support/paths.js';
import { renderRecording } from '../../../shared/recording/export.js';
import type { RecordedStep } from '../../../shared/recording/steps.js';
import { KeyboardController } from '../../runtime/input/keyboard.js';
import { PointerController } from '../../runtime/input/pointer.js';
import { Runtime } from '../../runtime/runtime.js';
import { actionPointOf } from '../../services/bounds.js';
import { Recorder } from '../../services/recorder.js';
import { XPathService } from '../../xpath/xpath-service.js';

// Recording against real applications: a flow driven by XTest on a python3-gi form (e2e/fixtures/gtk3-recorder-form.py)
// is recorded, exported as a shell script of this CLI and as dogtail, and each export replays against a freshly started
// form to the same end state: the form's snapshot (default attributes, geometry left out) read through AT-SPI.
// The password typed is never in any script. A colour list (e2e/fixtures/gtk3-colour-list.py) records Down in a list
// as a select step and Tab as a focus step, and replays likewise; so do Down in a GTK 3 tree view
// (e2e/fixtures/gtk3-tree-list.py) and in Chromium's listboxes (e2e/fixtures/listbox.html), which announce a
// selection on the list as a whole (selection-changed) as well as on its items.

const bin = path.join(projectRoot(), 'bin', 'platynui-inspector');
const FORM = "//Frame[@Name='Recorder form']";
const PASSWORD = 'Pa<ss> w0rd\\';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the CLI without blocking this process: the recorder runs here, and a synchronous child would hold its event
 * loop, so the accessibility events of a key would be read (and timed) only after the child ended.
 */
async function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: sessionEnv(), timeout: 60_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
}

/** The string an XPath expression gives, as `query` prints it (empty while the application cannot answer yet). */
async function queryText(expression: string): Promise<string> {
  return (await cli(['query', expression])).stdout.trim();
}

/** Like queryText, for an application that is up: a failed query fails the test with its error. */
async function labelText(expression: string): Promise<string> {
  const run = await cli(['query', expression]);
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

const status = (description: string) => labelText(`string(${FORM}//Label[@Description='${description}']/@Name)`);

async function eventually(
  read: () => Promise<string>,
  expected: string,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value === expected) return;
    if (Date.now() > deadline)
      assert.fail(`${what}: still ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`);
    await sleep(200);
  }
}

/** The form's end state as a user would compare it: its snapshot with the default attributes, geometry left out. */
function endState(): string {
  return snapshotWithoutGeometry(sessionEnv(), FORM);
}

interface FlowInput {
  pointer: PointerController;
  keyboard: KeyboardController;
}

/**
 * Records a flow driven by real input (XTest): `locate` finds the points it needs before recording starts (through
 * `at`, an element's action point, in a runtime of its own, so the recording starts knowing nothing of the tree, as
 * the record command does), `drive` acts; resolves with the recorded steps.
 */
async function recordFlow<T>(
  locate: (at: (expression: string) => Promise<Point>) => Promise<T>,
  drive: (input: FlowInput, points: T) => Promise<void>,
): Promise<RecordedStep[]> {
  const points = await withRuntime((runtime, xpath) =>
    locate(async (expression) => {
      const { items } = await xpath.evaluate(expression);
      const node = items.flatMap((item) => (item.type === 'node' ? [item.node] : []))[0];
      assert.ok(node, expression);
      return actionPointOf(node);
    }),
  );
  return withRuntime(async (runtime, xpath) => {
    const input = {
      pointer: new PointerController(runtime.platform!.pointer!),
      keyboard: new KeyboardController(runtime.platform!.keyboard!),
    };
    const recorder = await Recorder.start(runtime, xpath);
    await drive(input, points);
    return recorder.stop();
  });
}

async function withRuntime<T>(use: (runtime: Runtime, xpath: XPathService) => Promise<T>): Promise<T> {
  const runtime = await Runtime.create({ providers: ['atspi'] });
  const xpath = new XPathService(runtime);
  try {
    return await use(runtime, xpath);
  } finally {
    await xpath.close();
    await runtime.shutdown();
  }
}

/** Writes the recording's script in the format (CLI shell script or dogtail) and runs it; fails with its stderr. */
function replay(format: 'cli' | 'dogtail', steps: readonly RecordedStep[], env: NodeJS.ProcessEnv = {}): void {
  const script = path.join(dir, format === 'cli' ? 'flow.sh' : 'flow.py');
  writeFileSync(script, renderRecording(format, steps));
  const run =
    format === 'cli'
      ? spawnSync('sh', [script], {
          env: { ...sessionEnv(), PLATYNUI_INSPECTOR: bin, ...env },
          encoding: 'utf8',
          timeout: 240_000,
        })
      : spawnSync('/usr/bin/python3', [script], {
          env: { ...sessionEnv(), ...env },
          encoding: 'utf8',
          timeout: 120_000,
        });
  assert.equal(run.status, 0, run.stderr);
}

const EXPECTED_STATUS = `submitted Ada Lovelace (${PASSWORD.length} characters) subscribed`;

let form: LaunchedApp | undefined;
let dir: string;

async function freshForm(): Promise<void> {
  await form?.stop();
  form = await launchPythonGtkApp('gtk3-recorder-form.py', sessionEnv(), { args: ['240', '160'] });
  await eventually(() => queryText(`count(${FORM}//Button[@Name='Submit'])`), '1', 'the form');
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'record-desktop-'));
  await freshForm();
});

after(async () => {
  await form?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('record: a flow on a real GTK form replays from its exports (desktop)', () => {
  let steps: RecordedStep[] = [];
  let recordedState = '';

  test('records clicks, a double click, typing per field and the password as a variable', async () => {
    steps = await recordFlow(
      async (at) => ({
        name: await at(`${FORM}//Text[@Name='Name']`),
        password: await at(`${FORM}//PasswordText[@Name='Password']`),
        subscribe: await at(`${FORM}//CheckBox[@Name='Subscribe']`),
        add: await at(`${FORM}//Button[@Name='Add']`),
        submit: await at(`${FORM}//Button[@Name='Submit']`),
      }),
      async ({ pointer, keyboard }, points) => {
        await pointer.click(points.name);
        await keyboard.type('Ada Lovelace');
        await pointer.click(points.password);
        await keyboard.type(PASSWORD.replace(/[\\<>]/g, (ch) => `\\${ch}`));
        await pointer.click(points.subscribe);
        await pointer.multiClick(points.add, 'left', 2);
        await pointer.click(points.submit);
        await eventually(() => status('submit-status'), EXPECTED_STATUS, 'the recorded flow');
      },
    );
    assert.deepEqual(
      steps.map((step) => [step.action.kind, step.target.role, step.target.name]),
      [
        ['click', 'Text', 'Name'],
        ['type', 'Text', 'Name'],
        ['click', 'PasswordText', 'Password'],
        ['type', 'PasswordText', 'Password'],
        ['click', 'CheckBox', 'Subscribe'],
        ['click', 'Button', 'Add'],
        ['click', 'Button', 'Submit'],
      ],
    );
    assert.deepEqual(steps[1]!.action, { kind: 'type', parts: [{ kind: 'text', text: 'Ada Lovelace' }] });
    assert.deepEqual(steps[3]!.action, { kind: 'type', parts: [{ kind: 'secret', variable: 'PASSWORD_1' }] });
    assert.deepEqual(steps[5]!.action, { kind: 'click', button: 'left', count: 2 });
    for (const step of steps) assert.ok(step.target.locators.length > 0, `${step.target.name}: a verified locator`);
    assert.equal(await status('count-status'), 'count 2');
    recordedState = endState();
    assert.match(recordedState, /Ada Lovelace/);
    for (const format of ['robot', 'python', 'dogtail', 'cli'] as const) {
      assert.ok(!renderRecording(format, steps).includes('w0rd'), `${format}: no password`);
    }
  });

  test('the shell script of CLI commands replays against a fresh form to the same end state', async () => {
    assert.ok(steps.length > 0, 'the recording test ran');
    await freshForm();
    replay('cli', steps, { PASSWORD_1: PASSWORD });
    await eventually(() => status('submit-status'), EXPECTED_STATUS, 'the replayed flow');
    assert.equal(endState(), recordedState);
  });

  test('the dogtail script replays against a fresh form to the same end state', async () => {
    assert.ok(steps.length > 0, 'the recording test ran');
    await freshForm();
    replay('dogtail', steps, { PASSWORD_1: PASSWORD });
    await eventually(() => status('submit-status'), EXPECTED_STATUS, 'the replayed flow');
    assert.equal(endState(), recordedState);
  });

  test('the record command writes the script when SIGTERM stops it', async () => {
    await freshForm();
    const output = path.join(dir, 'recorded.sh');
    const child = spawn(process.execPath, [bin, 'record', '--format', 'cli', '--output', output], {
      env: sessionEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!stderr.includes('recording (RECORD)')) {
      assert.ok(Date.now() < deadline && child.exitCode === null, `record did not start: ${stderr}`);
      await sleep(100);
    }
    assert.equal((await cli(['pointer', 'click', `${FORM}//Button[@Name='Add']`])).status, 0);
    while (!stderr.includes('recorded 1: click Button "Add"')) {
      assert.ok(Date.now() < deadline, `no step announced: ${stderr}`);
      await sleep(100);
    }
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `${output}\n`);
    assert.match(readFileSync(output, 'utf8'), /"\$PLATYNUI" pointer click '.*Button\[@Name='\\''Add'\\''\]'\n/);
  });
});

// Selections by keyboard: Down in a GTK 3 list box right after a click on a row, and Down after Tab into a list whose
// rows the tree had not loaded, are select steps on the row reached (GTK 3 announces no row's selection: the row the
// key focused is selected now); a click on a row stays a click on the element under the pointer, which selects the
// row again when replayed.
describe('record: a colour list flow with focus and select steps replays from its exports (desktop)', () => {
  const LIST = "//Frame[@Name='Colour list']";
  let list: LaunchedApp | undefined;
  let steps: RecordedStep[] = [];
  let recordedState = '';

  const label = (description: string) => labelText(`string(${LIST}//Label[@Description='${description}']/@Name)`);
  const selections = async () => `${await label('selection-status')}|${await label('size-status')}`;
  const entries = async () =>
    `${await queryText(`string(${LIST}//Text[@Name='Note']/@Text)`)}|${await queryText(`string(${LIST}//Text[@Name='Remark']/@Text)`)}`;
  const END_SELECTIONS = 'selected Green|size Medium';

  async function freshList(): Promise<void> {
    await list?.stop();
    list = await launchPythonGtkApp('gtk3-colour-list.py', sessionEnv(), { args: ['700', '120'] });
    await eventually(() => queryText(`count(${LIST}//item:ListItem)`), '7', 'the colour list');
  }

  after(async () => list?.stop());

  test('records a click on a row, Down as a select step, Tab into a list as a focus step, Down there, typing', async () => {
    await freshList();
    steps = await recordFlow(
      async (at) => ({
        red: await at(`${LIST}//item:ListItem[@Name='Red']`),
        note: await at(`${LIST}//Text[@Name='Note']`),
        remark: await at(`${LIST}//Text[@Name='Remark']`),
      }),
      async ({ pointer, keyboard }, points) => {
        await pointer.click(points.red);
        await eventually(() => label('selection-status'), 'selected Red', 'the click');
        await keyboard.type('<Down>');
        await eventually(() => label('selection-status'), 'selected Green', 'Down');
        await pointer.click(points.note);
        await sleep(600);
        await keyboard.type('ok');
        await sleep(600);
        await pointer.click(points.remark);
        await sleep(600);
        await keyboard.type('fine');
        await sleep(600);
        await keyboard.type('<Tab>');
        await eventually(() => label('size-status'), 'size Small', 'Tab into the sizes');
        await keyboard.type('<Down>');
        await eventually(selections, END_SELECTIONS, 'Down in the sizes');
        await pointer.click(points.note);
        await sleep(600);
        await eventually(entries, 'ok|fine', 'the typing');
      },
    );
    assert.deepEqual(
      steps.map((step) => [step.action.kind, step.target.role, step.target.name]),
      [
        ['click', 'Label', 'Red'], // the deepest element at the point
        ['select', 'ListItem', 'Green'],
        ['click', 'Text', 'Note'],
        ['type', 'Text', 'Note'],
        ['click', 'Text', 'Remark'],
        ['type', 'Text', 'Remark'],
        ['focus', 'ListItem', 'Small'], // a row the tree had not loaded (the clicks loaded the colours and entries)
        ['select', 'ListItem', 'Medium'],
        ['click', 'Text', 'Note'],
      ],
    );
    for (const step of steps) assert.ok(step.target.locators.length > 0, `${step.target.name}: a verified locator`);
    recordedState = snapshotWithoutGeometry(sessionEnv(), LIST);
    assert.match(recordedState, /selected Green/);
    assert.match(recordedState, /size Medium/);
  });

  for (const format of ['cli', 'dogtail'] as const) {
    test(`the ${format === 'cli' ? 'shell script of CLI commands' : 'dogtail script'} replays against a fresh list to the same end state`, async () => {
      assert.ok(steps.length > 0, 'the recording test ran');
      await freshList();
      replay(format, steps);
      await eventually(entries, 'ok|fine', 'the replayed typing');
      assert.equal(await selections(), END_SELECTIONS);
      assert.equal(snapshotWithoutGeometry(sessionEnv(), LIST), recordedState);
    });
  }
});

/** Types each key in turn and waits until `read` shows what the key should have done. */
async function typeAndSee(
  keyboard: KeyboardController,
  read: () => Promise<string>,
  keys: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  for (const [key, expected] of keys) {
    await keyboard.type(key);
    await eventually(read, expected, key);
  }
}

/** The recorded steps as the tests compare them: kind, role and name of each. */
const summary = (steps: readonly RecordedStep[]) =>
  steps.map((step) => [step.action.kind, step.target.role, step.target.name]);

// Down, Down in a GTK 3 tree view after Tab into it: one select step on the row reached, read from the tree view's
// selection (its SelectedItems) or the row's own events, whichever came; it replays to the same selected row.
describe('record: Down in a GTK 3 tree view is a select step that replays (desktop)', () => {
  const WINDOW = "//Frame[@Name='Fruit list']";
  let app: LaunchedApp | undefined;
  let steps: RecordedStep[] = [];

  const fruit = () => queryText(`string(${WINDOW}//Label[@Description='fruit-status']/@Name)`);
  const selectedRows = () =>
    queryText(`string-join(${WINDOW}//Table[@Name='Fruits']/item:TableCell[@IsSelected = true()]/@Name, ',')`);

  async function freshTree(): Promise<void> {
    await app?.stop();
    app = await launchPythonGtkApp('gtk3-tree-list.py', sessionEnv(), { args: ['700', '160'] });
    await eventually(() => queryText(`count(${WINDOW}//Text[@Name='Before'])`), '1', 'the tree');
  }

  after(async () => app?.stop());

  test('records Tab into the tree as a focus step and Down, Down as one select step on Cherry', async () => {
    await freshTree();
    steps = await recordFlow(
      async (at) => ({ before: await at(`${WINDOW}//Text[@Name='Before']`) }),
      async ({ pointer, keyboard }, points) => {
        await pointer.click(points.before);
        await sleep(600);
        await typeAndSee(keyboard, fruit, [
          ['<Tab>', 'fruit Apple'],
          ['<Down>', 'fruit Banana'],
          ['<Down>', 'fruit Cherry'],
        ]);
        await sleep(600);
      },
    );
    assert.deepEqual(summary(steps), [
      ['click', 'Text', 'Before'],
      ['focus', 'Table', 'Fruits'],
      ['select', 'TableCell', 'Cherry'],
    ]);
    for (const step of steps) assert.ok(step.target.locators.length > 0, `${step.target.name}: a verified locator`);
  });

  for (const format of ['cli', 'dogtail'] as const) {
    test(`the ${format === 'cli' ? 'shell script of CLI commands' : 'dogtail script'} selects Cherry in a fresh tree`, async () => {
      assert.ok(steps.length > 0, 'the recording test ran');
      await freshTree();
      assert.equal(await selectedRows(), '');
      replay(format, steps);
      await eventually(fruit, 'fruit Cherry', 'the replayed selection');
      assert.equal(await selectedRows(), 'Cherry');
    });
  }
});

// Chromium's listboxes: a native <select size> and an ARIA listbox with aria-activedescendant. Down moves the
// selection in each; both are select steps on the option reached and replay to the same selections.
describe('record: Down in Chromium listboxes is a select step that replays (desktop)', () => {
  const PAGE = "//Frame[contains(@Name, 'Listbox fixture ready')]";
  let browser: LaunchedApp | undefined;
  let steps: RecordedStep[] = [];

  const selections = () => queryText(`string(${PAGE}//*[@Name='listbox-status']/@Text)`);
  const selectedOptions = () =>
    queryText(`string-join(${PAGE}//ListBox/item:ListItem[@IsSelected = true()]/@Name, ',')`);

  async function freshPage(): Promise<void> {
    await browser?.stop();
    browser = await launchChromium(sessionEnv(), fixtureUrl('listbox.html'), {
      title: 'Listbox fixture ready',
      windowSize: { width: 900, height: 700 },
    });
    await eventually(selections, 'none|none', 'the page');
  }

  after(async () => browser?.stop());

  test('records Down, Down in each listbox as one select step on the option reached', async () => {
    await freshPage();
    steps = await recordFlow(
      async (at) => ({ mercury: await at(`${PAGE}//ListBox[@Name='Planets']/item:ListItem[@Name='Mercury']`) }),
      async ({ pointer, keyboard }, points) => {
        await pointer.click(points.mercury);
        await eventually(selections, 'Mercury|none', 'the click');
        await typeAndSee(keyboard, selections, [
          ['<Down>', 'Venus|none'],
          ['<Down>', 'Earth|none'],
        ]);
        await keyboard.type('<Tab>');
        await sleep(600);
        await typeAndSee(keyboard, selections, [
          ['<Down>', 'Earth|Iron'],
          ['<Down>', 'Earth|Copper'],
        ]);
        await sleep(600);
      },
    );
    assert.deepEqual(summary(steps), [
      ['click', 'ListItem', 'Mercury'],
      ['select', 'ListItem', 'Earth'],
      ['focus', 'ListBox', 'Metals'],
      ['select', 'ListItem', 'Copper'],
    ]);
    for (const step of steps) assert.ok(step.target.locators.length > 0, `${step.target.name}: a verified locator`);
  });

  for (const format of ['cli', 'dogtail'] as const) {
    test(`the ${format === 'cli' ? 'shell script of CLI commands' : 'dogtail script'} selects Earth and Copper in a fresh page`, async () => {
      assert.ok(steps.length > 0, 'the recording test ran');
      await freshPage();
      replay(format, steps);
      await eventually(selections, 'Earth|Copper', 'the replayed selections');
      assert.equal(await selectedOptions(), 'Earth,Copper');
    });
  }
});
