import { InspectorError, positionAt } from '../model/errors.js';
import { whereIn } from './error-messages.js';

/**
 * How deeply brackets ( [ { may nest in an XPath expression. fontoxpath's parser is recursive and runs out of
 * stack at about 200 levels of parentheses; the limit keeps well below, so a deep expression is a clear syntax
 * error with its position instead of a stack overflow.
 */
export const MAX_XPATH_NESTING = 100;

/**
 * Throws an xpath-syntax error at the first bracket nested deeper than MAX_XPATH_NESTING. Brackets inside string
 * literals and comments (`(: ... :)`, which nest) do not count.
 */
export function checkXPathNesting(xpath: string): void {
  let depth = 0;
  for (let i = 0; i < xpath.length; i++) {
    const c = xpath[i];
    if (c === "'" || c === '"') {
      const end = xpath.indexOf(c, i + 1);
      if (end < 0) return; // an unterminated literal: the parser names it
      i = end;
    } else if (c === '(' && xpath[i + 1] === ':') {
      i = endOfComment(xpath, i);
    } else if (c === '(' || c === '[' || c === '{') {
      if (++depth > MAX_XPATH_NESTING) throw tooDeep(xpath, i);
    } else if (c === ')' || ']' === c || c === '}') {
      depth = Math.max(0, depth - 1);
    }
  }
}

/** The index of the `)` that closes the comment opened at `start`, or the end of the text. */
function endOfComment(xpath: string, start: number): number {
  let depth = 0;
  for (let i = start; i < xpath.length - 1; i++) {
    if (xpath[i] === '(' && xpath[i + 1] === ':') {
      depth++;
      i++;
    } else if (xpath[i] === ':' && xpath[i + 1] === ')') {
      if (--depth === 0) return i + 1;
      i++;
    }
  }
  return xpath.length;
}

function tooDeep(xpath: string, offset: number): InspectorError {
  const position = positionAt(xpath, offset);
  return new InspectorError(
    'xpath-syntax',
    `Brackets nest deeper than ${MAX_XPATH_NESTING} levels at ${whereIn(xpath, position)}`,
    { position },
  );
}

/** A JavaScript engine's stack overflow (an expression too deeply nested in ways brackets do not show). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** The error for an expression the engines ran out of stack on: at its end, since no part can be singled out. */
export function tooComplex(xpath: string): InspectorError {
  const position = positionAt(xpath, xpath.length);
  return new InspectorError(
    'xpath-syntax',
    `The expression is nested too deeply for the XPath engine (at ${whereIn(xpath, position)})`,
    { position },
  );
}
