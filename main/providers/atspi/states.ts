/** AT-SPI2 state sets: two 32-bit words (`au` from GetState and the Cache), bit n = AtspiStateType n. */

export const ATSPI_STATE_NAMES: readonly string[] = [
  'invalid',
  'active',
  'armed',
  'busy',
  'checked',
  'collapsed',
  'defunct',
  'editable',
  'enabled',
  'expandable',
  'expanded',
  'focusable',
  'focused',
  'has-tooltip',
  'horizontal',
  'iconified',
  'modal',
  'multi-line',
  'multiselectable',
  'opaque',
  'pressed',
  'resizable',
  'selectable',
  'selected',
  'sensitive',
  'showing',
  'single-line',
  'stale',
  'transient',
  'vertical',
  'visible',
  'manages-descendants',
  'indeterminate',
  'required',
  'truncated',
  'animated',
  'invalid-entry',
  'supports-autocompletion',
  'selectable-text',
  'is-default',
  'visited',
  'checkable',
  'has-popup',
  'read-only',
];

export const S = {
  Active: 1,
  Checked: 4,
  Defunct: 6,
  Editable: 7,
  Enabled: 8,
  Expandable: 9,
  Expanded: 10,
  Focusable: 11,
  Focused: 12,
  Iconified: 15,
  Modal: 16,
  Multiselectable: 18,
  Pressed: 20,
  Resizable: 21,
  Selectable: 22,
  Selected: 23,
  Sensitive: 24,
  Showing: 25,
  Visible: 30,
  Indeterminate: 32,
  Checkable: 41,
  ReadOnly: 43,
} as const;

export type StateSet = readonly number[];

export function hasState(states: StateSet, state: number): boolean {
  const word = states[state >> 5] ?? 0;
  return ((word >>> (state & 31)) & 1) === 1;
}

export function stateNames(states: StateSet): string[] {
  const names: string[] = [];
  for (let i = 1; i < ATSPI_STATE_NAMES.length; i++) {
    if (hasState(states, i)) names.push(ATSPI_STATE_NAMES[i] as string);
  }
  return names;
}

export function stateNumber(name: string): number {
  return ATSPI_STATE_NAMES.indexOf(name);
}

/** A copy of the set with one state switched on or off (for state-changed events). */
export function withState(states: StateSet, state: number, on: boolean): number[] {
  const words = [states[0] ?? 0, states[1] ?? 0];
  const index = state >> 5;
  const bit = 1 << (state & 31);
  words[index] = on ? (words[index] as number) | bit : (words[index] as number) & ~bit;
  words[index] = (words[index] as number) >>> 0;
  return words;
}
