/**
 * Tokenizer and recursive-descent parser for the XPath subset the fast path compiles. Anything outside the subset
 * (and anything that is not valid XPath) yields `undefined`: the caller then hands the expression to fontoxpath,
 * which stays the full parser and reports syntax errors with their positions.
 */

export type Axis =
  | 'child'
  | 'descendant'
  | 'descendant-or-self'
  | 'self'
  | 'parent'
  | 'ancestor'
  | 'ancestor-or-self'
  | 'following-sibling'
  | 'preceding-sibling'
  | 'attribute';

export const REVERSE_AXES: ReadonlySet<Axis> = new Set<Axis>([
  'parent',
  'ancestor',
  'ancestor-or-self',
  'preceding-sibling',
]);

/** `ns` null: no namespace (attributes without prefix); '*': any namespace. `local` '*': any local name. */
export type NodeTest = { k: 'node' } | { k: 'name'; ns: string | null; local: string };

export interface Step {
  axis: Axis;
  test: NodeTest;
  preds: Expr[];
}

export type Expr =
  | { k: 'path'; start: 'root' | 'context' | Expr; steps: Step[] }
  | { k: 'union'; items: Expr[] }
  | { k: 'filter'; base: Expr; preds: Expr[] }
  | { k: 'str'; v: string }
  | { k: 'num'; v: number }
  | { k: 'bool'; v: boolean }
  | { k: 'cmp'; op: '=' | '!='; l: Expr; r: Expr }
  | { k: 'and' | 'or'; l: Expr; r: Expr }
  | { k: 'not'; a: Expr }
  | { k: 'contains' | 'starts-with'; a: Expr; b: Expr }
  | { k: 'count'; a: Expr }
  | { k: 'last' };

type Tok =
  | { t: 'name'; v: string } // NCName, QName, prefix:* or *:local or *
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'op'; v: string };

const NAME_START =
  /[A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F]/;
const NAME_CHAR =
  /[-.0-9A-Za-z_\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F-\u2040\u2070-\u218F]/;

class Unsupported extends Error {}

function fail(): never {
  throw new Unsupported();
}

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const n = src.length;
  const ncname = (): string => {
    const s = i;
    if (i >= n || !NAME_START.test(src[i]!)) fail();
    i++;
    while (i < n && NAME_CHAR.test(src[i]!)) i++;
    return src.slice(s, i);
  };
  while (i < n) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let v = '';
      i++;
      for (;;) {
        if (i >= n) fail();
        const d = src[i]!;
        if (d === c) {
          if (src[i + 1] === c) {
            v += c;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        // Entity and character references only exist in XQuery string literals; keep '&' out to stay safe.
        if (d === '&') fail();
        v += d;
        i++;
      }
      out.push({ t: 'str', v });
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && src[i + 1] !== undefined && /[0-9]/.test(src[i + 1]!))) {
      const m = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(src.slice(i));
      if (!m) fail();
      i += m[0].length;
      // XPath forbids a name character right after a numeric literal (`1div`, `2e`, `3.4.5`).
      if (i < n && (NAME_CHAR.test(src[i]!) || src[i] === '.')) fail();
      out.push({ t: 'num', v: Number(m[0]) });
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '//' || two === '!=' || two === '::' || two === '..') {
      out.push({ t: 'op', v: two });
      i += 2;
      continue;
    }
    if (two === '(:') fail(); // comments: leave them to fontoxpath
    if ('/()[]@.,|=-'.includes(c)) {
      out.push({ t: 'op', v: c });
      i++;
      continue;
    }
    if (c === '*') {
      i++;
      if (src[i] === ':' && i + 1 < n && NAME_START.test(src[i + 1]!)) {
        i++;
        out.push({ t: 'name', v: '*:' + ncname() });
      } else out.push({ t: 'name', v: '*' });
      continue;
    }
    if (NAME_START.test(c)) {
      let v = ncname();
      if (src[i] === ':' && src[i + 1] !== ':') {
        i++;
        if (src[i] === '*') {
          i++;
          v += ':*';
        } else v += ':' + ncname();
      }
      out.push({ t: 'name', v });
      continue;
    }
    fail();
  }
  return out;
}

