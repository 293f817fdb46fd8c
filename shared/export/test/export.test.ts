import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_MOCK_TREE } from '../../../main/providers/mock/default-tree.js';
import {
  buildLocatorTree,
  LocatorGenerator,
  locatorTreeFromSnapshot,
  type LocatorNodeInit,
} from '../../locators/index.js';
import { readSnapshotXml } from '../../snapshot/xml-reader.js';
import { dogtailPath } from '../dogtail.js';
import {
  parseExportAction,
  platynuiKeyboardText,
  renderExport,
  robotCell,
  type ExportAction,
  type ExportFormat,
  type ExportTarget,
} from '../templates.js';

function targets(keys: string[]): ExportTarget[] {
  const tree = locatorTreeFromSnapshot(readSnapshotXml(DEFAULT_MOCK_TREE));
  const generator = new LocatorGenerator(tree);
  return keys.map((key) => {
    const node = tree.nodes.find((n) => n.key === key)!;
    return {
      runtimeId: key,
      namespace: node.namespace,
      role: node.role,
      name: node.name,
      locators: generator.generate(node),
      dogtail: dogtailPath(node),
    };
  });
}

const ACTIONS: ExportAction[] = [
  { kind: 'none' },
  { kind: 'click' },
  { kind: 'focus' },
  { kind: 'type', text: `it's "typed" \\ {x} ${'$'}{y}\nnext` },
];

