import { AttributeNames as A } from '../model/attributes.js';
import type { Rect, UiValue } from '../model/values.js';
import type { CheckNode } from './model.js';
import { qualifiedRole } from '../model/namespaces.js';

/**
 * What the rules ask of a node, read from its attributes in one place: the provider-neutral attributes first
 * (`SupportedPatterns`, `IsFocused`, `Bounds` ...), the native state set (`native:Accessible.States`, AT-SPI's names)
 * where a provider offers it.
 */

const NATIVE_STATES = 'native:Accessible.States';

function stringsOf(value: UiValue | undefined): ReadonlySet<string> {
  if (value?.type !== 'Array') return new Set();
  const out = new Set<string>();
  for (const item of value.value) if (item.type === 'String') out.add(item.value);
  return out;
}

const NO_STRINGS: ReadonlySet<string> = new Set();
/** The strings of a list value, made once per value: providers share one value among the nodes with the same list. */
const stringSets = new WeakMap<UiValue, ReadonlySet<string>>();

function stringSetOf(value: UiValue | undefined): ReadonlySet<string> {
  if (value?.type !== 'Array') return NO_STRINGS;
  let set = stringSets.get(value);
  if (!set) stringSets.set(value, (set = stringsOf(value)));
  return set;
}

/** The native state names (`focusable`, `checked` ...); empty where the provider reports none. */
export function nativeStates(node: CheckNode): ReadonlySet<string> {
  return stringSetOf(node.attributes.get(NATIVE_STATES));
}

export function hasNativeStates(node: CheckNode): boolean {
  return node.attributes.has(NATIVE_STATES);
}

export function patterns(node: CheckNode): ReadonlySet<string> {
  return stringSetOf(node.attributes.get(A.SupportedPatterns));
}

export function boolAttribute(node: CheckNode, name: string): boolean | undefined {
  const value = node.attributes.get(name);
  return value?.type === 'Bool' ? value.value : undefined;
}

export function numberAttribute(node: CheckNode, name: string): number | undefined {
  const value = node.attributes.get(name);
  return value?.type === 'Integer' || value?.type === 'Number' ? value.value : undefined;
}

export function stringAttribute(node: CheckNode, name: string): string | undefined {
  const value = node.attributes.get(name);
  return value?.type === 'String' ? value.value : undefined;
}

export function bounds(node: CheckNode): Rect | undefined {
  const value = node.attributes.get(A.Bounds);
  return value?.type === 'Rect' ? value.value : undefined;
}

export function isFocusable(node: CheckNode): boolean {
  return nativeStates(node).has('focusable') || patterns(node).has('Focusable');
}

export function isFocused(node: CheckNode): boolean {
  return boolAttribute(node, A.IsFocused) === true || nativeStates(node).has('focused');
}

export function isEnabled(node: CheckNode): boolean {
  const enabled = boolAttribute(node, A.IsEnabled);
  if (enabled !== undefined) return enabled;
  return !hasNativeStates(node) || nativeStates(node).has('enabled') || nativeStates(node).has('sensitive');
}

/** Shown on screen as far as the provider says: visible and not reported off screen. */
export function isShowing(node: CheckNode): boolean {
  // The node's state names are made into a set once (nativeStates), not on every question.
  if (node.attributes.get(NATIVE_STATES)) return nativeStates(node).has('showing') && nativeStates(node).has('visible');
  return isShowingByAttributes(node.attributes);
}

/** The attributes isShowingByAttributes reads, by key. */
export const SHOWING_ATTRIBUTE_KEYS: ReadonlySet<string> = new Set([NATIVE_STATES, A.IsVisible, A.IsOffscreen]);

/** isShowing over attributes keyed as a CheckNode keys them, also before the node is built (what to read of it). */
export function isShowingByAttributes(attributes: ReadonlyMap<string, UiValue>): boolean {
  const states = attributes.get(NATIVE_STATES);
  if (states) {
    const names = stringSetOf(states);
    return names.has('showing') && names.has('visible');
  }
  const visible = attributes.get(A.IsVisible);
  const offscreen = attributes.get(A.IsOffscreen);
  return visible?.type === 'Bool' && visible.value && !(offscreen?.type === 'Bool' && offscreen.value);
}

const ACTION_PATTERNS = ['Activatable', 'Toggleable', 'Selectable', 'Expandable', 'TextEditable', 'StatefulValue'];

/** Something a user acts on: it takes an action beyond being looked at. Windows and applications are not counted. */
export function isActionable(node: CheckNode): boolean {
  if (node.namespace === 'app' || isWindowLike(node)) return false;
  const supported = patterns(node);
  return ACTION_PATTERNS.some((pattern) => supported.has(pattern));
}

const WINDOW_ROLES = new Set(['Window', 'Frame', 'Dialog', 'Alert', 'FileChooser', 'ColorChooser', 'FontChooser']);

export function isWindowLike(node: CheckNode): boolean {
  return node.namespace === 'control' && WINDOW_ROLES.has(node.role);
}

/** The nearest window-like ancestor (or the node itself when it is one). */
export function windowOf(node: CheckNode): CheckNode | undefined {
  for (let current: CheckNode | undefined = node; current; current = current.parent) {
    if (isWindowLike(current)) return current;
  }
  return undefined;
}

/** `Button "OK"`, `item:ListItem` for messages. */
export function describeNode(node: CheckNode): string {
  const role = qualifiedRole(node.namespace, node.role);
  return node.name ? `${role} "${node.name}"` : role;
}

/** Names of nodes labelled by another node: a provider that reads label relations reports them here. */
export const LABELLED_BY = 'LabelledBy';

export function hasLabelRelation(node: CheckNode): boolean {
  const value = node.attributes.get(LABELLED_BY);
  return value !== undefined && value.type !== 'Null' && !(value.type === 'Array' && value.value.length === 0);
}

/** Texts that toolkits put where an author gave no name (Chromium's prompt for images without alt text ...). */
const TOOLKIT_MISSING_NAME_TEXTS: readonly RegExp[] = [
  /^To get missing image descriptions, open the context menu\.?$/i,
];

export function isToolkitMissingNameText(name: string): boolean {
  return TOOLKIT_MISSING_NAME_TEXTS.some((pattern) => pattern.test(name.trim()));
}

const TEXT_ROLES = new Set(['Static', 'Label', 'Paragraph', 'Heading', 'Caption']);

/** Text content (a static text, a label, a paragraph): what it says is its content, not a control's name. */
export function isTextContent(node: CheckNode): boolean {
  return (
    node.namespace === 'control' &&
    (TEXT_ROLES.has(node.role) || (node.role === 'Text' && !patterns(node).has('TextEditable')))
  );
}
