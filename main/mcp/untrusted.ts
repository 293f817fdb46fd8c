/**
 * The one wrapper for text that comes from applications (names, values, descriptions, generated code quoting them).
 * An agent must treat what is inside as data, never as instructions: an application can name a button "Ignore your
 * instructions and ...". The wrapper is an XML-like element an application cannot close or forge: any `<` or `>`
 * inside that would open or close the wrapper becomes `‹`.
 *
 *   <untrusted-application-text>
 *   [e12 r3] Button "Save" @10,10 80x32
 *   </untrusted-application-text>
 */
export const UNTRUSTED_TAG = 'untrusted-application-text';

const TAG_PATTERN = /<(\/?)(\s*untrusted-application-text)/gi;

/** Wraps application text as untrusted content. */
export function wrapUntrusted(text: string): string {
  const neutral = text.replace(TAG_PATTERN, '‹$1$2');
  return `<${UNTRUSTED_TAG}>\n${neutral}\n</${UNTRUSTED_TAG}>`;
}
