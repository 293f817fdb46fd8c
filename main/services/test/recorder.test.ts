import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { renderRecording } from '../../../shared/recording/export.js';
import type { RecordedStep } from '../../../shared/recording/steps.js';
import { KeyboardController } from '../../runtime/input/keyboard.js';
import { PointerController } from '../../runtime/input/pointer.js';
import type { MockDevices } from '../../platform/mock/mock-platform.js';
import type { RuntimeNode } from '../../runtime/node.js';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { Recorder } from '../recorder.js';

// The recorder over the mock provider and the mock platform, whose pointer and keyboard actions are copied to the
// recording as a real desktop's input would be.

describe('Recorder (mock desktop)', () => {
  let runtime: Runtime;
  let xpath: XPathService;
  let devices: MockDevices;
  let pointer: PointerController;
  let keyboard: KeyboardController;

  const node = async (expression: string): Promise<RuntimeNode> => {
    const { items } = await xpath.evaluate(expression);
    const found = items.flatMap((item) => (item.type === 'node' ? [item.node] : []));
    assert.equal(found.length, 1, expression);
    return found[0]!;
  };

  before(async () => {
    runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
    xpath = new XPathService(runtime);
    devices = runtime.platform as MockDevices;
    pointer = new PointerController(devices.pointer);
    keyboard = new KeyboardController(devices.keyboard);
  });

  after(async () => {
    await xpath.close();
    await runtime.shutdown();
  });

  it('records clicks, double clicks, typing per field with shortcuts, a secure field as a variable, assertions', async () => {
    const recorder = await Recorder.start(runtime, xpath);
    const live: number[] = [];
    recorder.onChange((steps) => live.push(steps.length));
    assert.equal(recorder.mechanism, 'mock');

    await pointer.click({ x: 150, y: 130 }); // the toolbar's OK
    await pointer.moveTo({ x: 710, y: 174 }); // the search box
    await devices.pointer.press('left');
    await devices.pointer.release('left');
    await devices.pointer.press('left');
    await devices.pointer.release('left');
    const search = await node("//Edit[@Id='search-box']");
    await search.performAction({ action: 'focus' });
    await keyboard.type('ab<Ctrl+a>');
    const password = await node("//PasswordText[@Id='password']");
    await password.performAction({ action: 'focus' });
    await keyboard.type('hunter2<Enter>');
    // A click on the inspector's own window is never recorded.
    devices.recordInput({
      type: 'button',
      state: 'press',
      button: 'left',
      point: { x: 150, y: 130 },
      at: performance.now(),
      serverTime: 10_000,
      onOwnWindow: true,
    });
    const ok = await node("//Window[@Name='Studio - demo']//Button[@Id='toolbar-ok']");
    const assertion = await recorder.addAssertion(ok, 'Name');
    await assert.rejects(recorder.addAssertion(password, 'Value'), { code: 'unsupported', message: /secure field/ });

    const steps: RecordedStep[] = await recorder.stop();
    assert.deepEqual(
      steps.map((step) => [step.action, step.target.role, step.target.name]),
      [
        [{ kind: 'click', button: 'left', count: 1 }, 'Button', 'OK'],
        [{ kind: 'click', button: 'left', count: 2 }, 'Edit', 'Search'],
        [
          {
            kind: 'type',
            parts: [
              { kind: 'text', text: 'ab' },
              { kind: 'chord', keys: ['Ctrl', 'a'] },
            ],
          },
          'Edit',
          'Search',
        ],
        [
          {
            kind: 'type',
            parts: [
              { kind: 'secret', variable: 'PASSWORD_1' },
              { kind: 'chord', keys: ['Enter'] },
            ],
          },
          'PasswordText',
          'Password',
        ],
        [{ kind: 'assert', attribute: 'Name', expected: 'OK' }, 'Button', 'OK'],
      ],
    );
    assert.equal(assertion.id, steps[4]!.id);
    // Every step found its element by a verified locator, at the time it was recorded.
    for (const step of steps) assert.ok(step.target.locators.length > 0, `${step.target.name} has locators`);
    assert.equal(steps[0]!.target.locators[0]!.xpath, "//Button[@Id='toolbar-ok']");
    assert.ok(live.length >= 5 && live.at(-1) === 5, `listeners saw the steps grow: ${live.join(',')}`);
    const secret = /hunter/;
    assert.doesNotMatch(JSON.stringify(steps), secret);
    for (const format of ['robot', 'python', 'dogtail', 'cli'] as const) {
      assert.doesNotMatch(renderRecording(format, steps), secret, format);
    }
    assert.match(renderRecording('cli', steps), /pointer double-click '\/\/Edit\[@Id='\\''search-box'\\''\]'/);
  });

  it('deletes a step and makes another verified locator the first; input after stop is not recorded', async () => {
    const recorder = await Recorder.start(runtime, xpath);
    await pointer.click({ x: 150, y: 130 });
    await pointer.click({ x: 360, y: 130 }); // Auto save
    let steps = await recorder.stop();
    assert.deepEqual(
      steps.map((step) => step.target.name),
      ['OK', 'Auto save'],
    );
    await pointer.click({ x: 150, y: 130 });
    assert.equal(recorder.steps().length, 2, 'a stopped recorder records nothing');
    recorder.deleteStep(steps[0]!.id);
    const second = steps[1]!;
    assert.ok(second.target.locators.length > 1, 'alternatives');
    const alternative = second.target.locators[1]!.xpath;
    recorder.chooseLocator(second.id, alternative);
    steps = recorder.steps();
    assert.equal(steps.length, 1);
    assert.equal(steps[0]!.target.locators[0]!.xpath, alternative);
    assert.throws(() => recorder.deleteStep(999), { code: 'invalid-input' });
    assert.throws(() => recorder.chooseLocator(second.id, '//Nope'), { code: 'invalid-input' });
  });

  it("records a drag, wheel steps, Tab's focus and an arrow key's selection as steps of their own", async () => {
    const recorder = await Recorder.start(runtime, xpath);
    await pointer.drag({ x: 300, y: 244 }, { x: 300, y: 172 }); // docs onto src
    await pointer.scroll({ y: 2 }, { x: 710, y: 212 }); // over the first result
    await pointer.scroll({ y: 1 }, { x: 710, y: 212 });
    const search = await node("//Edit[@Id='search-box']");
    await search.performAction({ action: 'focus' }); // not by a key: no step
    await keyboard.type('<End>'); // a caret key in a text field is typed
    await keyboard.type('<Tab>');
    await (await node("//Button[@Id='toolbar-ok']")).performAction({ action: 'focus' });
    await keyboard.type('<Down>');
    await (await node("//item:ListItem[@Name='First result']")).performAction({ action: 'select' });
    await keyboard.type('<Down>');
    await (await node("//item:ListItem[@Name='Second result']")).performAction({ action: 'select' });
    await keyboard.type('<Tab>'); // the focus stays: a key typed into the button
    const steps = await recorder.stop();
    assert.deepEqual(
      steps.map((step) => [step.action, step.target.role, step.target.name]),
      [
        [{ kind: 'drag', button: 'left', to: { x: 300, y: 172 } }, 'TreeItem', 'docs'],
        [{ kind: 'scroll', deltaX: 0, deltaY: 3 }, 'ListItem', 'First result'],
        [{ kind: 'type', parts: [{ kind: 'chord', keys: ['End'] }] }, 'Edit', 'Search'],
        [{ kind: 'focus' }, 'Button', 'OK'],
        [{ kind: 'select' }, 'ListItem', 'Second result'],
        [{ kind: 'type', parts: [{ kind: 'chord', keys: ['Tab'] }] }, 'Button', 'OK'],
      ],
    );
    const cli = renderRecording('cli', steps);
    assert.match(cli, /pointer drag .*docs.* --to=300,172\n/);
    assert.match(cli, /pointer scroll .* --delta=0,3\n/);
    assert.match(cli, /retry "\$PLATYNUI" select .*Second result/);
  });

  it("takes a second hit test's answer at the press when it lies inside the hovered element, never one outside it", async () => {
    const list = await node("//List[@Id='results']");
    const item = await node("//item:ListItem[@Name='First result']");
    const ok = await node("//Button[@Id='toolbar-ok']");
    const search = await node("//Edit[@Id='search-box']");
    // As Chromium does: the first test at a new point answers the container, later ones the item there.
    const asked = new Map<string, number>();
    const answers = new Map<string, [RuntimeNode, RuntimeNode]>([
      ['710,212', [list, item]],
      // A press that opened something else at the point: the second answer is not inside what was hovered.
      ['150,130', [ok, search]],
    ]);
    const hitTest = async (_runtime: Runtime, point: { x: number; y: number }) => {
      const key = `${point.x},${point.y}`;
      const count = asked.get(key) ?? 0;
      asked.set(key, count + 1);
      return answers.get(key)?.[Math.min(count, 1)];
    };
    const recorder = await Recorder.start(runtime, xpath, { hitTest });
    await pointer.click({ x: 710, y: 212 });
    await pointer.click({ x: 150, y: 130 });
    const steps = await recorder.stop();
    assert.deepEqual(
      steps.map((step) => [step.target.role, step.target.name]),
      [
        ['ListItem', 'First result'],
        ['Button', 'OK'],
      ],
    );
    assert.ok((asked.get('710,212') ?? 0) >= 2, 'the press point was tested again');
    assert.ok((asked.get('150,130') ?? 0) >= 2, 'the press point was tested again');
  });

  it('is refused clearly where the platform cannot copy input', async () => {
    const bare = await Runtime.create({ providers: ['mock'], platform: 'none' });
    const bareXPath = new XPathService(bare);
    try {
      await assert.rejects(Recorder.start(bare, bareXPath), { code: 'unsupported', message: /recording needs/ });
    } finally {
      await bareXPath.close();
      await bare.shutdown();
    }
  });
});

