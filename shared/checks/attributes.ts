import { AttributeNames as A } from '../model/attributes.js';

/** The attributes the rules read (local names, any namespace): what a front end reads of each node for a check. */
export const CHECK_ATTRIBUTE_NAMES: readonly string[] = [
  A.Name,
  A.SupportedPatterns,
  A.IsFocused,
  A.IsEnabled,
  A.IsVisible,
  A.IsOffscreen,
  A.IsSelected,
  A.ToggleState,
  A.Bounds,
  A.MinValue,
  A.MaxValue,
  'Accessible.States',
  'Accessible.Interfaces',
  'LabelledBy',
];
