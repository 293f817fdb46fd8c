import { nextHash, QNames } from './qnames.js';
import { TableBuilder, type SnapshotReadOptions, type SnapshotTable } from './table.js';

/**
 * The snapshot reader: one pass over the text for the XML that snapshot files hold (an XML declaration, comments,
 * elements with attributes in single or double quotes, the five predefined entities and character references,
 * namespace declarations, whitespace between elements). It answers undefined as soon as it meets anything else
 * (DOCTYPE, CDATA, processing instructions, text, names outside ASCII, characters XML forbids, anything malformed):
 * then saxes reads the document, so every document outside this subset gets exactly saxes' answer or error. Within
 * it, a differential test holds it to saxes' results. Namespace scopes are a map with an undo list per element, so
 * the time is linear in the size of the document however deep it nests. Names are found by their characters (QNames)
 * and values kept as places in the text: a node makes no string of its own.
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

/** A map, not an object: `&constructor;` is no entity. */
const PREDEFINED: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

class SnapshotScanner {
  private i = 0;
  /** Prefix ('' for the default namespace) to URI, for the elements open now. */
  private readonly scope = new Map<string, string>();
  /** Per open element: the bindings it replaced, to restore at its end tag. */
  private readonly undo: Array<Array<[string, string | undefined]> | undefined> = [];
  /** Qualified names (ids in `names`) of the open elements. */
  private readonly open: number[] = [];
  private readonly names = new QNames();
  // Attributes of the start tag being read: name ids, where their values lie, the values that needed decoding.
  private ids = new Int32Array(16);
  private starts = new Int32Array(16);
  private ends = new Int32Array(16);
  private readonly decoded: (string | undefined)[] = [];
  private readonly uris: string[] = [];
  /** Of the start tag read last: whether it ends in `/>`; whether an attribute declares a namespace or has a prefix. */
  private selfClosing = false;
  private prefixed = false;

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
        if (this.open.length === 0 && sawRoot) return this.epilog();
      } else {
        if (sawRoot && this.open.length === 0) return false;
        sawRoot = true;
        if (!this.startTag()) return false;
        if (this.open.length === 0) return this.epilog();
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

  /**
   * An ASCII XML name with at most one colon (neither first nor last), followed by whitespace, `>`, `/` or `=`: its
   * id in `names`, or -1 otherwise.
   */
  private name(): number {
    const xml = this.xml;
    const start = this.i;
    let c = xml.charCodeAt(start);
    if (!isNameStart(c)) return -1;
    let hash = c;
    let i = start + 1;
    let colon = -1;
    for (;;) {
      c = xml.charCodeAt(i);
      if (isNameChar(c) || (c === COLON && colon < 0 && isNameStart(xml.charCodeAt(i + 1)))) {
        if (c === COLON) colon = i;
        hash = nextHash(hash, c);
        i++;
      } else break;
    }
    if (!(isSpace(c) || c === GT || c === SLASH || c === EQUALS)) return -1;
    this.i = i;
    return this.names.id(xml, start, i, colon, hash);
  }

  private skipSpace(): boolean {
    const xml = this.xml;
    const start = this.i;
    let i = start;
    while (isSpace(xml.charCodeAt(i))) i++;
    this.i = i;
    return i > start;
  }

  /** The id in the table of the local name of `name`. */
  private localId(name: number): number {
    const ids = this.names.localIds;
    let id = ids[name]!;
    if (id < 0) ids[name] = id = this.builder.nameId(this.names.locals[name]!);
    return id;
  }

  private startTag(): boolean {
    const names = this.names;
    const at = this.i;
    this.i++;
    const element = this.name();
    if (element < 0) return false;
    const count = this.attributes();
    if (count < 0) return false;
    // Namespace declarations or prefixed attributes: the general way. Else (most tags) every attribute is the
    // control namespace's, and only the element's prefix needs resolving.
    if (this.prefixed) return this.namespacedTag(element, count, at);
    const uri = this.openElement(element, undefined);
    if (uri === undefined) return false;
    const builder = this.builder;
    builder.startElement(uri, this.localId(element), names.qnames[element]!, at);
    for (let a = 0; a < count; a++) {
      const id = this.ids[a]!;
      builder.addAttribute('', this.localId(id), names.qnames[id]!, this.starts[a]!, this.ends[a]!, this.decoded[a]);
    }
    if (this.selfClosing) this.finishElement();
    return true;
  }

  /**
   * The attributes of a start tag, up to and with its `>` or `/>` (this.selfClosing says which): how many (in
   * this.ids, this.starts, this.ends, this.decoded), or -1 outside the subset. this.prefixed: one of them is a
   * namespace declaration or has a prefix.
   */
  private attributes(): number {
    const xml = this.xml;
    const names = this.names;
    let count = 0;
    this.prefixed = false;
    for (;;) {
      const spaced = this.skipSpace();
      const c = xml.charCodeAt(this.i);
      if (c === GT) {
        this.i++;
        this.selfClosing = false;
        return count;
      }
      if (c === SLASH) {
        if (xml.charCodeAt(this.i + 1) !== GT) return -1;
        this.i += 2;
        this.selfClosing = true;
        return count;
      }
      if (!spaced) return -1;
      const attribute = this.name();
      if (attribute < 0) return -1;
      this.skipSpace();
      if (xml.charCodeAt(this.i) !== EQUALS) return -1;
      this.i++;
      this.skipSpace();
      if (count === this.ids.length) this.growAttributes();
      if (!this.attributeValue(count)) return -1;
      const ids = this.ids;
      for (let b = 0; b < count; b++) if (ids[b] === attribute) return -1;
      ids[count++] = attribute;
      if (names.prefixes[attribute] !== '' || names.declares[attribute] !== undefined) this.prefixed = true;
    }
  }

  /**
   * Opens an element (with the bindings its declarations replaced, restored at its end): its namespace URI, or
   * undefined when its prefix is unbound or one an element may not have.
   */
  private openElement(element: number, replaced: Array<[string, string | undefined]> | undefined): string | undefined {
    this.undo.push(replaced);
    this.open.push(element);
    const prefix = this.names.prefixes[element]!;
    if (prefix === 'xml' || prefix === 'xmlns') return undefined;
    return this.scope.get(prefix) ?? (prefix === '' ? '' : undefined);
  }

  /** The rest of a start tag whose attributes declare namespaces or have prefixes. */
  private namespacedTag(element: number, count: number, at: number): boolean {
    const names = this.names;
    const ids = this.ids;
    // Namespace declarations first: they apply to the element's own name and attributes.
    let replaced: Array<[string, string | undefined]> | undefined;
    for (let a = 0; a < count; a++) {
      const prefix = names.declares[ids[a]!];
      if (prefix === undefined) continue;
      const uri = this.value(a);
      if (prefix !== '' && (prefix === 'xml' || prefix === 'xmlns' || uri === '')) return false;
      if (uri === XML_URI || uri === XMLNS_URI) return false;
      (replaced ??= []).push([prefix, this.scope.get(prefix)]);
      this.scope.set(prefix, uri);
    }
    const elementUri = this.openElement(element, replaced);
    if (elementUri === undefined) return false;
    // Resolve every attribute before the builder sees any: an unbound prefix is saxes' error to report.
    const uris = this.uris;
    for (let a = 0; a < count; a++) {
      const id = ids[a]!;
      const prefix = names.prefixes[id]!;
      if (names.declares[id] !== undefined) uris[a] = XMLNS_URI;
      else if (prefix === '') uris[a] = '';
      else if (prefix === 'xml') return false;
      else {
        const uri = this.scope.get(prefix);
        if (uri === undefined) return false;
        uris[a] = uri;
      }
    }
    // The same expanded name twice (two prefixes bound to one URI): saxes decides.
    for (let a = 0; a < count; a++) {
      if (uris[a] === '' || uris[a] === XMLNS_URI) continue;
      for (let b = a + 1; b < count; b++) {
        if (uris[b] === uris[a] && names.locals[ids[b]!] === names.locals[ids[a]!]) return false;
      }
    }
    const builder = this.builder;
    builder.startElement(elementUri, this.localId(element), names.qnames[element]!, at);
    for (let a = 0; a < count; a++) {
      const uri = uris[a]!;
      if (uri === XMLNS_URI) continue; // a namespace declaration, not an attribute of the node
      const id = ids[a]!;
      builder.addAttribute(uri, this.localId(id), names.qnames[id]!, this.starts[a]!, this.ends[a]!, this.decoded[a]);
    }
    if (this.selfClosing) this.finishElement();
    return true;
  }

  private growAttributes(): void {
    const size = this.ids.length * 2;
    const grow = (from: Int32Array) => {
      const to = new Int32Array(size);
      to.set(from);
      return to;
    };
    this.ids = grow(this.ids);
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
  }

  private finishElement(): void {
    this.builder.close();
    this.open.pop();
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
    const name = this.name();
    if (name < 0 || name !== this.open[this.open.length - 1]) return false;
    this.skipSpace();
    if (xml.charCodeAt(this.i) !== GT) return false;
    this.i++;
    this.finishElement();
    return true;
  }

  /** The value of the start tag's attribute `a`. */
  private value(a: number): string {
    return this.decoded[a] ?? this.xml.slice(this.starts[a], this.ends[a]);
  }

  /**
   * The start tag's attribute `a`: a quoted value, normalized as XML does for attributes without a DTD (entities and
   * character references replaced, each literal tab, newline and carriage return, a CR LF pair counting once, a
   * space). Where it lies in the text, and the value itself only when it differs from that text. False when the
   * value is outside the subset.
   */
  private attributeValue(a: number): boolean {
    const xml = this.xml;
    const quote = xml.charCodeAt(this.i);
    if (quote !== QUOT && quote !== APOS) return false;
    const start = this.i + 1;
    let i = start;
    let plain = true;
    for (;;) {
      const c = xml.charCodeAt(i);
      if (c === quote) break;
      if (c === LT || c !== c /* NaN: the end of the text */) return false;
      if (c === AMP || c === TAB || c === LF || c === CR) plain = false;
      i++;
    }
    this.i = i + 1;
    this.starts[a] = start;
    this.ends[a] = i;
    if (plain) {
      this.decoded[a] = undefined;
      return true;
    }
    const value = this.normalized(start, i);
    this.decoded[a] = value;
    return value !== undefined;
  }

  private normalized(start: number, end: number): string | undefined {
    const xml = this.xml;
    let out = '';
    let from = start;
    for (let k = start; k < end; k++) {
      const c = xml.charCodeAt(k);
      if (c === TAB || c === LF || c === CR) {
        out += `${xml.slice(from, k)} `;
        if (c === CR && xml.charCodeAt(k + 1) === LF) k++;
        from = k + 1;
      } else if (c === AMP) {
        const semicolon = xml.indexOf(';', k);
        if (semicolon < 0 || semicolon > end) return undefined;
        const replacement = this.reference(xml.slice(k + 1, semicolon));
        if (replacement === undefined) return undefined;
        out += xml.slice(from, k) + replacement;
        k = semicolon;
        from = k + 1;
      }
    }
    return out + xml.slice(from, end);
  }

  private reference(body: string): string | undefined {
    if (body.charCodeAt(0) !== 35 /* # */) return PREDEFINED.get(body);
    const hex = body.charCodeAt(1) === 120; /* x */
    const digits = body.slice(hex ? 2 : 1);
    if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
    const code = parseInt(digits, hex ? 16 : 10);
    return isXmlChar(code) ? String.fromCodePoint(code) : undefined;
  }
}
