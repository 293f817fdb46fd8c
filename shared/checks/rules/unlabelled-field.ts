import { describeNode, hasLabelRelation, patterns } from '../facts.js';
import type { CheckNode, Rule } from '../model.js';

const FIELD_ROLES = new Set(['Edit', 'Entry', 'Text', 'PasswordText', 'ComboBox', 'SpinButton', 'Slider']);

/** An input a user fills in or sets: an editable text, a combo box, a spin button, a slider. */
export function isFormField(node: CheckNode): boolean {
  if (node.namespace !== 'control') return false;
  if (node.role === 'Text') return patterns(node).has('TextEditable');
  return FIELD_ROLES.has(node.role) || patterns(node).has('TextEditable');
}

export const unlabelledField: Rule = {
  id: 'unlabelled-field',
  severity: 'error',
  title: 'A form field has neither a name nor a label relation',
  wcag: ['1.3.1 Info and Relationships', '3.3.2 Labels or Instructions', '4.1.2 Name, Role, Value'],
  help:
    'A visible label next to a field is not enough: assistive technology only knows it when the field is named ' +
    'or related to the label (labelled-by). Name the field, or set the label as its mnemonic widget / aria-labelledby.',
  check(node) {
    if (!isFormField(node) || node.name.trim() !== '' || hasLabelRelation(node)) return [];
    return [{ message: `${describeNode(node)} has no name and no label relation` }];
  },
};
