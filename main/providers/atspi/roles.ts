import type { Namespace } from '../../../shared/model/namespaces.js';

/**
 * AT-SPI2 roles as PlatynUI's AT-SPI provider names them, so XPath written for PlatynUI works here: the PascalCase of
 * the AT-SPI role name (`check box` -> CheckBox), a few renames (push button -> Button, page tab list -> Tab, page
 * tab -> TabItem, check/radio menu item -> MenuItem), the `item` namespace for item roles and `app` for applications.
 * `native:Role` keeps the AT-SPI name itself.
 */

/** AT-SPI role names by their numeric value (AtspiRole, as GetRole and the Cache return it). */
export const ATSPI_ROLE_NAMES: readonly string[] = [
  'invalid',
  'accelerator label',
  'alert',
  'animation',
  'arrow',
  'calendar',
  'canvas',
  'check box',
  'check menu item',
  'color chooser',
  'column header',
  'combo box',
  'date editor',
  'desktop icon',
  'desktop frame',
  'dial',
  'dialog',
  'directory pane',
  'drawing area',
  'file chooser',
  'filler',
  'focus traversable',
  'font chooser',
  'frame',
  'glass pane',
  'html container',
  'icon',
  'image',
  'internal frame',
  'label',
  'layered pane',
  'list',
  'list item',
  'menu',
  'menu bar',
  'menu item',
  'option pane',
  'page tab',
  'page tab list',
  'panel',
  'password text',
  'popup menu',
  'progress bar',
  'push button',
  'radio button',
  'radio menu item',
  'root pane',
  'row header',
  'scroll bar',
  'scroll pane',
  'separator',
  'slider',
  'spin button',
  'split pane',
  'status bar',
  'table',
  'table cell',
  'table column header',
  'table row header',
  'tearoff menu item',
  'terminal',
  'text',
  'toggle button',
  'tool bar',
  'tool tip',
  'tree',
  'tree table',
  'unknown',
  'viewport',
  'window',
  'extended',
  'header',
  'footer',
  'paragraph',
  'ruler',
  'application',
  'autocomplete',
  'editbar',
  'embedded',
  'entry',
  'chart',
  'caption',
  'document frame',
  'heading',
  'page',
  'section',
  'redundant object',
  'form',
  'link',
  'input method window',
  'table row',
  'tree item',
  'document spreadsheet',
  'document presentation',
  'document text',
  'document web',
  'document email',
  'comment',
  'list box',
  'grouping',
  'image map',
  'notification',
  'info bar',
  'level bar',
  'title bar',
  'block quote',
  'audio',
  'video',
  'definition',
  'article',
  'landmark',
  'log',
  'marquee',
  'math',
  'rating',
  'timer',
  'static',
  'math fraction',
  'math root',
  'subscript',
  'superscript',
  'description list',
  'description term',
  'description value',
  'footnote',
  'content deletion',
  'content insertion',
  'mark',
  'suggestion',
  'push button menu',
];

export const ATSPI_ROLE = {
  Application: 75,
  Frame: 23,
  Window: 69,
  Dialog: 16,
  PasswordText: 40,
  Entry: 79,
  Text: 61,
  CheckBox: 7,
  CheckMenuItem: 8,
  RadioButton: 44,
  RadioMenuItem: 45,
  ToggleButton: 62,
  Invalid: 0,
} as const;

const RENAMED: { readonly [atspiName: string]: string } = {
  'push button': 'Button',
  'page tab list': 'Tab',
  'page tab': 'TabItem',
  'check menu item': 'MenuItem',
  'radio menu item': 'MenuItem',
};

const ITEM_ROLES: ReadonlySet<string> = new Set([
  'ListItem',
  'MenuItem',
  'TabItem',
  'TableRow',
  'TableCell',
  'TreeItem',
  'ColumnHeader',
  'RowHeader',
  'TableColumnHeader',
  'TableRowHeader',
  'DescriptionTerm',
  'DescriptionValue',
]);

export interface MappedRole {
  namespace: Namespace;
  role: string;
  /** The AT-SPI role name (`push button`), for `native:Role`. */
  nativeRole: string;
}

/** `check box` -> `CheckBox`, `tree-table` -> `TreeTable`. */
export function pascalCase(name: string): string {
  return name
    .split(/[\s_-]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('');
}

export function atspiRoleName(role: number): string {
  return ATSPI_ROLE_NAMES[role] ?? 'unknown';
}

/** Maps an AT-SPI role name to PlatynUI's namespace and role. */
export function mapRoleName(nativeRole: string): MappedRole {
  if (nativeRole === 'application') return { namespace: 'app', role: 'Application', nativeRole };
  const role = RENAMED[nativeRole] ?? (pascalCase(nativeRole) || 'Unknown');
  return { namespace: ITEM_ROLES.has(role) ? 'item' : 'control', role, nativeRole };
}

const byNumber: MappedRole[] = ATSPI_ROLE_NAMES.map(mapRoleName);

/** Maps a numeric AT-SPI role. */
export function mapRole(role: number): MappedRole {
  return byNumber[role] ?? mapRoleName('unknown');
}

export function isWindowRole(role: number): boolean {
  return role === ATSPI_ROLE.Frame || role === ATSPI_ROLE.Window || role === ATSPI_ROLE.Dialog;
}

export function isToggleRole(role: number): boolean {
  return (
    role === ATSPI_ROLE.CheckBox ||
    role === ATSPI_ROLE.CheckMenuItem ||
    role === ATSPI_ROLE.RadioButton ||
    role === ATSPI_ROLE.RadioMenuItem ||
    role === ATSPI_ROLE.ToggleButton
  );
}
