import { requiredContrast } from '../contrast.js';
import { describeNode, isEnabled, isShowing, isTextContent } from '../facts.js';
import type { CheckNode, Rule } from '../model.js';

/**
 * The contrast measured on screen for a text element (main/services/contrast.ts attaches it before the rules run):
 * `{ratio, foreground, background, large}`.
 */
export const ESTIMATED_CONTRAST = 'EstimatedContrast';

/** Controls whose own name is the text drawn on them. */
const LABELLED_CONTROL_ROLES = new Set(['Button', 'Link', 'CheckBox', 'RadioButton', 'ToggleButton', 'MenuItem']);

function offersText(node: CheckNode): boolean {
  const interfaces = node.attributes.get('native:Accessible.Interfaces');
  if (interfaces?.type !== 'Array') return true;
  return interfaces.value.some((item) => item.type === 'String' && item.value === 'Text');
}

/**
 * A showing element that draws text of its own: text content without text children (Chromium's paragraph holds its
 * static texts), or a labelled control without children whose text the provider exposes (a name set on a picture
 * button is no drawn text). Disabled controls are exempt (WCAG 1.4.3: inactive user interface components).
 */
export function isContrastCandidate(node: CheckNode): boolean {
  if (!isShowing(node) || !isEnabled(node) || node.children.some(isTextContent)) return false;
  if (isTextContent(node)) return true;
  return (
    node.namespace === 'control' &&
    LABELLED_CONTROL_ROLES.has(node.role) &&
    node.children.length === 0 &&
    node.name.trim() !== '' &&
    offersText(node)
  );
}

export const textContrast: Rule = {
  id: 'text-contrast',
  severity: 'error',
  title: 'Text does not stand out enough from its background',
  wcag: ['1.4.3 Contrast (Minimum)'],
  help:
    'Text needs a contrast ratio of at least 4.5:1 against its background, large text (18 pt, or 14 pt bold) 3:1. ' +
    'The ratio is estimated from the screen: the most frequent colour inside the element is taken as background, ' +
    'the colour that stands out most from it as the text. Darken the text or lighten the background.',
  check(node) {
    const value = node.attributes.get(ESTIMATED_CONTRAST);
    if (value?.type !== 'Object') return [];
    const { ratio, foreground, background, large } = value.value;
    if (ratio?.type !== 'Number' || foreground?.type !== 'String' || background?.type !== 'String') return [];
    const needed = requiredContrast(large?.type === 'Bool' && large.value);
    if (ratio.value >= needed) return [];
    return [
      {
        message:
          `${describeNode(node)} has a contrast of ${ratio.value.toFixed(2)}:1 (${foreground.value} on ` +
          `${background.value}), below ${needed}:1`,
      },
    ];
  },
};
