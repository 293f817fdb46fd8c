import type { Rule } from '../model.js';
import { contradictoryStates } from './contradictory-states.js';
import { dialogWithoutFocus } from './dialog-without-focus.js';
import { duplicateSiblingName } from './duplicate-sibling-name.js';
import { geometry } from './geometry.js';
import { poorName } from './poor-name.js';
import { roleRequirements } from './role-requirements.js';
import { tabTrap, tabUnreachable } from './tab-order.js';
import { textContrast } from './text-contrast.js';
import { unlabelledField } from './unlabelled-field.js';
import { unnamedControl } from './unnamed-control.js';
import { unnamedImage } from './unnamed-image.js';

/** Every rule, in the order findings are reported. */
export const RULES: readonly Rule[] = [
  unnamedControl,
  unlabelledField,
  unnamedImage,
  duplicateSiblingName,
  contradictoryStates,
  roleRequirements,
  geometry,
  dialogWithoutFocus,
  poorName,
  textContrast,
  tabUnreachable,
  tabTrap,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((rule) => rule.id === id);
}
