/**
 * An XPath 3.1 string literal for any text: single quotes unless the text contains one, double quotes unless it
 * contains one too; with both, single quotes and every `'` doubled (XPath 2.0+ escaping).
 */
export function xpathString(text: string): string {
  if (!text.includes("'")) return `'${text}'`;
  if (!text.includes('"')) return `"${text}"`;
  return `'${text.replace(/'/g, "''")}'`;
}
