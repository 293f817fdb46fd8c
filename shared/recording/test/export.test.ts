import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { ExportTarget } from '../../export/templates.js';
import { parseRecordingFormat, renderRecording, RECORDING_FORMATS, shellWord } from '../export.js';
import { describeStep, keyboardSequence, secretVariables, type RecordedStep } from '../steps.js';

function target(role: string, name: string, xpath: string | undefined, application = 'demo'): ExportTarget {
  return {
    runtimeId: `id-${role}-${name}`,
    namespace: 'control',
    role,
    name,
    locators: xpath ? [{ xpath, strategy: 'role-name', reason: 'test', score: 90, matches: 1 }] : [],
    dogtail: { application, steps: [{ roleName: role.toLowerCase(), name, index: 0 }] },
  };
}

const OK = "//Button[@Name='OK']";
const USER = "//Edit[@Name='User']";
const PASS = "//PasswordText[@Name='Password']";
const QUOTED = `//Label[@Name="it's"]`;
const RED = "//ListItem[@Name='Red']";
const COLOURS = "//List[@Name='Colours']";

const STEPS: RecordedStep[] = [
  { id: 1, action: { kind: 'click', button: 'left', count: 1 }, target: target('Button', 'OK', OK) },
  { id: 2, action: { kind: 'click', button: 'left', count: 2 }, target: target('Button', 'OK', OK) },
  { id: 3, action: { kind: 'click', button: 'right', count: 1 }, target: target('Button', 'OK', OK) },
  {
    id: 4,
    action: {
      kind: 'type',
      parts: [
        { kind: 'text', text: "a<b> 'c' \\ $HOME" },
        { kind: 'chord', keys: ['Ctrl', 'a'] },
        { kind: 'chord', keys: ['Enter'] },
      ],
    },
    target: target('Edit', 'User', USER),
  },
  {
    id: 5,
    action: {
      kind: 'type',
      parts: [
        { kind: 'secret', variable: 'PASSWORD_1' },
        { kind: 'chord', keys: ['Tab'] },
      ],
    },
    target: target('PasswordText', 'Password', PASS),
  },
  { id: 6, action: { kind: 'assert', attribute: 'Name', expected: "it's" }, target: target('Label', "it's", QUOTED) },
  { id: 7, action: { kind: 'focus' }, target: target('Edit', 'Lost', undefined) },
  { id: 8, action: { kind: 'select' }, target: target('ListItem', 'Red', RED) },
  { id: 9, action: { kind: 'scroll', deltaX: -1, deltaY: 3 }, target: target('List', 'Colours', COLOURS) },
  { id: 10, action: { kind: 'drag', button: 'left', to: { x: 300, y: 400 } }, target: target('ListItem', 'Red', RED) },
  { id: 11, action: { kind: 'focus' }, target: target('Edit', 'User', USER) },
];

test('typed parts become one PlatynUI keyboard sequence; steps describe themselves; secrets are listed once', () => {
  assert.equal(
    keyboardSequence(
      [
        { kind: 'text', text: 'a<b>\\' },
        { kind: 'chord', keys: ['Ctrl', '+'] },
        { kind: 'secret', variable: 'P' },
      ],
      (name) => `[${name}]`,
    ),
    'a\\<b\\>\\\\<Ctrl+PLUS>[P]',
  );
  assert.deepEqual(STEPS.map(describeStep), [
    'click Button "OK"',
    'double-click Button "OK"',
    'right click Button "OK"',
    'type into Edit "User"',
    'type into PasswordText "Password"',
    `assert Label "it's" Name = "it's"`,
    'focus Edit "Lost"',
    'select ListItem "Red"',
    'scroll List "Colours" by -1,3',
    'drag ListItem "Red" to 300,400',
    'focus Edit "User"',
  ]);
  assert.deepEqual(secretVariables([...STEPS, STEPS[4]!]), ['PASSWORD_1']);
  assert.equal(parseRecordingFormat('cli'), 'cli');
  assert.throws(() => parseRecordingFormat('json'), /--format must be one of robot, python, dogtail, cli, got "json"/);
});

