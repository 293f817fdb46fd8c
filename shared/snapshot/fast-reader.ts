import { TableBuilder, type SnapshotReadOptions, type SnapshotTable } from './table.js';

/**
 * The snapshot reader: one pass over the text for the XML that snapshot files hold (an XML declaration, comments,
 * elements with attributes in single or double quotes, the five predefined entities and character references,
 * namespace declarations, whitespace between elements). It answers undefined as soon as it meets anything else
 * (DOCTYPE, CDATA, processing instructions, text, names outside ASCII, characters XML forbids, anything malformed):
 * then saxes reads the document, so every document outside this subset gets exactly saxes' answer or error. Within
 * it, a differential test holds it to saxes' results. Namespace scopes are a map with an undo list per element, so
 * the time is linear in the size of the document however deep it nests.
 */
export function readSnapshotFast(
  xml: string,
  source: string,
  options: SnapshotReadOptions = {},
): SnapshotTable | undefined {
  if (FORBIDDEN_CHARACTER.test(xml)) return undefined;
  const builder = new TableBuilder(xml, source, options);
  return new SnapshotScanner(xml, builder).run() ? builder.finish() : undefined;
}

/** Characters outside XML's Char production, and surrogates that do not pair. */
const FORBIDDEN_CHARACTER =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const XML_DECLARATION =
  /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.0\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[Uu][Tt][Ff]-8\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>/;

const XML_URI = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_URI = 'http://www.w3.org/2000/xmlns/';

const LT = 60;
const GT = 62;
const SLASH = 47;
const EQUALS = 61;
const AMP = 38;
const QUOT = 34;
const APOS = 39;
const BANG = 33;
const QUESTION = 63;
const COLON = 58;
const CR = 13;
const LF = 10;
const TAB = 9;
const SPACE = 32;

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === CR;
}

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46;
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

class SnapshotScanner {
  private i = 0;
  /** Prefix ('' for the default namespace) to URI, for the elements open now. */
  private readonly scope = new Map<string, string>();
  /** Per open element: the bindings it replaced, to restore at its end tag. */
  private readonly undo: Array<Array<[string, string | undefined]> | undefined> = [];
  /** Qualified names of the open elements. */
  private readonly names: string[] = [];
  // Attributes of the start tag being read.
  private readonly qnames: string[] = [];
  private readonly values: string[] = [];
  private readonly uris: string[] = [];
  private readonly locals: string[] = [];

  constructor(
    private readonly xml: string,
    private readonly builder: TableBuilder,
  ) {}

  /** False: the document is outside the subset (saxes reads it). Builder errors are thrown. */
  run(): boolean {
    const xml = this.xml;
    if (xml.startsWith('<?xml')) {
      const declaration = XML_DECLARATION.exec(xml);
      if (!declaration) return false;
      this.i = declaration[0].length;
    }
    let sawRoot = false;
    const n = xml.length;
    while (this.i < n) {
      const c = xml.charCodeAt(this.i);
      if (c !== LT) {
        if (!this.whitespace()) return false;
        continue;
      }
      const next = xml.charCodeAt(this.i + 1);
      if (next === BANG) {
        if (!this.comment()) return false;
      } else if (next === QUESTION) {
        return false;
      } else if (next === SLASH) {
        if (!this.endTag()) return false;
        if (this.names.length === 0 && sawRoot) return this.epilog();
      } else {
        if (sawRoot && this.names.length === 0) return false;
        sawRoot = true;
        if (!this.startTag()) return false;
        if (this.names.length === 0) return this.epilog();
      }
    }
    return false; // no document element, or one left open: saxes says which
  }

  /** After the document element: only whitespace and comments. */
  private epilog(): boolean {
    const xml = this.xml;
    while (this.i < xml.length) {
      if (xml.charCodeAt(this.i) === LT) {
        if (xml.charCodeAt(this.i + 1) !== BANG || !this.comment()) return false;
      } else if (!this.whitespace()) return false;
    }
    return true;
  }

