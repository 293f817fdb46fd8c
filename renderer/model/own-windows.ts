/**
 * The inspector's own windows in the tree it shows: a window whose title carries the page's title (the Electron
 * shell's window, or the browser tab showing the browser host) and the application that owns one (found once
 * connected with an XPath over the top-level windows).
 */
import { xpathString } from '../../shared/locators/quote.js';

export const INSPECTOR_TITLE = 'PlatynUI Inspector';

export function isOwnWindowName(name: string): boolean {
  return name.includes(INSPECTOR_TITLE);
}

/** The applications with a top-level window titled like the inspector. */
export function ownApplicationsXPath(): string {
  return `/*[*[contains(@Name, ${xpathString(INSPECTOR_TITLE)})]]`;
}