test('Robot Framework: BareMetal keywords per step, the secret from the environment, unlocated steps left out', () => {
  const robot = renderRecording('robot', STEPS);
  const body = robot.split('*** Test Cases ***')[1]!;
  assert.match(robot, /\*\*\* Variables \*\*\*\n# .*\n\$\{PASSWORD_1\} {4}%\{PASSWORD_1\}\n/);
  assert.match(body, /\n {4}Pointer Click {4}\/\/Button\[@Name='OK'\]\n/);
  assert.match(body, /\n {4}Pointer Multi Click {4}\/\/Button\[@Name='OK'\] {4}clicks=\$\{2\}\n/);
  assert.match(body, /\n {4}Pointer Click {4}\/\/Button\[@Name='OK'\] {4}button=RIGHT\n/);
  assert.match(
    body,
    /\n {4}Keyboard Type {4}\/\/Edit\[@Name='User'\] {4}a\\\\<b\\\\> 'c' \\\\\\\\ \$HOME<Ctrl\+a><Enter>\n/,
  );
  assert.match(body, /\n {4}Keyboard Type {4}\/\/PasswordText\[@Name='Password'\] {4}\$\{PASSWORD_1\}<Tab>\n/);
  assert.match(body, /\n {4}\$\{value\}= {4}Get Attribute {4}\/\/Label\[@Name="it's"\] {4}Name\n/);
  assert.match(body, /\n {4}# 7\. focus Edit "Lost"\n {4}# left out: no locator/);
  assert.match(
    body,
    /\n {4}# BareMetal has no selection keyword: .*\n {4}Pointer Click {4}\/\/ListItem\[@Name='Red'\]\n/,
  );
  assert.match(
    body,
    /\n {4}# BareMetal has no wheel keyword: scroll wheel steps 1 left and 3 down here by hand\n {4}Pointer Move To {4}\/\/List\[@Name='Colours'\]\n/,
  );
  assert.match(
    body,
    /\n {4}Pointer Press {4}\/\/ListItem\[@Name='Red'\]\n {4}Pointer Release {4}x=\$\{300\} {4}y=\$\{400\}\n/,
  );
  assert.match(body, /\n {4}Focus {4}\/\/Edit\[@Name='User'\]\n/);
});

// platynui_native as far as the recording uses it (signatures of its public stub), recording every call.
const NATIVE_STUB = `
import atexit, json, os, enum
CALLS = []
NODES = json.loads(os.environ["STUB_NODES"])
class PointerButton(enum.Enum):
    LEFT = 1
    MIDDLE = 2
    RIGHT = 3
class Point:
    def __init__(self, x, y):
        self.x, self.y = float(x), float(y)
class Rect:
    def __init__(self, x, y, w, h):
        self.x, self.y, self.w, self.h = x, y, w, h
    def center(self):
        return Point(self.x + self.w / 2, self.y + self.h / 2)
class UiNode:
    def __init__(self, data):
        self.data = data
    def attribute(self, name, namespace=None):
        if name == "Bounds":
            return Rect(*self.data["bounds"])
        if name == "ActivationPoint":
            raise KeyError(name)
        return self.data[name]
class Runtime:
    def evaluate_single(self, xpath, node=None):
        data = NODES.get(xpath)
        return UiNode(data) if data else None
    def bring_to_front(self, node, wait_ms=None):
        pass
    def focus(self, node):
        CALLS.append(["focus", node.data["Name"]])
    def pointer_click(self, point=None, button=None, overrides=None):
        CALLS.append(["click", point.x, point.y, button.name])
    def pointer_multi_click(self, point, clicks, button=None, overrides=None):
        CALLS.append(["multi_click", point.x, point.y, clicks, button.name])
    def keyboard_type(self, sequence, overrides=None):
        CALLS.append(["type", sequence])
    def pointer_move_to(self, point, overrides=None):
        CALLS.append(["move_to", point.x, point.y])
    def pointer_scroll(self, delta, overrides=None):
        CALLS.append(["scroll", *delta])
    def pointer_press(self, point=None, button=None, overrides=None):
        CALLS.append(["press", point.x, point.y, button.name])
    def pointer_release(self, point=None, button=None, overrides=None):
        CALLS.append(["release", point.x, point.y, button.name])
@atexit.register
def _dump():
    with open(os.environ["STUB_LOG"], "w") as out:
        json.dump(CALLS, out)
`;

test('Python: runs against platynui_native, typing the secret from the environment escaped as a sequence', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'recording-python-'));
  try {
    mkdirSync(path.join(dir, 'platynui_native'));
    writeFileSync(path.join(dir, 'platynui_native', '__init__.py'), NATIVE_STUB);
    writeFileSync(path.join(dir, 'flow.py'), renderRecording('python', STEPS));
    const nodes = {
      [OK]: { Name: 'OK', bounds: [10, 20, 80, 30] },
      [USER]: { Name: 'User', bounds: [0, 0, 10, 10] },
      [PASS]: { Name: 'Password', bounds: [0, 0, 10, 10] },
      [QUOTED]: { Name: "it's", bounds: [0, 0, 10, 10] },
      [RED]: { Name: 'Red', bounds: [0, 100, 20, 10] },
      [COLOURS]: { Name: 'Colours', bounds: [0, 100, 20, 100] },
    };
    const log = path.join(dir, 'calls.json');
    const result = spawnSync('python3', [path.join(dir, 'flow.py')], {
      encoding: 'utf8',
      env: {
        ...process.env,
        PYTHONPATH: dir,
        STUB_NODES: JSON.stringify(nodes),
        STUB_LOG: log,
        PASSWORD_1: 'p<w>d',
      },
    });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(readFileSync(log, 'utf8')), [
      ['click', 50, 35, 'LEFT'],
      ['multi_click', 50, 35, 2, 'LEFT'],
      ['click', 50, 35, 'RIGHT'],
      ['focus', 'User'],
      ['type', "a\\<b\\> 'c' \\\\ $HOME<Ctrl+a><Enter>"],
      ['focus', 'Password'],
      ['type', 'p\\<w\\>d<Tab>'],
      ['click', 10, 105, 'LEFT'],
      ['move_to', 10, 150],
      ['scroll', 120, -360],
      ['press', 10, 105, 'LEFT'],
      ['release', 300, 400, 'LEFT'],
      ['focus', 'User'],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the shell script calls this CLI with each word intact, and the secret only from the environment', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'recording-cli-'));
  try {
    const fake = path.join(dir, 'fake-cli');
    const log = path.join(dir, 'calls.txt');
    // Answers the asserted Name's query, fails the first click once (its element not there yet: the script tries
    // again) and logs every other call, one word a line.
    writeFileSync(
      fake,
      `#!/bin/sh\ncase "$1 $2" in\n  "query string("*) printf "%s\\n" "it's"; exit 0;;\n  "pointer click") [ -e "${log}.once" ] || { touch "${log}.once"; echo "no element matches" >&2; exit 1; };;\nesac\nfor word in "$@"; do printf '%s\\n' "$word" >> "${log}"; done\necho --- >> "${log}"\n`,
    );
    chmodSync(fake, 0o755);
    const script = path.join(dir, 'flow.sh');
    writeFileSync(script, renderRecording('cli', STEPS));
    const missing = spawnSync('sh', [script], { encoding: 'utf8', env: { ...process.env, PLATYNUI_INSPECTOR: fake } });
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /PASSWORD_1/);
    const run = spawnSync('sh', [script], {
      encoding: 'utf8',
      env: { ...process.env, PLATYNUI_INSPECTOR: fake, PASSWORD_1: "p<w>'d\\" },
    });
    assert.equal(run.status, 0, run.stderr);
    const calls = readFileSync(log, 'utf8')
      .split('---\n')
      .filter(Boolean)
      .map((call) => call.trimEnd().split('\n'));
    assert.deepEqual(calls, [
      ['pointer', 'click', OK],
      ['pointer', 'double-click', OK],
      ['pointer', 'click', OK, '--button', 'right'],
      ['focus', USER],
      ['keyboard', 'type', "a\\<b\\> 'c' \\\\ $HOME<Ctrl+a><Enter>"],
      ['focus', PASS],
      ['keyboard', 'type', "p\\<w\\>'d\\\\<Tab>"],
      ['select', RED],
      ['pointer', 'scroll', COLOURS, '--delta=-1,3'],
      ['pointer', 'drag', RED, '--to=300,400'],
      ['focus', USER],
    ]);
    assert.equal(shellWord("it's"), `'it'\\''s'`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dogtail: every output compiles; keys become rawinput calls, the secret comes from the environment', () => {
  const dogtail = renderRecording('dogtail', STEPS);
  assert.match(
    dogtail,
    /node = tree\.root\.application\("demo"\)\n {4}node = node\.findChild\(predicate\.GenericPredicate\(roleName="button", name="OK"\), recursive=True, retry=True\)\n {4}node\.click\(1\)/,
  );
  assert.match(dogtail, /multi_click\(node, 1, 2\)/);
  assert.match(dogtail, /def multi_click\(node, button, count\):/);
  assert.doesNotMatch(renderRecording('dogtail', [STEPS[0]!]), /multi_click/, 'only where a step needs it');
  assert.match(dogtail, /node\.click\(3\)/);
  assert.match(
    dogtail,
    /rawinput\.typeText\("a<b> 'c' \\\\ \$HOME"\)\n {4}rawinput\.keyCombo\("<Control>a"\)\n {4}rawinput\.pressKey\("Return"\)/,
  );
  assert.match(dogtail, /rawinput\.typeText\(os\.environ\["PASSWORD_1"\]\)\n {4}rawinput\.pressKey\("Tab"\)/);
  assert.match(dogtail, /name="Red".*\n {4}node\.select\(\)\n/);
  assert.match(
    dogtail,
    /\n {4}for _ in range\(1\):\n {8}rawinput\.click\(x, y, 6\)\n {4}for _ in range\(3\):\n {8}rawinput\.click\(x, y, 5\)\n/,
  );
  assert.match(dogtail, /\n {4}rawinput\.drag\(\(x, y\), \(300, 400\), 1\)\n/);
  assert.match(dogtail, /name="User".*\n {4}node\.grabFocus\(\)\n {4}return 0/);
  const dir = mkdtempSync(path.join(tmpdir(), 'recording-compile-'));
  try {
    for (const format of RECORDING_FORMATS.filter((f) => f === 'python' || f === 'dogtail')) {
      const file = path.join(dir, `${format}.py`);
      writeFileSync(file, renderRecording(format, STEPS));
      const result = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8' });
      assert.equal(result.status, 0, `${format}: ${result.stderr}`);
    }
    const sh = path.join(dir, 'flow.sh');
    writeFileSync(sh, renderRecording('cli', STEPS));
    assert.equal(spawnSync('sh', ['-n', sh]).status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
