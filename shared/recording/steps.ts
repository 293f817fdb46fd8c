import type { ExportTarget } from '../export/templates.js';
import type { Point } from '../model/values.js';

/**
 * A recording: what the user did in the inspected applications, one step per action, each on an element found by
 * the locators verified when it was recorded. Text typed into a secure field is never part of a step: it stands as
 * a variable the script reads from its environment.
 */

/** One part of what was typed into a field: literal text, one chord (`Ctrl+a`, `Enter`), or a secret's variable. */
export type TypedPart =
  { kind: 'text'; text: string } | { kind: 'chord'; keys: readonly string[] } | { kind: 'secret'; variable: string };

export const ASSERTABLE_ATTRIBUTES = ['Name', 'Value', 'IsEnabled', 'IsChecked', 'IsSelected', 'IsFocused'] as const;
export type AssertableAttribute = (typeof ASSERTABLE_ATTRIBUTES)[number];

export type StepAction =
  | { kind: 'click'; button: 'left' | 'middle' | 'right'; count: number }
  | { kind: 'type'; parts: readonly TypedPart[] }
  /** The focus moved here by a key (Tab): a click already focuses what it clicks. */
  | { kind: 'focus' }
  /** The item became the selected one by a key (an arrow key in a list). */
  | { kind: 'select' }
  /** Wheel steps over the element (positive: right, down). */
  | { kind: 'scroll'; deltaX: number; deltaY: number }
  /** Pressed on the element and released at `to` (a desktop point). */
  | { kind: 'drag'; button: 'left' | 'middle' | 'right'; to: Point }
  | { kind: 'assert'; attribute: AssertableAttribute; expected: string };

export interface RecordedStep {
  /** Unique within the recording, never reused. */
  id: number;
  action: StepAction;
  /** The element with its verified locators (best first); no locators when none could be verified in time. */
  target: ExportTarget;
}

/** The variables the steps type (secure fields), in order of appearance, each once. */
export function secretVariables(steps: readonly RecordedStep[]): string[] {
  const names: string[] = [];
  for (const step of steps) {
    if (step.action.kind !== 'type') continue;
    for (const part of step.action.parts)
      if (part.kind === 'secret' && !names.includes(part.variable)) names.push(part.variable);
  }
  return names;
}

/** Text for PlatynUI's keyboard sequences typed literally (`<`, `>` and `\` escaped). */
export function sequenceText(text: string): string {
  return text.replace(/[\\<>]/g, (ch) => `\\${ch}`);
}

const SEQUENCE_KEY_ALIASES: { readonly [key: string]: string } = {
  '+': 'PLUS',
  '-': 'MINUS',
  '<': 'LESS',
  '>': 'GREATER',
};

/** One chord in sequence notation: `<Ctrl+a>`; `+ - < >` by their aliases. */
export function sequenceChord(keys: readonly string[]): string {
  return `<${keys.map((key) => SEQUENCE_KEY_ALIASES[key] ?? key).join('+')}>`;
}

/** The parts as one PlatynUI keyboard sequence; a secret part is written by `secret` (the script's variable). */
export function keyboardSequence(parts: readonly TypedPart[], secret: (variable: string) => string): string {
  return parts
    .map((part) =>
      part.kind === 'text'
        ? sequenceText(part.text)
        : part.kind === 'chord'
          ? sequenceChord(part.keys)
          : secret(part.variable),
    )
    .join('');
}

/** A short description of a step for lists and comments: `click Button "OK"`, `type into Edit "Name"`. */
export function describeStep(step: RecordedStep): string {
  const target = step.target.name ? `${step.target.role} "${step.target.name}"` : step.target.role;
  const action = step.action;
  switch (action.kind) {
    case 'click': {
      const times = action.count === 2 ? 'double-click' : action.count > 2 ? `${action.count}-click` : 'click';
      return `${action.button === 'left' ? times : `${action.button} ${times}`} ${target}`;
    }
    case 'type':
      return `type into ${target}`;
    case 'focus':
      return `focus ${target}`;
    case 'select':
      return `select ${target}`;
    case 'scroll':
      return `scroll ${target} by ${action.deltaX},${action.deltaY}`;
    case 'drag':
      return `${action.button === 'left' ? 'drag' : `${action.button} drag`} ${target} to ${action.to.x},${action.to.y}`;
    case 'assert':
      return `assert ${target} ${action.attribute} = ${JSON.stringify(action.expected)}`;
  }
}