  /** Whitespace up to the next `<` (or the end); false for any other character data. */
  private whitespace(): boolean {
    const xml = this.xml;
    let i = this.i;
    while (i < xml.length && isSpace(xml.charCodeAt(i))) i++;
    if (i < xml.length && xml.charCodeAt(i) !== LT) return false;
    if (i === this.i) return false;
    this.i = i;
    return true;
  }

  private comment(): boolean {
    const xml = this.xml;
    if (!xml.startsWith('<!--', this.i)) return false;
    const end = xml.indexOf('-->', this.i + 4);
    if (end < 0) return false;
    // `--` may not occur inside a comment (and a comment may not end in `-`).
    const dashes = xml.indexOf('--', this.i + 4);
    if (dashes !== end) return false;
    this.i = end + 3;
    return true;
  }

  /** An ASCII XML name with at most one colon (neither first nor last); undefined otherwise. */
  private name(): string | undefined {
    const xml = this.xml;
    const start = this.i;
    if (!isNameStart(xml.charCodeAt(start))) return undefined;
    let i = start + 1;
    let colon = -1;
    for (;;) {
      const c = xml.charCodeAt(i);
      if (isNameChar(c)) i++;
      else if (c === COLON && colon < 0 && isNameStart(xml.charCodeAt(i + 1))) {
        colon = i;
        i += 2;
      } else break;
    }
    const after = xml.charCodeAt(i);
    if (!(isSpace(after) || after === GT || after === SLASH || after === EQUALS)) return undefined;
    this.i = i;
    return xml.slice(start, i);
  }

  private skipSpace(): boolean {
    const xml = this.xml;
    const start = this.i;
    while (isSpace(xml.charCodeAt(this.i))) this.i++;
    return this.i > start;
  }

  private startTag(): boolean {
    const xml = this.xml;
    const at = this.i;
    this.i++;
    const qname = this.name();
    if (qname === undefined) return false;
    const qnames = this.qnames;
    const values = this.values;
    qnames.length = 0;
    values.length = 0;
    let selfClosing = false;
    for (;;) {
      const spaced = this.skipSpace();
      const c = xml.charCodeAt(this.i);
      if (c === GT) {
        this.i++;
        break;
      }
      if (c === SLASH) {
        if (xml.charCodeAt(this.i + 1) !== GT) return false;
        this.i += 2;
        selfClosing = true;
        break;
      }
      if (!spaced) return false;
      const attribute = this.name();
      if (attribute === undefined) return false;
      this.skipSpace();
      if (xml.charCodeAt(this.i) !== EQUALS) return false;
      this.i++;
      this.skipSpace();
      const value = this.attributeValue();
      if (value === undefined) return false;
      for (const seen of qnames) if (seen === attribute) return false;
      qnames.push(attribute);
      values.push(value);
    }
    // Namespace declarations first: they apply to the element's own name and attributes.
    let replaced: Array<[string, string | undefined]> | undefined;
    for (let a = 0; a < qnames.length; a++) {
      const q = qnames[a]!;
      if (q.charCodeAt(0) !== 120 /* x */ || !q.startsWith('xmlns')) continue;
      let prefix: string;
      if (q.length === 5) prefix = '';
      else if (q.charCodeAt(5) === COLON) {
        prefix = q.slice(6);
        if (prefix === 'xml' || prefix === 'xmlns' || values[a] === '') return false;
      } else continue;
      const uri = values[a]!;
      if (uri === XML_URI || uri === XMLNS_URI) return false;
      (replaced ??= []).push([prefix, this.scope.get(prefix)]);
      this.scope.set(prefix, uri);
    }
    this.undo.push(replaced);
    this.names.push(qname);
    const colon = qname.indexOf(':');
    const elementPrefix = colon < 0 ? '' : qname.slice(0, colon);
    if (elementPrefix === 'xml' || elementPrefix === 'xmlns') return false;
    const elementUri = this.scope.get(elementPrefix) ?? (colon < 0 ? '' : undefined);
    if (elementUri === undefined) return false;
    const builder = this.builder;
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    // Resolve every attribute before the builder sees any: an unbound prefix is saxes' error to report.
    const uris = this.uris;
    const locals = this.locals;
    uris.length = 0;
    locals.length = 0;
    for (let a = 0; a < qnames.length; a++) {
      const q = qnames[a]!;
      const p = q.indexOf(':');
      if (p < 0) {
        uris.push(q === 'xmlns' ? XMLNS_URI : '');
        locals.push(q);
        continue;
      }
      const prefix = q.slice(0, p);
      locals.push(q.slice(p + 1));
      if (prefix === 'xmlns') uris.push(XMLNS_URI);
      else if (prefix === 'xml') return false;
      else {
        const uri = this.scope.get(prefix);
        if (uri === undefined) return false;
        uris.push(uri);
      }
    }
    // The same expanded name twice (two prefixes bound to one URI): saxes decides.
    for (let a = 0; a < qnames.length; a++) {
      if (uris[a] === '' || uris[a] === XMLNS_URI) continue;
      for (let b = a + 1; b < qnames.length; b++) {
        if (uris[b] === uris[a] && locals[b] === locals[a]) return false;
      }
    }
    builder.element(elementUri, local, qname, at);
    for (let a = 0; a < qnames.length; a++) builder.attribute(uris[a]!, locals[a]!, qnames[a]!, values[a]!);
    if (selfClosing) this.finishElement();
    return true;
  }

