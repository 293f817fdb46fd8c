import type { AttributeEntry } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import { isNamespace, NAMESPACES, type Namespace } from '../../shared/model/namespaces.js';

/** `NS:NAME` with `*` standing for any run of characters in NAME (`control:Bounds*`, `native:*`). */
export interface AttributePattern {
  readonly namespace: Namespace;
  readonly name: RegExp;
  /** The pattern as it was given. */
  readonly source: string;
}

/**
 * What `snapshot` adds to and takes from its `--attrs` selection: `include` adds matching attributes, `exclude`
 * removes matching ones last (also what `include` or `--include-runtime-id` added), `excludeDerived` drops the
 * derived aliases (`Bounds.X`, `ActivationPoint.Y` ...).
 */
export interface AttributeFilter {
  readonly include: readonly AttributePattern[];
  readonly exclude: readonly AttributePattern[];
  readonly excludeDerived: boolean;
}

/** Patterns longer than this are refused: a pattern is a name, not a document. */
const MAX_PATTERN_LENGTH = 256;

/** Parses one `--include`/`--exclude` value; a bad one is a usage error naming the option and the value. */
export function parseAttributePattern(option: string, value: string): AttributePattern {
  const colon = value.indexOf(':');
  const namespace = colon < 0 ? '' : value.slice(0, colon);
  const name = colon < 0 ? '' : value.slice(colon + 1);
  if (!isNamespace(namespace) || name === '' || value.length > MAX_PATTERN_LENGTH) {
    throw new InspectorError(
      'usage',
      `${option} must be NS:NAME with NS one of ${NAMESPACES.join(', ')} and NAME an attribute name where * ` +
        `matches any characters (e.g. control:Bounds*, native:*), at most ${MAX_PATTERN_LENGTH} characters; got "${value}"`,
    );
  }
  const body = name
    .split('*')
    .map((part) => part.replace(/[\\^$.+?()[\]{}|]/g, '\\$&'))
    .join('.*');
  return { namespace, name: new RegExp(`^${body}$`), source: value };
}

export function matchesAny(patterns: readonly AttributePattern[], entry: AttributeEntry): boolean {
  return patterns.some((pattern) => pattern.namespace === entry.namespace && pattern.name.test(entry.name));
}
