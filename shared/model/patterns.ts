import { AttributeNames as A } from './attributes.js';

/** The pattern catalog of the PlatynUI architecture: what each capability promises and what it can do. */

export type PatternKind = 'client' | 'runtime';

export interface PatternDefinition {
  name: string;
  kind: PatternKind;
  required: readonly string[];
  optional: readonly string[];
  /** Attribute values the pattern requires, e.g. TextEditable needs IsReadOnly=false. */
  requiredValues?: { readonly [attribute: string]: boolean };
  actions: readonly string[];
}

const def = (
  name: string,
  kind: PatternKind,
  required: string[],
  optional: string[] = [],
  actions: string[] = [],
  requiredValues?: { [attribute: string]: boolean },
): PatternDefinition => ({ name, kind, required, optional, actions, ...(requiredValues ? { requiredValues } : {}) });

export const PATTERN_CATALOG: readonly PatternDefinition[] = [
  def('Element', 'client', [A.Bounds, A.IsVisible, A.IsEnabled], [A.IsInView, A.Technology]),
  def('Desktop', 'client', [A.Bounds, A.OsVersion, A.Monitors]),
  def('TextContent', 'client', [A.Text]),
  def('TextEditable', 'runtime', [A.Text, A.IsReadOnly], [A.MaxLength], ['setValue'], { [A.IsReadOnly]: false }),
  def('Clearable', 'runtime', [], [], ['clear']),
  def('TextSelection', 'client', [A.SelectedText, A.SelectionStart, A.SelectionEnd]),
  def('Selectable', 'runtime', [A.IsSelected], [], ['select']),
  def('SelectionProvider', 'client', [A.SelectedItems, A.CanSelectMultiple]),
  def('Toggleable', 'runtime', [A.ToggleState], [], ['toggle']),
  def('StatefulValue', 'runtime', [A.Value], [A.MinValue, A.MaxValue], ['setValue']),
  def('Activatable', 'runtime', [], [A.IsTopmost], ['activate']),
  def('ActivationTarget', 'client', [A.ActivationPoint], [A.ActivationArea]),
  def('Focusable', 'runtime', [A.IsFocused], [], ['focus']),
  def(
    'Scrollable',
    'runtime',
    [A.ScrollHorizontalPercent, A.ScrollVerticalPercent, A.ScrollHorizontalViewSize, A.ScrollVerticalViewSize],
    [A.HorizontallyScrollable, A.VerticallyScrollable],
    ['scroll'],
  ),
  def('Expandable', 'runtime', [A.IsExpanded], [], ['expand', 'collapse']),
  /** Scrolls the element's scrolling ancestors until it is in view (UI Automation's ScrollItem, AT-SPI ScrollTo). */
  def('ScrollItem', 'runtime', [], [], ['scrollIntoView']),
  def('ItemContainer', 'client', []),
  def('Minimizable', 'runtime', [], [A.IsMinimized], ['minimize']),
  def('Maximizable', 'runtime', [], [A.IsMaximized], ['maximize']),
  def('Restorable', 'runtime', [], [], ['restore']),
  def('Closeable', 'runtime', [], [], ['close']),
  def('Movable', 'runtime', [], [], ['move']),
  def('Resizable', 'runtime', [], [], ['resize']),
  def('Responsive', 'runtime', [], [], ['acceptsUserInput']),
  def('DialogSurface', 'client', [], [A.DialogResult]),
  def('Application', 'client', [A.ProcessId], [A.ProcessName, A.ExecutablePath, A.CommandLine]),
  def('Highlightable', 'runtime', [], [], ['highlight']),
  def('Annotatable', 'client', []),
];

const byName = new Map(PATTERN_CATALOG.map((pattern) => [pattern.name, pattern]));

export function patternDefinition(name: string): PatternDefinition | undefined {
  return byName.get(name);
}

export const PATTERN_NAMES: readonly string[] = PATTERN_CATALOG.map((pattern) => pattern.name);

/** Every action a pattern declares, with the pattern that owns it. */
export function actionOwner(action: string): PatternDefinition | undefined {
  return PATTERN_CATALOG.find((pattern) => pattern.actions.includes(action));
}

export interface PatternViolation {
  pattern: string;
  problem: 'unknown-pattern' | 'missing-attribute' | 'wrong-value';
  attribute?: string;
  message: string;
}

/**
 * Checks that a node's SupportedPatterns are honest: each pattern it claims is in the catalog and every attribute
 * the pattern requires is present (with the required value where the catalog names one).
 */
export function checkPatternContract(
  supportedPatterns: readonly string[],
  controlAttributes: ReadonlyMap<string, unknown>,
): PatternViolation[] {
  const violations: PatternViolation[] = [];
  for (const name of supportedPatterns) {
    const pattern = byName.get(name);
    if (!pattern) {
      violations.push({ pattern: name, problem: 'unknown-pattern', message: `pattern ${name} is not in the catalog` });
      continue;
    }
    for (const attribute of pattern.required) {
      if (!controlAttributes.has(attribute)) {
        violations.push({
          pattern: name,
          problem: 'missing-attribute',
          attribute,
          message: `pattern ${name} requires attribute ${attribute}, which the node does not have`,
        });
      }
    }
    for (const [attribute, expected] of Object.entries(pattern.requiredValues ?? {})) {
      const actual = controlAttributes.get(attribute);
      if (actual !== undefined && actual !== expected) {
        violations.push({
          pattern: name,
          problem: 'wrong-value',
          attribute,
          message: `pattern ${name} requires ${attribute}=${String(expected)}, the node has ${String(actual)}`,
        });
      }
    }
  }
  return violations;
}
