import type { Namespace } from './namespaces.js';
import type { UiValue } from './values.js';
import { parseValueText, uiInteger, uiNumber } from './values.js';

/** Canonical attribute names (PascalCase), so that no part of the code spells them by hand. */
export const AttributeNames = {
  RuntimeId: 'RuntimeId',
  Name: 'Name',
  Role: 'Role',
  Id: 'Id',
  Description: 'Description',
  Technology: 'Technology',
  Bounds: 'Bounds',
  ActivationPoint: 'ActivationPoint',
  ActivationArea: 'ActivationArea',
  IsVisible: 'IsVisible',
  IsEnabled: 'IsEnabled',
  IsInView: 'IsInView',
  IsFocused: 'IsFocused',
  IsSelected: 'IsSelected',
  IsExpanded: 'IsExpanded',
  IsReadOnly: 'IsReadOnly',
  IsSecure: 'IsSecure',
  IsOffscreen: 'IsOffscreen',
  ToggleState: 'ToggleState',
  Text: 'Text',
  SelectedText: 'SelectedText',
  SelectionStart: 'SelectionStart',
  SelectionEnd: 'SelectionEnd',
  SelectedItems: 'SelectedItems',
  CanSelectMultiple: 'CanSelectMultiple',
  Value: 'Value',
  MinValue: 'MinValue',
  MaxValue: 'MaxValue',
  MaxLength: 'MaxLength',
  OsVersion: 'OsVersion',
  Monitors: 'Monitors',
  ProcessId: 'ProcessId',
  ProcessName: 'ProcessName',
  ExecutablePath: 'ExecutablePath',
  CommandLine: 'CommandLine',
  UserName: 'UserName',
  StartTime: 'StartTime',
  Architecture: 'Architecture',
  IsResponding: 'IsResponding',
  SupportedPatterns: 'SupportedPatterns',
  IsMinimized: 'IsMinimized',
  IsMaximized: 'IsMaximized',
  IsTopmost: 'IsTopmost',
  ScrollHorizontalPercent: 'ScrollHorizontalPercent',
  ScrollVerticalPercent: 'ScrollVerticalPercent',
  ScrollHorizontalViewSize: 'ScrollHorizontalViewSize',
  ScrollVerticalViewSize: 'ScrollVerticalViewSize',
  HorizontallyScrollable: 'HorizontallyScrollable',
  VerticallyScrollable: 'VerticallyScrollable',
  DialogResult: 'DialogResult',
  LabelledBy: 'LabelledBy',
  LabelFor: 'LabelFor',
  DescribedBy: 'DescribedBy',
} as const;

/** Attributes whose values are secret when the node is secure: never read, never shown. */
export const SECRET_ATTRIBUTE_NAMES: ReadonlySet<string> = new Set([
  AttributeNames.Text,
  AttributeNames.Value,
  AttributeNames.SelectedText,
]);

/** The state flags written by `snapshot --attrs default`. */
export const STATE_ATTRIBUTE_NAMES: readonly string[] = [
  AttributeNames.IsEnabled,
  AttributeNames.IsVisible,
  AttributeNames.IsFocused,
  AttributeNames.IsSelected,
  AttributeNames.IsExpanded,
  AttributeNames.ToggleState,
  AttributeNames.IsInView,
  AttributeNames.IsReadOnly,
  AttributeNames.IsSecure,
];

export interface AttributeEntry {
  namespace: Namespace;
  name: string;
  value: UiValue;
  /** True for aliases the runtime derives from a structured value (Bounds.X ...). */
  derived?: boolean;
}

/**
 * The typed value of an attribute an XPath answered as text: the owner's own entry in that namespace when it has one,
 * else the text read as a value.
 */
export function attributeValueOf(entries: readonly AttributeEntry[], namespace: Namespace, text: string): UiValue {
  return entries.find((entry) => entry.namespace === namespace)?.value ?? parseValueText(text);
}

const RECT_PARTS = [
  ['X', 'x'],
  ['Y', 'y'],
  ['Width', 'width'],
  ['Height', 'height'],
] as const;
const POINT_PARTS = [
  ['X', 'x'],
  ['Y', 'y'],
] as const;
const SIZE_PARTS = [
  ['Width', 'width'],
  ['Height', 'height'],
] as const;

function numeric(value: number): UiValue {
  return Number.isInteger(value) ? uiInteger(value) : uiNumber(value);
}

/**
 * The alias attributes the runtime synthesizes from a structured value: `Bounds.X/Y/Width/Height` from a Rect,
 * `ActivationPoint.X/Y` from a Point, `.Width/.Height` from a Size. Providers never produce these themselves.
 */
export function deriveAliases(namespace: Namespace, name: string, value: UiValue): AttributeEntry[] {
  const make = (part: string, component: number): AttributeEntry => ({
    namespace,
    name: `${name}.${part}`,
    value: numeric(component),
    derived: true,
  });
  switch (value.type) {
    case 'Rect':
      return RECT_PARTS.map(([part, key]) => make(part, value.value[key]));
    case 'Point':
      return POINT_PARTS.map(([part, key]) => make(part, value.value[key]));
    case 'Size':
      return SIZE_PARTS.map(([part, key]) => make(part, value.value[key]));
    default:
      return [];
  }
}

/** True when a name has the shape of a derived alias (`Bounds.X`), which providers must not supply. */
export function isAliasName(name: string): boolean {
  return /\.(X|Y|Width|Height)$/.test(name);
}

/** Adds the derived aliases after each structured attribute, keeping the provider's order otherwise. */
export function withDerivedAliases(entries: readonly AttributeEntry[]): AttributeEntry[] {
  const out: AttributeEntry[] = [];
  for (const entry of entries) pushWithAliases(out, entry);
  return out;
}

/** Appends an entry and its derived aliases (only structured values have any: no list made for the others). */
export function pushWithAliases(out: AttributeEntry[], entry: AttributeEntry): void {
  out.push(entry);
  const type = entry.value.type;
  if (type === 'Rect' || type === 'Point' || type === 'Size') {
    for (const alias of deriveAliases(entry.namespace, entry.name, entry.value)) out.push(alias);
  }
}
