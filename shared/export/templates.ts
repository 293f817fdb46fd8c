// What the Robot Framework and Python templates call, checked against the public PlatynUI sources (the library itself
// cannot be installed here; only npm and Debian are reachable), repository d-biehl/robotframework-platynui:
// - src/PlatynUI/BareMetal/__init__.py (commit 069e370071d9): `Library    PlatynUI.BareMetal` (class BareMetal),
//   keywords `Query    expression    root=None    only_first=False` (only_first returns the node or None),
//   `Highlight    descriptor    duration=1.0`, `Get Attribute    descriptor    attribute_name` (returns the value),
//   `Pointer Click    descriptor` (ActivationPoint, else the centre of Bounds; brings the window to front first),
//   `Focus    descriptor`, `Keyboard Type    descriptor    text` (focuses the descriptor itself, then types);
//   a descriptor may be an XPath string (converted to a lazily resolved node, retried up to 30 s). There is no
//   `Activate` keyword: `Activate Window` works on windows (Activatable pattern), so exports do not use it.
// - packages/native/python/platynui_native/_native.pyi (same commit): `Runtime()`, `evaluate_single(xpath,
//   node=None)` returning a UiNode, an attribute, a value or None; `UiNode.role`, `.name`, `.attribute(name,
//   namespace=None)`; `Point`, `Rect.center()`; `Runtime.focus(node)`, `bring_to_front(node, wait_ms=None)`,
//   `pointer_click(point=None, button=None, overrides=None)`, `keyboard_type(sequence, overrides=None)`. An older
//   stub (__init__.pyi, commit 03bd173342) has no bring_to_front, so the script calls it only when present.
// - crates/runtime/src/keyboard_sequence.pest (commit dee59001dc81): typed sequences treat `<...>` as shortcuts and
//   a backslash as an escape, so literal text is escaped with platynuiKeyboardText.
// - crates/xpath/src/engine/functions/mod.rs (commit 1be29158ea3d): `contains` and `starts-with` exist; the
//   namespaces control (default), item, app and native are those the locators use.
// shared/export/test/export.test.ts runs the Python output against a stub with exactly these signatures.
import { InspectorError } from '../model/errors.js';
import { qualifiedRole, type Namespace } from '../model/namespaces.js';
import type { Locator } from '../locators/generate.js';
import type { DogtailPath } from './dogtail.js';

export const EXPORT_FORMATS = ['json', 'xpath', 'robot', 'python', 'dogtail'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type ExportAction = { kind: 'none' } | { kind: 'click' } | { kind: 'focus' } | { kind: 'type'; text: string };

export function parseExportFormat(value: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(value)) {
    throw new InspectorError('usage', `--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${value}"`);
  }
  return value as ExportFormat;
}

export function parseExportAction(value: string): ExportAction {
  if (value === 'none' || value === 'click' || value === 'focus') return { kind: value };
  if (value.startsWith('type:')) return { kind: 'type', text: value.slice('type:'.length) };
  throw new InspectorError('usage', `--action must be none, click, focus or type:<text>, got "${value}"`);
}

/** What an export needs to know about one node. */
export interface ExportTarget {
  runtimeId: string;
  namespace: Namespace;
  role: string;
  name: string;
  /** Verified locators, best first. */
  locators: readonly Locator[];
  /** How dogtail reaches the node (its application and the named ancestors on the way). */
  dogtail?: DogtailPath;
}

function label(target: ExportTarget): string {
  const role = qualifiedRole(target.namespace, target.role);
  return target.name ? `${role} "${target.name}"` : role;
}

function best(target: ExportTarget): string {
  const locator = target.locators[0];
  if (!locator) throw new InspectorError('unsupported', `no unique locator was found for ${label(target)}`);
  return locator.xpath;
}