function pyCompile(source: string): { status: number | null; stderr: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'locators-py-'));
  try {
    const file = path.join(dir, 'generated.py');
    writeFileSync(file, source);
    const result = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8' });
    return { status: result.status, stderr: result.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every Python output (platynui_native and dogtail) compiles with python3 -m py_compile', () => {
  const nodes = targets([
    'mock:button-toolbar-ok',
    'mock:button-preferences-ok',
    'mock:edit-user',
    'mock:treeitem-main',
  ]);
  for (const format of ['python', 'dogtail'] as ExportFormat[]) {
    for (const action of ACTIONS) {
      const source = renderExport(format, nodes, action);
      const compiled = pyCompile(source);
      assert.equal(compiled.status, 0, `${format} ${action.kind}: ${compiled.stderr}\n${source}`);
    }
  }
  const python = renderExport('python', nodes, { kind: 'click' });
  assert.match(python, /from platynui_native import Point, Runtime, UiNode/);
  assert.match(python, /rt\.evaluate_single\(xpath\)/);
  assert.match(python, /rt\.pointer_click\(/);
  const dogtail = renderExport('dogtail', nodes, { kind: 'none' });
  assert.match(dogtail, /tree\.root\.application\("Studio"\)/);
  assert.match(dogtail, /GenericPredicate\(roleName="frame", name="Preferences"\)/);
  assert.match(dogtail, /GenericPredicate\(roleName="push button", name="OK"\)/);
  assert.match(dogtail, /print\(f"\{node\.roleName\}\\t\{node\.name\}"\)/);
});

test('the Robot Framework output has settings, variables and one test case per node with BareMetal keywords', () => {
  const nodes = targets(['mock:button-preferences-ok', 'mock:edit-search']);
  const robot = renderExport('robot', nodes, { kind: 'type', text: 'hello  world' });
  const lines = robot.split('\n');
  const sections = lines.filter((line) => line.startsWith('***'));
  assert.deepEqual(sections, ['*** Settings ***', '*** Variables ***', '*** Test Cases ***']);
  assert.ok(lines.includes('Library    PlatynUI.BareMetal'));
  const variables = lines.filter((line) => line.startsWith('${LOCATOR_'));
  assert.equal(variables.length, 2);
  assert.equal(variables[0], "${LOCATOR_1}    //Window[contains(@Name,'Preferences')]//Button[@Name='OK']");
  const cases = lines.filter((line) => line.startsWith('Find '));
  assert.equal(cases.length, 2);
  // Keyword lines are indented by four spaces and separate cells by four spaces; no cell contains a double space.
  const body = lines.slice(lines.indexOf('*** Test Cases ***') + 1).filter((line) => line.startsWith('    '));
  for (const line of body) {
    for (const cell of line.slice(4).split('    ')) assert.ok(!cell.includes('  ') && cell.length > 0, line);
  }
  for (const keyword of ['Query', 'Highlight', 'Get Attribute', 'Keyboard Type'])
    assert.ok(
      body.some((line) => line.split('    ')[1] === keyword || line.split('    ')[2] === keyword),
      keyword,
    );
  assert.ok(robot.includes('Keyboard Type    ${LOCATOR_2}    hello ${SPACE}world'));
  assert.ok(renderExport('robot', nodes, { kind: 'click' }).includes('    Pointer Click    ${LOCATOR_1}'));
  assert.ok(renderExport('robot', nodes, { kind: 'focus' }).includes('    Focus    ${LOCATOR_2}'));
  // Keyboard Type focuses the element itself (BareMetal); no separate Focus before it.
  assert.ok(!robot.includes('    Focus    '));
  // `<` opens a shortcut in PlatynUI's keyboard sequences: typed text is escaped.
  const shortcut = renderExport('robot', nodes, { kind: 'type', text: 'a<b>\\c' });
  assert.ok(shortcut.includes('Keyboard Type    ${LOCATOR_2}    a\\\\<b\\\\>\\\\\\\\c'), shortcut);
  assert.equal(robotCell('${x}  # y\\'), '\\${x} ${SPACE}# y\\\\');
});

test('JSON and XPath outputs, and action parsing', () => {
  const nodes = targets(['mock:button-toolbar-ok']);
  const json = JSON.parse(renderExport('json', nodes, { kind: 'none' })) as Array<{ [key: string]: unknown }>;
  assert.equal(json[0]!.runtimeId, 'mock:button-toolbar-ok');
  assert.equal(json[0]!.role, 'Button');
  const locators = json[0]!.locators as Array<{ [key: string]: unknown }>;
  assert.deepEqual(Object.keys(locators[0]!), ['xpath', 'strategy', 'reason', 'score', 'matches']);
  assert.equal(renderExport('xpath', nodes, { kind: 'none' }), "//Button[@Id='toolbar-ok']\n");
  assert.deepEqual(parseExportAction('type:a:b'), { kind: 'type', text: 'a:b' });
  assert.throws(() => parseExportAction('drag'));
});

// A stand-in for platynui_native with the signatures of its public stub (packages/native/python/platynui_native/
// _native.pyi in d-biehl/robotframework-platynui, commit 069e370071d9); every call is checked and recorded.
const PLATYNUI_NATIVE_STUB = `
import atexit, json, os

CALLS = []
NODES = json.loads(os.environ["STUB_NODES"])


class AttributeNotFoundError(Exception):
    pass


class Point:
    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = float(x), float(y)


class Rect:
    def __init__(self, x: float, y: float, width: float, height: float) -> None:
        self.x, self.y, self.width, self.height = float(x), float(y), float(width), float(height)

    def center(self) -> Point:
        return Point(self.x + self.width / 2, self.y + self.height / 2)


class UiNode:
    def __init__(self, data):
        self._data = data

    @property
    def role(self) -> str:
        return self._data["role"]

    @property
    def name(self) -> str:
        return self._data["name"]

    def attribute(self, name: str, namespace: str | None = None):
        value = self._data["attributes"].get(name)
        if value is None:
            raise AttributeNotFoundError(name)
        return Point(*value) if name == "ActivationPoint" else Rect(*value)


class Runtime:
    def __init__(self) -> None:
        pass

    def evaluate_single(self, xpath: str, node: UiNode | None = None):
        data = NODES.get(xpath)
        return UiNode(data) if data else None

    def focus(self, node: UiNode) -> None:
        assert isinstance(node, UiNode)
        CALLS.append(["focus", node.name])

    def bring_to_front(self, node: UiNode, wait_ms: float | None = None) -> None:
        assert isinstance(node, UiNode)
        CALLS.append(["bring_to_front", node.name])

    def pointer_click(self, point=None, button=None, overrides=None) -> None:
        assert isinstance(point, Point)
        CALLS.append(["pointer_click", point.x, point.y])

    def keyboard_type(self, sequence: str, overrides=None) -> None:
        assert isinstance(sequence, str)
        CALLS.append(["keyboard_type", sequence])


@atexit.register
def _dump():
    with open(os.environ["STUB_LOG"], "w") as out:
        json.dump(CALLS, out)
`;

function runAgainstStub(source: string, nodes: object): { status: number | null; stdout: string; calls: unknown[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'locators-stub-'));
  try {
    mkdirSync(path.join(dir, 'platynui_native'));
    writeFileSync(path.join(dir, 'platynui_native', '__init__.py'), PLATYNUI_NATIVE_STUB);
    writeFileSync(path.join(dir, 'generated.py'), source);
    const log = path.join(dir, 'calls.json');
    const result = spawnSync('python3', [path.join(dir, 'generated.py')], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: dir, STUB_NODES: JSON.stringify(nodes), STUB_LOG: log },
    });
    assert.equal(result.stderr.includes('Traceback'), false, result.stderr);
    return { status: result.status, stdout: result.stdout, calls: JSON.parse(readFileSync(log, 'utf8')) as unknown[] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the Python output runs against the platynui_native API: finds, prints, clicks, focuses and types', () => {
  const [ok, user] = targets(['mock:button-preferences-ok', 'mock:edit-user']);
  const live = {
    [ok!.locators[0]!.xpath]: { role: 'Button', name: 'OK', attributes: { Bounds: [10, 20, 80, 30] } },
    [user!.locators[0]!.xpath]: {
      role: 'Edit',
      name: 'User',
      attributes: { ActivationPoint: [5, 6], Bounds: [0, 0, 10, 12] },
    },
  };
  const click = runAgainstStub(renderExport('python', [ok!, user!], { kind: 'click' }), live);
  assert.equal(click.status, 0);
  assert.equal(click.stdout, 'Button\tOK\nEdit\tUser\n');
  // No ActivationPoint: the centre of Bounds; else the ActivationPoint. The window is brought to front first.
  assert.deepEqual(click.calls, [
    ['bring_to_front', 'OK'],
    ['pointer_click', 50, 35],
    ['bring_to_front', 'User'],
    ['pointer_click', 5, 6],
  ]);
  const typed = runAgainstStub(renderExport('python', [user!], { kind: 'type', text: 'a<b> \\ c' }), live);
  assert.deepEqual(typed.calls, [
    ['focus', 'User'],
    ['keyboard_type', platynuiKeyboardText('a<b> \\ c')],
  ]);
  assert.equal(platynuiKeyboardText('a<b> \\ c'), 'a\\<b\\> \\\\ c');
  // A node that is not there: reported, exit code 1.
  const missing = runAgainstStub(renderExport('python', [ok!, user!], { kind: 'focus' }), {
    [user!.locators[0]!.xpath]: live[user!.locators[0]!.xpath],
  });
  assert.equal(missing.status, 1);
  assert.deepEqual(missing.calls, [['focus', 'User']]);
});

