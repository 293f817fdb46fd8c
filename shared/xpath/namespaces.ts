import { NAMESPACE_URIS, type Namespace } from '../model/namespaces.js';

/** Static prefixes of every query (PlatynUI §9.4): control (also the default element namespace), item, app, native. */
export function resolveStaticPrefix(prefix: string): string | null {
  if (prefix === '') return NAMESPACE_URIS.control;
  return prefix in NAMESPACE_URIS ? NAMESPACE_URIS[prefix as Namespace] : null;
}

export const STATIC_PREFIXES: { readonly [prefix: string]: string } = { ...NAMESPACE_URIS };

/**
 * Control attributes are unnamespaced (`@Name`), yet `@control:Name` must find them too. Rewrites the control prefix
 * on attribute tests (`@control:X`, `attribute::control:X`) to the no-namespace form, leaving string literals and
 * comments untouched. Offsets stay comparable: the rewrite only ever shortens `control:` to `Q{}`.
 */
export function rewriteControlAttributeTests(xpath: string): string {
  let out = '';
  let i = 0;
  while (i < xpath.length) {
    const ch = xpath[i]!;
    if (ch === '"' || ch === "'") {
      const end = xpath.indexOf(ch, i + 1);
      const stop = end < 0 ? xpath.length : end + 1;
      out += xpath.slice(i, stop);
      i = stop;
      continue;
    }
    if (ch === '(' && xpath[i + 1] === ':') {
      const end = xpath.indexOf(':)', i + 2);
      const stop = end < 0 ? xpath.length : end + 2;
      out += xpath.slice(i, stop);
      i = stop;
      continue;
    }
    const attributeAxis = /^(@\s*|attribute\s*::\s*)control\s*:/.exec(xpath.slice(i));
    if (attributeAxis && (i === 0 || !/[\w.-]/.test(xpath[i - 1]!))) {
      out += `${attributeAxis[1]}Q{}`;
      i += attributeAxis[0].length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}
