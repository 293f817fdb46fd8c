import { isApplication, type LocatorNode } from '../locators/tree.js';

/** One hop of a dogtail search: a predicate and which of its matches (in depth-first order) is the one. */
export interface DogtailStep {
  roleName: string;
  /** Empty: match by role only. */
  name: string;
  /** 0: `findChild` (the first match); otherwise `findChildren(...)[index]`. */
  index: number;
}

export interface DogtailPath {
  /** The application's name for `tree.root.application(...)`; undefined: search from `tree.root`. */
  application: string | undefined;
  steps: DogtailStep[];
}

const ATSPI_ROLE_NAMES: { readonly [role: string]: string } = {
  Window: 'frame',
  Dialog: 'dialog',
  Button: 'push button',
  ToggleButton: 'toggle button',
  CheckBox: 'check box',
  RadioButton: 'radio button',
  Edit: 'text',
  PasswordText: 'password text',
  Text: 'label',
  Pane: 'panel',
  List: 'list',
  ListItem: 'list item',
  Tree: 'tree',
  TreeItem: 'tree item',
  Table: 'table',
  TableCell: 'table cell',
  Slider: 'slider',
  ComboBox: 'combo box',
  Menu: 'menu',
  MenuBar: 'menu bar',
  MenuItem: 'menu item',
  TabItem: 'page tab',
  Tab: 'page tab list',
  ToolBar: 'tool bar',
  StatusBar: 'status bar',
  ScrollBar: 'scroll bar',
  ProgressBar: 'progress bar',
  Image: 'image',
  Group: 'panel',
  Document: 'document frame',
  Hyperlink: 'link',
  Header: 'header',
  Separator: 'separator',
};

/** The AT-SPI role name dogtail compares (`roleName`): `native:Role` when the node came from AT-SPI. */
export function dogtailRoleName(node: LocatorNode): string {
  const native = node.attributes.get('native:Role');
  if (native) return native;
  return ATSPI_ROLE_NAMES[node.role] ?? node.role.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function matchesPredicate(node: LocatorNode, roleName: string, name: string): boolean {
  return dogtailRoleName(node) === roleName && (name === '' || node.name === name);
}

/**
 * The node's index among the descendants of `scope` that match the predicate, in the depth-first pre-order
 * pyatspi.utils.findAllDescendants walks (the walk stops at the node: later matches do not change it); 0 when the
 * node is not below `scope`.
 */
function indexAmongMatches(scope: LocatorNode, node: LocatorNode, roleName: string, name: string): number {
  let before = 0;
  const stack: LocatorNode[] = [...scope.children].reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (next === node) return before;
    if (matchesPredicate(next, roleName, name)) before++;
    for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i]!);
  }
  return 0;
}

/**
 * Translates a node's ancestry into a dogtail search: the application, then each named ancestor below it, then the
 * node itself, each found with a role+name predicate among the previous hop's descendants.
 */
export function dogtailPath(target: LocatorNode): DogtailPath {
  const chain: LocatorNode[] = [];
  for (let node: LocatorNode | null = target; node && node.parent; node = node.parent) chain.unshift(node);
  const appIndex = chain.findIndex(isApplication);
  const application = appIndex >= 0 ? chain[appIndex]!.name : undefined;
  const below = chain.slice(appIndex + 1);
  let scope: LocatorNode | null = appIndex >= 0 ? chain[appIndex]! : (chain[0]?.parent ?? null);
  const steps: DogtailStep[] = [];
  below.forEach((node, position) => {
    const last = position === below.length - 1;
    if (!last && node.name === '') return;
    const roleName = dogtailRoleName(node);
    steps.push({ roleName, name: node.name, index: scope ? indexAmongMatches(scope, node, roleName, node.name) : 0 });
    scope = node;
  });
  return { application, steps };
}
