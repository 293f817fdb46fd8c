/**
 * Size and depth of a JSON value, measured without recursion (a message nested 100,000 deep must not overflow the
 * stack of whoever checks it) and stopping as soon as a limit is passed (a huge or cyclic object costs no more than
 * the limit). Objects sent over IPC arrive already parsed; they are measured as the JSON they would be.
 */

export interface JsonShapeLimits {
  maxBytes: number;
  maxDepth: number;
}

export type JsonShapeProblem = { kind: 'depth'; path: string } | { kind: 'size' } | { kind: 'type'; path: string };

/** Bytes of a string in JSON, counted cheaply: UTF-16 units plus the quotes (escapes make real JSON longer). */
function stringBytes(text: string): number {
  return text.length + 2;
}

interface Entry {
  value: unknown;
  depth: number;
  parent?: Entry;
  key?: string | number;
}

/** `params.values.a[3]`: where an entry is, built only when it is reported. */
function pathOf(entry: Entry): string {
  const parts: string[] = [];
  for (let at: Entry | undefined = entry; at?.key !== undefined; at = at.parent) {
    parts.push(typeof at.key === 'number' ? `[${at.key}]` : `.${at.key}`);
  }
  const path = parts.reverse().join('').replace(/^\./, '');
  return path || 'message';
}

/** The first limit this value passes, or undefined when it is within both. */
export function checkJsonShape(value: unknown, limits: JsonShapeLimits): JsonShapeProblem | undefined {
  let bytes = 0;
  const stack: Entry[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (current === null || typeof current === 'boolean') bytes += 5;
    else if (typeof current === 'number') bytes += 24;
    else if (typeof current === 'string') bytes += stringBytes(current);
    else if (typeof current === 'object') {
      const depth = entry.depth + 1;
      if (depth > limits.maxDepth) return { kind: 'depth', path: pathOf(entry) };
      bytes += 2;
      if (Array.isArray(current)) {
        for (let i = current.length - 1; i >= 0; i--) {
          bytes += 1;
          if (bytes > limits.maxBytes) return { kind: 'size' };
          stack.push({ value: current[i], depth, parent: entry, key: i });
        }
      } else {
        for (const key of Object.keys(current)) {
          bytes += stringBytes(key) + 2;
          if (bytes > limits.maxBytes) return { kind: 'size' };
          stack.push({ value: (current as { [key: string]: unknown })[key], depth, parent: entry, key });
        }
      }
    } else if (current !== undefined) {
      return { kind: 'type', path: pathOf(entry) };
    }
    if (bytes > limits.maxBytes) return { kind: 'size' };
  }
  return undefined;
}
