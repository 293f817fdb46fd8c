// Scripts from a recording. The Robot Framework and Python calls are those of shared/export/templates.ts (the public
// PlatynUI sources named there), plus, from the same BareMetal module: `Pointer Multi Click    descriptor
// clicks=2    button=LEFT` and `Pointer Click    descriptor    button=RIGHT` (PointerButton by name), and in
// platynui_native `Runtime.pointer_multi_click(point, clicks, button, overrides)`, `Runtime.pointer_click(point,
// button, overrides)` with `PointerButton.LEFT/MIDDLE/RIGHT`. The shell script calls this CLI's own commands.
import { InspectorError } from '../model/errors.js';
import {
  DOGTAIL_NTH,
  dogtailPrelude,
  dogtailSearch,
  PYTHON_CLICK_POINT,
  pythonString,
  robotCell,
  type ExportTarget,
} from '../export/templates.js';
import { describeStep, keyboardSequence, secretVariables, type RecordedStep, type TypedPart } from './steps.js';

export const RECORDING_FORMATS = ['robot', 'python', 'dogtail', 'cli'] as const;
export type RecordingFormat = (typeof RECORDING_FORMATS)[number];

export function parseRecordingFormat(value: string): RecordingFormat {
  if (!(RECORDING_FORMATS as readonly string[]).includes(value)) {
    throw new InspectorError('usage', `--format must be one of ${RECORDING_FORMATS.join(', ')}, got "${value}"`);
  }
  return value as RecordingFormat;
}

/** The best locator, or undefined when none was verified (the step is then left out of the script, with a note). */
function bestXPath(target: ExportTarget): string | undefined {
  return target.locators[0]?.xpath;
}

