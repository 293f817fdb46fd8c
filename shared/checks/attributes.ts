import { AttributeNames as A } from '../model/attributes.js';
import type { Namespace } from '../model/namespaces.js';

/**
 * The attributes the rules read (local names, any namespace). Those a provider holds with a node's header (states,
 * flags) are read for every node; the others cost a call to the application each and are read only where a rule
 * looks at them (onDemandCheckAttributes).
 */
export const HELD_CHECK_ATTRIBUTE_NAMES: readonly string[] = [
  A.Name,
  A.IsFocused,
  A.IsEnabled,
  A.IsVisible,
  A.IsOffscreen,
  A.IsSelected,
  A.ToggleState,
  'Accessible.States',
  'Accessible.Interfaces',
];

/** Text roles (contrast: the text attributes say whether the text is large). */
const TEXT_ROLES = new Set(['Static', 'Label', 'Paragraph', 'Heading', 'Caption', 'Text']);
/** The text attributes at the start of an element's text (font size and weight), `native:Text.Attributes`. */
export const TEXT_ATTRIBUTES = 'Text.Attributes';
/** A table's header lists, read only for a table without header cells (see needsTableHeaderAttributes). */
export const TABLE_HEADER_ATTRIBUTE_NAMES: readonly string[] = ['Table.ColumnHeaders', 'Table.RowHeaders'];
const RANGE_ROLES = new Set(['Slider', 'SpinButton', 'ScrollBar', 'ProgressBar']);
const FIELD_ROLES = new Set(['Edit', 'Entry', 'Text', 'PasswordText', 'ComboBox', 'SpinButton', 'Slider']);

/**
 * What else the rules need of a node with this role and name, beyond the held attributes and its patterns. Bounds
 * and text attributes serve the geometry and contrast rules, which look only at showing nodes: a node that is not
 * showing (a row scrolled out of view) costs no call for them. A table's header lists are read only once its
 * children are known to hold no headers (needsTableHeaderAttributes): the row headers cost a call per row.
 */
export function onDemandCheckAttributes(
  namespace: Namespace,
  role: string,
  name: string,
  showing: boolean,
): readonly string[] {
  if (namespace !== 'control') return [];
  const names: string[] = showing ? [A.Bounds] : [];
  if (RANGE_ROLES.has(role)) names.push(A.MinValue, A.MaxValue);
  if (FIELD_ROLES.has(role) && name.trim() === '') names.push(A.LabelledBy);
  if (showing && TEXT_ROLES.has(role)) names.push(TEXT_ATTRIBUTES);
  return names;
}