// A list that announces a selection only as a whole (GTK 3's tree view for rows it made no accessible for, a web
// listbox): selection-changed on the list and its SelectedItems, nothing on the items.
const QUIET_LIST = `<?xml version="1.0" encoding="UTF-8"?>
<snapshot xmlns="urn:platynui:control" xmlns:item="urn:platynui:item" xmlns:app="urn:platynui:app">
  <app:Application Name="Grocer" RuntimeId="mock:app-grocer" ProcessId="4343" SupportedPatterns='["Application"]'>
    <Window Name="Fruit list" RuntimeId="mock:window-fruit" Bounds='{"x":100,"y":80,"width":400,"height":300}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element"]'>
      <List Name="Fruits" RuntimeId="mock:list-fruits" Bounds='{"x":110,"y":90,"width":200,"height":100}' IsVisible="true" IsEnabled="true" IsFocused="false" SupportedPatterns='["Element","Focusable","SelectionProvider"]'>
        <item:ListItem Name="Apple" RuntimeId="mock:fruit-apple" Bounds='{"x":110,"y":90,"width":200,"height":20}' IsVisible="true" IsEnabled="true" IsSelected="true" SupportedPatterns='["Element","Selectable"]'/>
        <item:ListItem Name="Banana" RuntimeId="mock:fruit-banana" Bounds='{"x":110,"y":110,"width":200,"height":20}' IsVisible="true" IsEnabled="true" IsSelected="false" SupportedPatterns='["Element","Selectable"]'/>
        <item:ListItem Name="Cherry" RuntimeId="mock:fruit-cherry" Bounds='{"x":110,"y":130,"width":200,"height":20}' IsVisible="true" IsEnabled="true" IsSelected="false" SupportedPatterns='["Element","Selectable"]'/>
      </List>
    </Window>
  </app:Application>
</snapshot>
`;