/** Comment lines for a step left out, and the step's own description. */
function stepHeading(step: RecordedStep, index: number): { title: string; missing: boolean } {
  const title = `${index + 1}. ${describeStep(step)}`;
  return { title, missing: bestXPath(step.target) === undefined };
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');
const NO_LOCATOR = 'left out: no locator selected exactly this element when it was recorded';

type ScrollAction = Extract<RecordedStep['action'], { kind: 'scroll' }>;

/** `3 wheel steps down`, `1 wheel step left and 2 down`. */
function wheelSteps(action: ScrollAction): string {
  const parts: string[] = [];
  if (action.deltaX !== 0) parts.push(`${Math.abs(action.deltaX)} ${action.deltaX < 0 ? 'left' : 'right'}`);
  if (action.deltaY !== 0) parts.push(`${Math.abs(action.deltaY)} ${action.deltaY < 0 ? 'up' : 'down'}`);
  const count = Math.abs(action.deltaX) + Math.abs(action.deltaY);
  return `wheel step${count === 1 ? '' : 's'} ${parts.join(' and ')}`;
}

// --- Robot Framework (PlatynUI.BareMetal) ---

/** One cell: each literal part escaped as a cell of its own would be, a secret as its variable. */
function robotTyped(parts: readonly TypedPart[]): string {
  return parts
    .map((part) => (part.kind === 'secret' ? `\${${part.variable}}` : robotCell(keyboardSequence([part], () => ''))))
    .join('');
}

export function renderRecordingRobot(steps: readonly RecordedStep[]): string {
  const SEP = '    ';
  const secrets = secretVariables(steps);
  const lines = [
    '*** Settings ***',
    `Documentation${SEP}Recorded by PlatynUI Inspector: each step finds its element by a locator verified when it was recorded.`,
    `Library${SEP}PlatynUI.BareMetal`,
    '',
  ];
  if (secrets.length > 0) {
    lines.push('*** Variables ***');
    lines.push('# Text typed into secure fields is never recorded: set these environment variables before the run.');
    for (const name of secrets) lines.push(`\${${name}}${SEP}%{${name}}`);
    lines.push('');
  }
  lines.push('*** Test Cases ***', 'Recorded Flow');
  steps.forEach((step, index) => {
    const { title, missing } = stepHeading(step, index);
    lines.push(`${SEP}# ${oneLine(title)}`);
    if (missing) {
      lines.push(`${SEP}# ${NO_LOCATOR}`);
      return;
    }
    const locator = robotCell(bestXPath(step.target)!);
    const action = step.action;
    switch (action.kind) {
      case 'click': {
        const button = action.button === 'left' ? '' : `${SEP}button=${action.button.toUpperCase()}`;
        lines.push(
          action.count > 1
            ? `${SEP}Pointer Multi Click${SEP}${locator}${SEP}clicks=\${${action.count}}${button}`
            : `${SEP}Pointer Click${SEP}${locator}${button}`,
        );
        break;
      }
      case 'type':
        // Keyboard Type focuses its descriptor first; a secret's value is typed as a sequence (`<` would open a key).
        lines.push(`${SEP}Keyboard Type${SEP}${locator}${SEP}${robotTyped(action.parts)}`);
        break;
      case 'focus':
        lines.push(`${SEP}Focus${SEP}${locator}`);
        break;
      case 'select':
        lines.push(`${SEP}# BareMetal has no selection keyword: a click selects the item`);
        lines.push(`${SEP}Pointer Click${SEP}${locator}`);
        break;
      case 'scroll':
        lines.push(`${SEP}# BareMetal has no wheel keyword: scroll ${wheelSteps(action)} here by hand`);
        lines.push(`${SEP}Pointer Move To${SEP}${locator}`);
        break;
      case 'drag': {
        const button = action.button === 'left' ? '' : `${SEP}button=${action.button.toUpperCase()}`;
        lines.push(`${SEP}Pointer Press${SEP}${locator}${button}`);
        lines.push(`${SEP}Pointer Release${SEP}x=\${${action.to.x}}${SEP}y=\${${action.to.y}}${button}`);
        break;
      }
      case 'assert':
        lines.push(`${SEP}\${value}=${SEP}Get Attribute${SEP}${locator}${SEP}${action.attribute}`);
        lines.push(`${SEP}Should Be Equal As Strings${SEP}\${value}${SEP}${robotCell(action.expected)}`);
        break;
    }
  });
  return `${lines.join('\n')}\n`;
}

// --- Python (platynui_native) ---

function pythonTypedExpression(parts: readonly TypedPart[]): string {
  const pieces = parts.map((part) =>
    part.kind === 'secret'
      ? `sequence_text(os.environ[${pythonString(part.variable)}])`
      : pythonString(keyboardSequence([part], () => '')),
  );
  return pieces.length === 0 ? '""' : pieces.join(' + ');
}

export function renderRecordingPython(steps: readonly RecordedStep[]): string {
  const secrets = secretVariables(steps);
  const lines = [
    '#!/usr/bin/env python3',
    '"""Recorded by PlatynUI Inspector: replays the steps with platynui_native."""',
    'import os',
    'import sys',
    'import time',
    '',
    'from platynui_native import Point, PointerButton, Runtime, UiNode',
    '',
    ...(secrets.length > 0
      ? [`# Text typed into secure fields is never recorded: set ${secrets.join(', ')} in the environment.`, '']
      : []),
    '',
    'def find(rt, xpath, timeout=10.0):',
    '    """The node the locator selects, waiting for it to appear."""',
    '    deadline = time.monotonic() + timeout',
    '    while True:',
    '        node = rt.evaluate_single(xpath)',
    '        if isinstance(node, UiNode):',
    '            return node',
    '        if time.monotonic() > deadline:',
    '            raise LookupError(f"not found: {xpath}")',
    '        time.sleep(0.2)',
    '',
    '',
    ...PYTHON_CLICK_POINT,
    'def sequence_text(text):',
    '    """Literal text in a keyboard sequence: "<", ">" and backslashes escaped."""',
    '    return "".join("\\\\" + ch if ch in "\\\\<>" else ch for ch in text)',
    '',
    '',
    'def main() -> int:',
    '    rt = Runtime()',
  ];
  steps.forEach((step, index) => {
    const { title, missing } = stepHeading(step, index);
    lines.push(`    # ${oneLine(title)}`);
    if (missing) {
      lines.push(`    # ${NO_LOCATOR}`);
      return;
    }
    lines.push(`    node = find(rt, ${pythonString(bestXPath(step.target)!)})`);
    const action = step.action;
    switch (action.kind) {
      case 'click': {
        const button = `PointerButton.${action.button.toUpperCase()}`;
        lines.push('    if hasattr(rt, "bring_to_front"):', '        rt.bring_to_front(node)');
        lines.push(
          action.count > 1
            ? `    rt.pointer_multi_click(click_point(node), ${action.count}, ${button})`
            : `    rt.pointer_click(click_point(node), ${button})`,
        );
        break;
      }
      case 'type':
        lines.push('    rt.focus(node)', `    rt.keyboard_type(${pythonTypedExpression(action.parts)})`);
        break;
      case 'focus':
        lines.push('    rt.focus(node)');
        break;
      case 'select':
        // platynui_native has no selection call: a click selects the item.
        lines.push('    rt.pointer_click(click_point(node), PointerButton.LEFT)');
        break;
      case 'scroll':
        // One wheel notch is 120 units, down and right negative (platynui's scroll_step convention).
        lines.push(
          '    rt.pointer_move_to(click_point(node))',
          `    rt.pointer_scroll((${-action.deltaX * 120}, ${-action.deltaY * 120}))`,
        );
        break;
      case 'drag': {
        const button = `PointerButton.${action.button.toUpperCase()}`;
        lines.push(
          `    rt.pointer_press(click_point(node), ${button})`,
          `    rt.pointer_release(Point(${action.to.x}, ${action.to.y}), ${button})`,
        );
        break;
      }
      case 'assert':
        lines.push(
          `    value = node.attribute(${pythonString(action.attribute)})`,
          `    assert str(value) == ${pythonString(action.expected)}, f"${action.attribute} is {value!r}"`,
        );
        break;
    }
  });
  lines.push('    return 0', '', '', 'if __name__ == "__main__":', '    sys.exit(main())', '');
  return lines.join('\n');
}

// --- dogtail ---

/** dogtail's names for the keys of the sequence syntax (rawinput.pressKey / keyCombo take X keysym names). */
const DOGTAIL_KEYS: { readonly [key: string]: string } = {
  Enter: 'Return',
  Escape: 'Escape',
  Backspace: 'BackSpace',
  PageUp: 'Page_Up',
  PageDown: 'Page_Down',
  Ctrl: 'Control',
  Space: 'space',
};

function dogtailKey(key: string): string {
  return DOGTAIL_KEYS[key] ?? key;
}

function dogtailTyping(parts: readonly TypedPart[]): string[] {
  return parts.map((part) => {
    if (part.kind === 'text') return `    rawinput.typeText(${pythonString(part.text)})`;
    if (part.kind === 'secret') return `    rawinput.typeText(os.environ[${pythonString(part.variable)}])`;
    const keys = part.keys.map(dogtailKey);
    if (keys.length === 1) return `    rawinput.pressKey(${pythonString(keys[0]!)})`;
    const combo = keys
      .slice(0, -1)
      .map((key) => `<${key}>`)
      .join('');
    return `    rawinput.keyCombo(${pythonString(`${combo}${keys.at(-1)!}`)})`;
  });
}

/**
 * A double (triple ...) click paced like a person's and like this project's own pointer: each click a press and a
 * release, 70 ms between clicks, all inside the double-click time. dogtail's doubleClick sends its four button
 * events within 3 ms, which a busy application was seen to take as one click.
 */
const DOGTAIL_MULTI_CLICK: readonly string[] = [
  'def multi_click(node, button, count):',
  '    """`count` clicks at the centre of the node, 70 ms apart: one double (triple ...) click."""',
  '    x = node.position[0] + node.size[0] / 2',
  '    y = node.position[1] + node.size[1] / 2',
  '    rawinput.point(x, y)',
  '    for click in range(count):',
  '        if click > 0:',
  '            time.sleep(0.07)',
  '        rawinput.registry.generateMouseEvent(x, y, "b%sc" % button)',
  '    time.sleep(config.actionDelay)',
  '',
  '',
];

/** Wheel steps as X11 wheel buttons (4 up, 5 down, 6 left, 7 right) clicked at the centre of the node. */
function dogtailScroll(action: ScrollAction): string[] {
  const lines = ['    x, y = node.position[0] + node.size[0] / 2, node.position[1] + node.size[1] / 2'];
  const axes: Array<[number, number, number]> = [
    [action.deltaX, 6, 7],
    [action.deltaY, 4, 5],
  ];
  for (const [delta, negative, positive] of axes) {
    if (delta === 0) continue;
    lines.push(
      `    for _ in range(${Math.abs(delta)}):`,
      `        rawinput.click(x, y, ${delta < 0 ? negative : positive})`,
    );
  }
  return lines;
}

function dogtailFinder(target: ExportTarget): string[] {
  return target.dogtail ? dogtailSearch(target.dogtail) : [];
}

export function renderRecordingDogtail(steps: readonly RecordedStep[]): string {
  const secrets = secretVariables(steps);
  const lines = [
    '#!/usr/bin/python3',
    '"""Recorded by PlatynUI Inspector: replays the steps with dogtail."""',
    'import os',
    'import sys',
    'import time',
    ...dogtailPrelude('predicate, rawinput, tree'),
    ...(secrets.length > 0
      ? [`# Text typed into secure fields is never recorded: set ${secrets.join(', ')} in the environment.`, '']
      : []),
    '',
    ...DOGTAIL_NTH,
    ...(steps.some((step) => step.action.kind === 'click' && step.action.count > 1) ? DOGTAIL_MULTI_CLICK : []),
    'def main():',
  ];
  steps.forEach((step, index) => {
    const { title } = stepHeading(step, index);
    lines.push(`    # ${oneLine(title)}`);
    const finder = dogtailFinder(step.target);
    if (finder.length === 0) {
      lines.push('    # left out: no application above the element, so dogtail cannot find it');
      return;
    }
    lines.push(...finder);
    const action = step.action;
    switch (action.kind) {
      case 'click': {
        const button = action.button === 'left' ? 1 : action.button === 'middle' ? 2 : 3;
        lines.push(
          action.count > 1 ? `    multi_click(node, ${button}, ${action.count})` : `    node.click(${button})`,
        );
        break;
      }
      case 'type':
        lines.push('    node.grabFocus()', ...dogtailTyping(action.parts));
        break;
      case 'focus':
        lines.push('    node.grabFocus()');
        break;
      case 'select':
        lines.push('    node.select()');
        break;
      case 'scroll':
        lines.push(...dogtailScroll(action));
        break;
      case 'drag': {
        const button = action.button === 'left' ? 1 : action.button === 'middle' ? 2 : 3;
        lines.push(
          '    x, y = node.position[0] + node.size[0] / 2, node.position[1] + node.size[1] / 2',
          `    rawinput.drag((x, y), (${action.to.x}, ${action.to.y}), ${button})`,
        );
        break;
      }
      case 'assert': {
        const read =
          action.attribute === 'Name'
            ? 'node.name'
            : action.attribute === 'Value'
              ? 'node.text'
              : `str(node.${{ IsEnabled: 'sensitive', IsChecked: 'checked', IsSelected: 'selected', IsFocused: 'focused' }[action.attribute]}).lower()`;
        lines.push(
          `    value = ${read}`,
          `    assert value == ${pythonString(action.expected)}, f"${action.attribute} is {value!r}"`,
        );
        break;
      }
    }
  });
  lines.push('    return 0', '', '', 'if __name__ == "__main__":', '    sys.exit(main())', '');
  return lines.join('\n');
}

// --- shell script of this CLI's commands ---

/** A POSIX shell word holding the text as is. */
export function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function shellTyped(parts: readonly TypedPart[]): string {
  return parts
    .map((part) =>
      part.kind === 'secret' ? `"$(sequence_text "$${part.variable}")"` : shellWord(keyboardSequence([part], () => '')),
    )
    .join('');
}

export function renderRecordingCli(steps: readonly RecordedStep[]): string {
  const secrets = secretVariables(steps);
  const lines = [
    '#!/bin/sh',
    '# Recorded by PlatynUI Inspector: replays the steps with platynui-inspector commands.',
    '# PLATYNUI_INSPECTOR names the command (default: platynui-inspector on PATH).',
    'set -eu',
    'PLATYNUI="${PLATYNUI_INSPECTOR:-platynui-inspector}"',
    '',
  ];
  for (const name of secrets)
    lines.push(`: "\${${name}:?set ${name}: the text typed into a secure field is never recorded}"`);
  lines.push(
    '',
    '# Runs a command until it succeeds (its element may still be on its way), at most 25 tries.',
    'errors=$(mktemp)',
    'trap \'rm -f "$errors"\' EXIT',
    'retry() {',
    '  tries=1',
    '  until "$@" 2>"$errors"; do',
    '    tries=$((tries + 1))',
    '    if [ "$tries" -gt 25 ]; then cat "$errors" >&2; exit 1; fi',
    '    sleep 0.4',
    '  done',
    '}',
    '',
    '# Literal text in a keyboard sequence: "<", ">" and backslashes escaped.',
    "sequence_text() { printf '%s' \"$1\" | sed 's/[\\\\<>]/\\\\&/g'; }",
    '',
  );
  steps.forEach((step, index) => {
    const { title, missing } = stepHeading(step, index);
    lines.push(`# ${oneLine(title)}`);
    if (missing) {
      lines.push(`# ${NO_LOCATOR}`);
      return;
    }
    const xpath = shellWord(bestXPath(step.target)!);
    const action = step.action;
    switch (action.kind) {
      case 'click': {
        const button = action.button === 'left' ? '' : ` --button ${action.button}`;
        if (action.count === 1) lines.push(`retry "$PLATYNUI" pointer click ${xpath}${button}`);
        else if (action.count === 2) lines.push(`retry "$PLATYNUI" pointer double-click ${xpath}${button}`);
        else lines.push(`retry "$PLATYNUI" pointer multi-click ${xpath} --count ${action.count}${button}`);
        break;
      }
      case 'type':
        lines.push(`retry "$PLATYNUI" focus ${xpath}`, `"$PLATYNUI" keyboard type ${shellTyped(action.parts)}`);
        break;
      case 'focus':
        lines.push(`retry "$PLATYNUI" focus ${xpath}`);
        break;
      case 'select':
        lines.push(`retry "$PLATYNUI" select ${xpath}`);
        break;
      case 'scroll':
        lines.push(`retry "$PLATYNUI" pointer scroll ${xpath} --delta=${action.deltaX},${action.deltaY}`);
        break;
      case 'drag': {
        const button = action.button === 'left' ? '' : ` --button ${action.button}`;
        lines.push(`retry "$PLATYNUI" pointer drag ${xpath} --to=${action.to.x},${action.to.y}${button}`);
        break;
      }
      case 'assert': {
        const query = shellWord(`string((${bestXPath(step.target)!})/@${action.attribute})`);
        lines.push(
          `value=$("$PLATYNUI" query ${query})`,
          `[ "$value" = ${shellWord(action.expected)} ] || { echo "${action.attribute} is $value" >&2; exit 1; }`,
        );
        break;
      }
    }
  });
  lines.push('');
  return lines.join('\n');
}

export function renderRecording(format: RecordingFormat, steps: readonly RecordedStep[]): string {
  switch (format) {
    case 'robot':
      return renderRecordingRobot(steps);
    case 'python':
      return renderRecordingPython(steps);
    case 'dogtail':
      return renderRecordingDogtail(steps);
    case 'cli':
      return renderRecordingCli(steps);
  }
}