  private finishElement(): void {
    this.builder.close();
    this.names.pop();
    const replaced = this.undo.pop();
    if (replaced) {
      for (let r = replaced.length - 1; r >= 0; r--) {
        const [prefix, previous] = replaced[r]!;
        if (previous === undefined) this.scope.delete(prefix);
        else this.scope.set(prefix, previous);
      }
    }
  }

  private endTag(): boolean {
    const xml = this.xml;
    this.i += 2;
    const qname = this.name();
    if (qname === undefined || qname !== this.names[this.names.length - 1]) return false;
    this.skipSpace();
    if (xml.charCodeAt(this.i) !== GT) return false;
    this.i++;
    this.finishElement();
    return true;
  }

  /**
   * A quoted attribute value, normalized as XML does for attributes without a DTD: entities and character
   * references replaced, each literal tab, newline and carriage return (a CR LF pair counting once) a space.
   */
  private attributeValue(): string | undefined {
    const xml = this.xml;
    const quote = xml.charCodeAt(this.i);
    if (quote !== QUOT && quote !== APOS) return undefined;
    const start = this.i + 1;
    let i = start;
    let plain = true;
    for (;;) {
      if (i >= xml.length) return undefined;
      const c = xml.charCodeAt(i);
      if (c === quote) break;
      if (c === LT) return undefined;
      if (c === AMP || c === TAB || c === LF || c === CR) plain = false;
      i++;
    }
    this.i = i + 1;
    if (plain) return xml.slice(start, i);
    let out = '';
    let from = start;
    for (let k = start; k < i; k++) {
      const c = xml.charCodeAt(k);
      if (c === TAB || c === LF || c === CR) {
        out += `${xml.slice(from, k)} `;
        if (c === CR && xml.charCodeAt(k + 1) === LF) k++;
        from = k + 1;
      } else if (c === AMP) {
        const semicolon = xml.indexOf(';', k);
        if (semicolon < 0 || semicolon > i) return undefined;
        const replacement = this.reference(xml.slice(k + 1, semicolon));
        if (replacement === undefined) return undefined;
        out += xml.slice(from, k) + replacement;
        k = semicolon;
        from = k + 1;
      }
    }
    return out + xml.slice(from, i);
  }

  private reference(body: string): string | undefined {
    if (body.charCodeAt(0) !== 35 /* # */) return PREDEFINED[body];
    const hex = body.charCodeAt(1) === 120; /* x */
    const digits = body.slice(hex ? 2 : 1);
    if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
    const code = parseInt(digits, hex ? 16 : 10);
    return isXmlChar(code) ? String.fromCodePoint(code) : undefined;
  }
}