const AXES: ReadonlySet<string> = new Set([
  'child',
  'descendant',
  'descendant-or-self',
  'self',
  'parent',
  'ancestor',
  'ancestor-or-self',
  'following-sibling',
  'preceding-sibling',
  'attribute',
]);

const FUNCTIONS: ReadonlySet<string> = new Set(['count', 'contains', 'starts-with', 'not', 'true', 'false', 'last']);

export interface ParseOptions {
  /** Namespace URI for unprefixed element names. */
  defaultElementNamespace: string;
  /** Resolves a prefix; undefined when unknown (then the expression goes to fontoxpath, which reports it). */
  resolve(prefix: string): string | undefined;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly toks: Tok[],
    private readonly opts: ParseOptions,
  ) {}

  private peek(o = 0): Tok | undefined {
    return this.toks[this.pos + o];
  }
  private isOp(v: string, o = 0): boolean {
    const t = this.peek(o);
    return t !== undefined && t.t === 'op' && t.v === v;
  }
  private isName(v: string, o = 0): boolean {
    const t = this.peek(o);
    return t !== undefined && t.t === 'name' && t.v === v;
  }
  private expectOp(v: string): void {
    if (!this.isOp(v)) fail();
    this.pos++;
  }

  parseAll(): Expr {
    const e = this.expr();
    if (this.pos !== this.toks.length) fail();
    return e;
  }

  private expr(): Expr {
    let l = this.and();
    while (this.isName('or')) {
      this.pos++;
      l = { k: 'or', l, r: this.and() };
    }
    return l;
  }
  private and(): Expr {
    let l = this.cmp();
    while (this.isName('and')) {
      this.pos++;
      l = { k: 'and', l, r: this.cmp() };
    }
    return l;
  }
  private cmp(): Expr {
    const l = this.union();
    if (this.isOp('=') || this.isOp('!=')) {
      const op = (this.peek() as { v: '=' | '!=' }).v;
      this.pos++;
      const r = this.union();
      if (this.isOp('=') || this.isOp('!=')) fail(); // comparisons do not chain in XPath
      return { k: 'cmp', op, l, r };
    }
    return l;
  }
  private union(): Expr {
    const first = this.path();
    if (!(this.isOp('|') || this.isName('union'))) return first;
    const items = [first];
    while (this.isOp('|') || this.isName('union')) {
      this.pos++;
      items.push(this.path());
    }
    return { k: 'union', items };
  }

  private path(): Expr {
    if (this.isOp('/')) {
      this.pos++;
      if (this.startsStep()) return { k: 'path', start: 'root', steps: this.relSteps() };
      return { k: 'path', start: 'root', steps: [] };
    }
    if (this.isOp('//')) {
      this.pos++;
      return { k: 'path', start: 'root', steps: [DOS, ...this.relSteps()] };
    }
    // A primary expression (literal, parenthesized, function call) may start a path.
    const primary = this.tryPrimary();
    if (primary) {
      const preds = this.preds();
      const base: Expr = preds.length ? { k: 'filter', base: primary, preds } : primary;
      if (this.isOp('/') || this.isOp('//')) {
        const steps: Step[] = [];
        this.moreSteps(steps);
        return { k: 'path', start: base, steps };
      }
      return base;
    }
    return { k: 'path', start: 'context', steps: this.relSteps() };
  }

  private startsStep(): boolean {
    const t = this.peek();
    if (!t) return false;
    if (t.t === 'name') return true;
    return t.t === 'op' && (t.v === '@' || t.v === '.' || t.v === '..');
  }

  private relSteps(): Step[] {
    const steps: Step[] = [this.step()];
    this.moreSteps(steps);
    return steps;
  }
  private moreSteps(steps: Step[]): void {
    for (;;) {
      if (this.isOp('/')) {
        this.pos++;
        steps.push(this.step());
      } else if (this.isOp('//')) {
        this.pos++;
        steps.push(DOS, this.step());
      } else return;
    }
  }

  private tryPrimary(): Expr | undefined {
    const t = this.peek();
    if (!t) fail();
    if (t.t === 'str') {
      this.pos++;
      return { k: 'str', v: t.v };
    }
    if (t.t === 'num') {
      this.pos++;
      return { k: 'num', v: t.v };
    }
    if (t.t === 'op' && t.v === '-') {
      // Unary minus, on a numeric literal only.
      const n = this.peek(1);
      if (!n || n.t !== 'num') fail();
      this.pos += 2;
      return { k: 'num', v: -n.v };
    }
    if (t.t === 'op' && t.v === '(') {
      this.pos++;
      if (this.isOp(')')) fail(); // the empty sequence: leave it to fontoxpath
      const e = this.expr();
      this.expectOp(')');
      return e;
    }
    if (t.t === 'name' && this.isOp('(', 1)) {
      if (t.v === 'node') return undefined; // kind test, a step
      if (!FUNCTIONS.has(t.v)) fail();
      this.pos += 2;
      const args: Expr[] = [];
      if (!this.isOp(')')) {
        args.push(this.expr());
        while (this.isOp(',')) {
          this.pos++;
          args.push(this.expr());
        }
      }
      this.expectOp(')');
      switch (t.v) {
        case 'true':
        case 'false':
          if (args.length) fail();
          return { k: 'bool', v: t.v === 'true' };
        case 'last':
          if (args.length) fail();
          return { k: 'last' };
        case 'not':
          if (args.length !== 1) fail();
          return { k: 'not', a: args[0]! };
        case 'count':
          if (args.length !== 1) fail();
          return { k: 'count', a: args[0]! };
        default:
          if (args.length !== 2) fail();
          return { k: t.v as 'contains' | 'starts-with', a: args[0]!, b: args[1]! };
      }
    }
    return undefined;
  }

  private preds(): Expr[] {
    const preds: Expr[] = [];
    while (this.isOp('[')) {
      this.pos++;
      preds.push(this.expr());
      this.expectOp(']');
    }
    return preds;
  }

  private step(): Step {
    if (this.isOp('.')) {
      this.pos++;
      return { axis: 'self', test: { k: 'node' }, preds: this.preds() };
    }
    if (this.isOp('..')) {
      this.pos++;
      return { axis: 'parent', test: { k: 'node' }, preds: this.preds() };
    }
    let axis: Axis = 'child';
    if (this.isOp('@')) {
      this.pos++;
      axis = 'attribute';
    } else {
      const t = this.peek();
      if (t && t.t === 'name' && this.isOp('::', 1)) {
        if (!AXES.has(t.v)) fail();
        axis = t.v as Axis;
        this.pos += 2;
      }
    }
    const test = this.nodeTest(axis);
    return { axis, test, preds: this.preds() };
  }

  private nodeTest(axis: Axis): NodeTest {
    const t = this.peek();
    if (!t || t.t !== 'name') fail();
    this.pos++;
    if (this.isOp('(')) {
      if (t.v !== 'node') fail();
      this.pos++;
      this.expectOp(')');
      return { k: 'node' };
    }
    const v = t.v;
    const attr = axis === 'attribute';
    if (v === '*') return { k: 'name', ns: '*', local: '*' };
    if (v.startsWith('*:')) return { k: 'name', ns: '*', local: v.slice(2) };
    const colon = v.indexOf(':');
    if (colon < 0) return { k: 'name', ns: attr ? null : this.opts.defaultElementNamespace, local: v };
    const uri = this.opts.resolve(v.slice(0, colon));
    if (uri === undefined) fail();
    const local = v.slice(colon + 1);
    // Control attributes are unnamespaced; `@control:Name` finds them too (as the XPath pipeline rewrites it).
    if (attr && uri === CONTROL_URI) return { k: 'name', ns: null, local };
    return { k: 'name', ns: uri, local };
  }
}

const CONTROL_URI = 'urn:platynui:control';

const DOS: Step = { axis: 'descendant-or-self', test: { k: 'node' }, preds: [] };

/** Parses `src` into the subset's AST, or undefined when it is outside the subset (or not XPath at all). */
export function parseFastPath(src: string, opts: ParseOptions): Expr | undefined {
  try {
    return new Parser(tokenize(src), opts).parseAll();
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}