describe('Recorder: a list that announces its selection only as a whole (mock desktop)', () => {
  let runtime: Runtime;
  let xpath: XPathService;
  let keyboard: KeyboardController;

  const item = async (name: string): Promise<RuntimeNode> => {
    const { items } = await xpath.evaluate(`//item:ListItem[@Name='${name}']`);
    const found = items.flatMap((entry) => (entry.type === 'node' ? [entry.node] : []));
    assert.equal(found.length, 1, name);
    return found[0]!;
  };

  before(async () => {
    runtime = await Runtime.create({
      providers: ['mock'],
      platform: 'mock',
      backendOptions: { mock: { text: QUIET_LIST, source: 'quiet list' } },
    });
    xpath = new XPathService(runtime);
    keyboard = new KeyboardController((runtime.platform as MockDevices).keyboard);
  });

  after(async () => {
    await xpath.close();
    await runtime.shutdown();
  });

  it('records arrow keys that moved the selection as one select step on the item the list names, in every format', async () => {
    const [banana, cherry] = [await item('Banana'), await item('Cherry')];
    const { items } = await xpath.evaluate("//List[@Name='Fruits']");
    const list = items[0]?.type === 'node' ? items[0].node : undefined;
    assert.ok(list);
    const recorder = await Recorder.start(runtime, xpath);
    await list.performAction({ action: 'focus' });
    await keyboard.type('<Down>');
    await banana.performAction({ action: 'select' }); // the application's answer to the key
    await keyboard.type('<Down>');
    await cherry.performAction({ action: 'select' });
    await keyboard.type('<Down>'); // at the end of the list: nothing is selected, the key is typed
    const steps = await recorder.stop();
    assert.deepEqual(
      steps.map((step) => [step.action, step.target.role, step.target.name]),
      [
        [{ kind: 'select' }, 'ListItem', 'Cherry'],
        [{ kind: 'type', parts: [{ kind: 'chord', keys: ['Down'] }] }, 'List', 'Fruits'],
      ],
    );
    assert.equal(steps[0]!.target.locators[0]?.xpath, "//item:ListItem[@Name='Cherry']");
    const scripts = {
      cli: /retry "\$PLATYNUI" select '\/\/item:ListItem\[@Name='\\''Cherry'\\''\]'/,
      dogtail: /name="Cherry"\), recursive=True, retry=True\)\n {4}node\.select\(\)/,
      python: /find\(rt, "\/\/item:ListItem\[@Name='Cherry'\]"\)\n {4}rt\.pointer_click\(click_point\(node\)/,
      robot: /Pointer Click {4}\/\/item:ListItem\[@Name='Cherry'\]/,
    } as const;
    for (const [format, expected] of Object.entries(scripts)) {
      assert.match(renderRecording(format as keyof typeof scripts, steps), expected, format);
    }
  });

  /**
   * Types the keys into the focused list with the pauses given (ms after each), then Banana is selected (the
   * application's late answer); the recorded steps as kind, role and name.
   */
  async function recordKeysThenSelection(keys: ReadonlyArray<readonly [string, number]>): Promise<unknown[]> {
    const { items } = await xpath.evaluate("//List[@Name='Fruits']");
    const list = items[0]?.type === 'node' ? items[0].node : undefined;
    assert.ok(list);
    await (await item('Apple')).performAction({ action: 'select' });
    const recorder = await Recorder.start(runtime, xpath);
    await list.performAction({ action: 'focus' });
    for (const [key, pauseMs] of keys) {
      await keyboard.type(key);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    await (await item('Banana')).performAction({ action: 'select' });
    const steps = await recorder.stop();
    return steps.map((step) => [step.action.kind, step.target.role, step.target.name]);
  }

  it("takes a selection that came late (a busy application) as the key's effect while no other input came", async () => {
    assert.deepEqual(await recordKeysThenSelection([['<Down>', 700]]), [['select', 'ListItem', 'Banana']]);
  });

  it("ends a key's effect window at the next key: a later selection is the next key's", async () => {
    // The first Down did nothing; the selection 450 ms after it came 50 ms after the second.
    assert.deepEqual(
      await recordKeysThenSelection([
        ['<Down>', 400],
        ['<Down>', 50],
      ]),
      [
        ['type', 'List', 'Fruits'],
        ['select', 'ListItem', 'Banana'],
      ],
    );
  });

  it('leaves a selection the list announced before the key out of it', async () => {
    const [apple] = [await item('Apple')];
    const recorder = await Recorder.start(runtime, xpath);
    await apple.performAction({ action: 'select' }); // not by a key (a click, the application itself)
    await new Promise((resolve) => setTimeout(resolve, 20));
    await keyboard.type('<Up>');
    const steps = await recorder.stop();
    assert.deepEqual(
      steps.map((step) => [step.action.kind, step.target.role, step.target.name]),
      [['type', 'List', 'Fruits']],
    );
  });
});