/** `[{"runtimeId","role","name","locators":[...]}]`, best first. */
export function renderJson(targets: readonly ExportTarget[]): string {
  const out = targets.map((target) => ({
    runtimeId: target.runtimeId,
    role: qualifiedRole(target.namespace, target.role),
    name: target.name,
    locators: target.locators.map((l) => ({
      xpath: l.xpath,
      strategy: l.strategy,
      reason: l.reason,
      score: l.score,
      matches: l.matches,
    })),
  }));
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** The best locator of each node, one per line. */
export function renderXPath(targets: readonly ExportTarget[]): string {
  return targets.map((target) => `${best(target)}\n`).join('');
}

/**
 * A Robot Framework cell: `\` and variable starts escaped, runs of spaces kept with `${SPACE}`, control
 * characters as escapes, a leading `#` or empty value made explicit.
 */
export function robotCell(text: string): string {
  if (text === '') return '${EMPTY}';
  let out = text
    .replace(/\\/g, '\\\\')
    .replace(/([$@&%])\{/g, '\\$1{')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/[\u0000-\u001f\u007f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/ {2,}/g, (run) => ` ${'${SPACE}'.repeat(run.length - 1)}`);
  if (out.startsWith(' ')) out = `\${SPACE}${out.slice(1)}`;
  if (out.endsWith(' ')) out = `${out.slice(0, -1)}\${SPACE}`;
  if (out.startsWith('#')) out = `\\${out}`;
  if (out === '...' || out.startsWith('=')) out = `\\${out}`;
  return out;
}

function robotTestName(text: string, index: number): string {
  const clean = text
    .replace(/[^\p{L}\p{N} _.:-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${index + 1} ${clean || 'Node'}`.slice(0, 100);
}

/**
 * Text for PlatynUI's keyboard sequences (Keyboard Type, Runtime.keyboard_type) typed literally: `<` would open a
 * shortcut such as `<Ctrl+A>` and a backslash an escape, so both (and `>`) get a backslash in front.
 */
export function platynuiKeyboardText(text: string): string {
  return text.replace(/[\\<>]/g, (ch) => `\\${ch}`);
}

/** A Robot Framework suite using PlatynUI.BareMetal: query, highlight, read the name, then the chosen action. */
export function renderRobot(targets: readonly ExportTarget[], action: ExportAction): string {
  const SEP = '    ';
  const lines = [
    '*** Settings ***',
    `Documentation${SEP}Generated by PlatynUI Inspector: robust locators, verified against the live tree.`,
    `Library${SEP}PlatynUI.BareMetal`,
    '',
    '*** Variables ***',
  ];
  targets.forEach((target, index) => lines.push(`\${LOCATOR_${index + 1}}${SEP}${robotCell(best(target))}`));
  lines.push('', '*** Test Cases ***');
  targets.forEach((target, index) => {
    const variable = `\${LOCATOR_${index + 1}}`;
    lines.push(`Find ${robotTestName(label(target), index)}`);
    lines.push(
      `${SEP}[Documentation]${SEP}${robotCell(`Finds ${label(target)} (${target.locators[0]?.reason ?? ''})`)}`,
    );
    lines.push(`${SEP}\${node}=${SEP}Query${SEP}${variable}${SEP}only_first=\${True}`);
    lines.push(
      `${SEP}Should Not Be Equal${SEP}\${node}${SEP}\${None}${SEP}msg=${robotCell(`${label(target)} not found`)}`,
    );
    lines.push(`${SEP}Highlight${SEP}${variable}`);
    lines.push(`${SEP}\${name}=${SEP}Get Attribute${SEP}${variable}${SEP}Name`);
    lines.push(`${SEP}Should Be Equal${SEP}\${name}${SEP}${robotCell(target.name)}`);
    if (action.kind === 'click') lines.push(`${SEP}Pointer Click${SEP}${variable}`);
    if (action.kind === 'focus') lines.push(`${SEP}Focus${SEP}${variable}`);
    // Keyboard Type focuses its descriptor before typing.
    if (action.kind === 'type')
      lines.push(`${SEP}Keyboard Type${SEP}${variable}${SEP}${robotCell(platynuiKeyboardText(action.text))}`);
    lines.push('');
  });
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A Python string literal for any text (JSON string escapes are valid Python escapes). */
export function pythonString(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A runnable Python script using platynui_native: finds each node, prints role and name, performs the action. */
export function renderPython(targets: readonly ExportTarget[], action: ExportAction): string {
  const lines = [
    '#!/usr/bin/env python3',
    '"""Generated by PlatynUI Inspector: finds the nodes with platynui_native and prints their role and name."""',
    'import sys',
    '',
    'from platynui_native import Point, Runtime, UiNode',
    '',
    'LOCATORS = [',
    ...targets.map((target) => `    (${pythonString(label(target))}, ${pythonString(best(target))}),`),
    ']',
    ...(action.kind === 'type'
      ? [
          '# A keyboard sequence: "<...>" would be a shortcut, so "<", ">" and backslashes are escaped to type it as is.',
          `TEXT = ${pythonString(platynuiKeyboardText(action.text))}`,
        ]
      : []),
    '',
    '',
    ...(action.kind === 'click' ? PYTHON_CLICK_POINT : []),
    'def main() -> int:',
    '    rt = Runtime()',
    '    missing = 0',
    '    for label, xpath in LOCATORS:',
    '        node = rt.evaluate_single(xpath)',
    '        if not isinstance(node, UiNode):',
    '            print(f"not found: {label}: {xpath}", file=sys.stderr)',
    '            missing += 1',
    '            continue',
    '        print(f"{node.role}\\t{node.name}")',
  ];
  if (action.kind === 'click')
    lines.push(
      '        if hasattr(rt, "bring_to_front"):  # newer platynui_native; Pointer Click does the same',
      '            rt.bring_to_front(node)',
      '        rt.pointer_click(click_point(node))',
    );
  if (action.kind === 'focus') lines.push('        rt.focus(node)');
  if (action.kind === 'type') lines.push('        rt.focus(node)', '        rt.keyboard_type(TEXT)');
  lines.push('    return 1 if missing else 0', '', '', 'if __name__ == "__main__":', '    sys.exit(main())', '');
  return lines.join('\n');
}

/** Python that finds where to click a platynui_native node (the function `click_point`), as PlatynUI.BareMetal does. */
export const PYTHON_CLICK_POINT: readonly string[] = [
  'def click_point(node):',
  '    """The ActivationPoint when the node has one, else the centre of its Bounds (as PlatynUI.BareMetal)."""',
  '    try:',
  '        point = node.attribute("ActivationPoint")',
  '    except Exception:  # the attribute is missing',
  '        point = None',
  '    if isinstance(point, Point):',
  '        return point',
  '    return node.attribute("Bounds").center()',
  '',
  '',
];

/** dogtail's configuration for these scripts and the import of the modules named (after the configuration). */
export function dogtailPrelude(modules: string): string[] {
  return [
    '',
    'from dogtail.config import config',
    '',
    '# The desktop session may not set the GSettings key dogtail checks; the accessibility bus is what matters.',
    'config.checkForA11y = False',
    'config.logDebugToFile = False',
    'config.searchCutoffCount = 10',
    '',
    `from dogtail import ${modules}  # noqa: E402  (after the configuration)`,
    '',
  ];
}

/** The Python function `nth(nodes, index, what)` the dogtail searches use for a match after the first. */
export const DOGTAIL_NTH: readonly string[] = [
  'def nth(nodes, index, what):',
  '    if len(nodes) <= index:',
  '        raise LookupError(f"expected at least {index + 1} {what} nodes, found {len(nodes)}")',
  '    return nodes[index]',
  '',
  '',
];

/** Python lines (indented once) that set `node` to the element a dogtail path leads to. */
export function dogtailSearch(path: DogtailPath): string[] {
  const lines = [
    path.application === undefined
      ? '    node = tree.root'
      : `    node = tree.root.application(${pythonString(path.application)})`,
  ];
  for (const step of path.steps) {
    const pred = `predicate.GenericPredicate(roleName=${pythonString(step.roleName)}${step.name ? `, name=${pythonString(step.name)}` : ''})`;
    lines.push(
      step.index === 0
        ? `    node = node.findChild(${pred}, recursive=True, retry=True)`
        : `    node = nth(node.findChildren(${pred}, recursive=True), ${step.index}, ${pythonString(step.roleName)})`,
    );
  }
  return lines;
}

/** A complete dogtail script: finds each node in its application, prints role and name, performs the action. */
export function renderDogtail(targets: readonly ExportTarget[], action: ExportAction): string {
  const finders = targets.map((target, index) => {
    const path = target.dogtail;
    if (!path)
      throw new InspectorError('unsupported', `${label(target)} has no dogtail path (no application above it)`);
    const body = [`def find_${index + 1}():`, `    ${pythonString(`Finds ${label(target)}.`)}`];
    body.push(...dogtailSearch(path));
    body.push('    return node', '', '');
    return body.join('\n');
  });
  const lines = [
    '#!/usr/bin/python3',
    '"""Generated by PlatynUI Inspector: finds the nodes with dogtail and prints their role and name."""',
    'import sys',
    ...dogtailPrelude('predicate, tree'),
    ...(action.kind === 'type' ? [`TEXT = ${pythonString(action.text)}`, ''] : []),
    '',
    ...DOGTAIL_NTH,
    ...finders,
    'def main():',
    `    for find in (${targets.map((_, index) => `find_${index + 1}`).join(', ')},):`,
    '        node = find()',
    '        print(f"{node.roleName}\\t{node.name}")',
  ];
  if (action.kind === 'click') lines.push('        node.click()');
  if (action.kind === 'focus') lines.push('        node.grabFocus()');
  if (action.kind === 'type') lines.push('        node.grabFocus()', '        node.typeText(TEXT)');
  lines.push('    return 0', '', '', 'if __name__ == "__main__":', '    sys.exit(main())', '');
  return lines.join('\n');
}

export function renderExport(format: ExportFormat, targets: readonly ExportTarget[], action: ExportAction): string {
  switch (format) {
    case 'json':
      return renderJson(targets);
    case 'xpath':
      return renderXPath(targets);
    case 'robot':
      return renderRobot(targets, action);
    case 'python':
      return renderPython(targets, action);
    case 'dogtail':
      return renderDogtail(targets, action);
  }
}