test('dogtail paths index a node among the same role and name in depth-first pre-order below the last named hop', () => {
  const button = (key: string): LocatorNodeInit => ({ key, namespace: 'control', role: 'Button', name: 'OK' });
  const tree = buildLocatorTree([
    {
      key: 'app',
      namespace: 'app',
      role: 'Application',
      name: 'Studio',
      children: [
        {
          key: 'main',
          namespace: 'control',
          role: 'Window',
          name: 'Main',
          children: [
            {
              key: 'outer',
              namespace: 'control',
              role: 'Panel',
              children: [button('a'), { key: 'inner', namespace: 'control', role: 'Panel', children: [button('b')] }],
            },
            button('c'),
            { key: 'box', namespace: 'control', role: 'Panel', name: 'Box', children: [button('d')] },
          ],
        },
      ],
    },
  ]);
  const stepsOf = (key: string) => dogtailPath(tree.nodes.find((node) => node.key === key)!).steps;
  const window = { roleName: 'frame', name: 'Main', index: 0 };
  assert.deepEqual(stepsOf('a'), [window, { roleName: 'push button', name: 'OK', index: 0 }]);
  assert.deepEqual(stepsOf('b'), [window, { roleName: 'push button', name: 'OK', index: 1 }]);
  assert.deepEqual(stepsOf('c'), [window, { roleName: 'push button', name: 'OK', index: 2 }]);
  assert.deepEqual(stepsOf('d'), [
    window,
    { roleName: 'panel', name: 'Box', index: 0 },
    { roleName: 'push button', name: 'OK', index: 0 },
  ]);
});
