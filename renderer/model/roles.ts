/** Icon families for roles: one glyph and one color class per family, so that rows can be scanned by shape. */

export type RoleFamily =
  | 'desktop'
  | 'application'
  | 'window'
  | 'button'
  | 'toggle'
  | 'text'
  | 'edit'
  | 'list'
  | 'table'
  | 'tree'
  | 'menu'
  | 'container'
  | 'image'
  | 'link'
  | 'range'
  | 'other';

const FAMILY_GLYPH: { readonly [F in RoleFamily]: string } = {
  desktop: '⌂',
  application: '◆',
  window: '▣',
  button: '◉',
  toggle: '☑',
  text: 'T',
  edit: '✎',
  list: '☰',
  table: '▦',
  tree: '⋮',
  menu: '≡',
  container: '▭',
  image: '◩',
  link: '↗',
  range: '⇔',
  other: '•',
};

const RULES: ReadonlyArray<[RegExp, RoleFamily]> = [
  [/^Desktop$/i, 'desktop'],
  [/^Application$/i, 'application'],
  [/Window|Dialog|Frame|Alert/i, 'window'],
  [/CheckBox|RadioButton|Toggle|Switch/i, 'toggle'],
  [/Button/i, 'button'],
  [/Edit|Entry|TextBox|Password|Document|Terminal|SpinButton|ComboBox/i, 'edit'],
  [/Label|Text|Heading|Paragraph|Caption|StatusBar|ToolTip/i, 'text'],
  [/Menu/i, 'menu'],
  [/Table|Grid|Cell|Row|ColumnHeader|RowHeader/i, 'table'],
  [/Tree/i, 'tree'],
  [/List|Tab/i, 'list'],
  [/Image|Icon|Canvas|Picture|Graphic/i, 'image'],
  [/Link|Hyperlink/i, 'link'],
  [/Slider|ScrollBar|ProgressBar|Range|Scroll/i, 'range'],
  [/Pane|Panel|Group|Filler|Section|ToolBar|Split|Container|Viewport|Layered|Separator|Form|Custom/i, 'container'],
];

export function roleFamily(role: string): RoleFamily {
  for (const [pattern, family] of RULES) if (pattern.test(role)) return family;
  return 'other';
}

export function roleGlyph(role: string): string {
  return FAMILY_GLYPH[roleFamily(role)];
}
