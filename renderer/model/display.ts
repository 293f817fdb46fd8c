/**
 * Values as people read them in the attributes table: rectangles as `x, y · width×height`, points as `x, y`,
 * sizes as `width×height`, structures summarized (their fields open on demand), and the element's states in one
 * line. Copying uses the exact text form (formatValueText), not these.
 */
import type { ApiAttribute } from '../../shared/api/schema.js';
import { formatValueText, type UiValue } from '../../shared/model/values.js';

export function displayValue(value: UiValue): string {
  switch (value.type) {
    case 'Rect': {
      const { x, y, width, height } = value.value;
      return `${x}, ${y} · ${width}×${height}`;
    }
    case 'Point':
      return `${value.value.x}, ${value.value.y}`;
    case 'Size':
      return `${value.value.width}×${value.value.height}`;
    case 'Array':
      return value.value.length === 0
        ? 'empty list'
        : `${value.value.length} ${value.value.length === 1 ? 'item' : 'items'}`;
    case 'Object': {
      const count = Object.keys(value.value).length;
      return count === 0 ? 'no fields' : `${count} ${count === 1 ? 'field' : 'fields'}`;
    }
    default:
      return formatValueText(value);
  }
}

/** Whether the value opens into parts (a list or an object with entries). */
export function isExpandable(value: UiValue): value is Extract<UiValue, { type: 'Array' | 'Object' }> {
  return (
    (value.type === 'Array' && value.value.length > 0) ||
    (value.type === 'Object' && Object.keys(value.value).length > 0)
  );
}

/** The parts of a list (by index) or an object (by field), in order. */
export function valueParts(value: Extract<UiValue, { type: 'Array' | 'Object' }>): Array<[string, UiValue]> {
  return value.type === 'Array' ? value.value.map((item, i) => [String(i + 1), item]) : Object.entries(value.value);
}

/** A list of strings (SupportedPatterns ...) reads as its items, comma separated. */
export function stringList(value: UiValue): string | undefined {
  if (value.type !== 'Array' || !value.value.every((item) => item.type === 'String')) return undefined;
  return value.value.map((item) => (item as { value: string }).value).join(', ');
}

const STATE_WORDS: Array<[attribute: string, yes: string, no: string | undefined]> = [
  ['IsEnabled', 'enabled', 'disabled'],
  ['IsVisible', 'visible', 'hidden'],
  ['IsOffscreen', 'off screen', undefined],
  ['IsFocused', 'focused', undefined],
  ['IsSelected', 'selected', undefined],
  ['IsExpanded', 'expanded', 'collapsed'],
  ['IsReadOnly', 'read-only', undefined],
  ['IsSecure', 'secret', undefined],
  ['ToggleState', '', undefined],
];

/** The element's states in one line: `enabled · visible · focused · toggle On`. */
export function statesSummary(attributes: readonly ApiAttribute[]): string {
  const byName = new Map(
    attributes.filter((a) => a.namespace === 'control' && !a.derived).map((a) => [a.name, a.value] as const),
  );
  const words: string[] = [];
  for (const [name, yes, no] of STATE_WORDS) {
    const value = byName.get(name);
    if (!value) continue;
    if (value.type === 'Bool') {
      const word = value.value ? yes : no;
      if (word) words.push(word);
    } else if (value.type === 'String' && value.value) words.push(`toggle ${value.value}`);
  }
  return words.join(' · ');
}
