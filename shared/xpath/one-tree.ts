/**
 * One tree for XPath, also when fontoxpath evaluates. The tree (tree.ts) is a DAG: the document's children are the
 * applications and every top-level window, and an application lists its windows again (alias edges). The fast path
 * follows that contract; fontoxpath's DOM facade cannot (it gets a node per call and cannot tell a walk that started
 * above an application from one that started at it), so it is given the same tree without the alias edges: windows
 * under the document only.
 *
 * The two agree on every query except where a step looks below a top-level application (its windows are its
 * children only in the DAG) or asks whether it has children. This module reads the query's syntax tree (fontoxpath's
 * parseScript, XQueryX) and refuses, with a clear error naming the step, any query fontoxpath would answer
 * differently: nothing reads the query to choose a view, and a query is never answered differently.
 *
 * The analysis follows which sets of nodes may hold a top-level application. A downward step from such a set is
 * still exact when the set holds the document too (a child step then reaches the windows from the document) or the
 * application's windows (a descendant step then reaches their descendants from the windows themselves), and the
 * step's predicates do not count positions: that keeps `//*[matches(@Name, 'x')]` and `//node()` answerable.
 */
import { InspectorError, positionAt } from '../model/errors.js';
import { isNamespace, NAMESPACE_URIS, type Namespace } from '../model/namespaces.js';
import { significantTokens } from './lexer.js';

/** The part of fontoxpath this module uses (the caller hands it in, so fontoxpath loads only when needed). */
export type ScriptParser = Pick<typeof import('fontoxpath'), 'parseScript' | 'evaluateXPath'>;
type NodesFactory = Parameters<ScriptParser['parseScript']>[2];

/** A node of the XQueryX tree, built by the tiny factory below (no DOM library needed). */
class AstNode {
  readonly attributes = new Map<string, string>();
  readonly children: AstNode[] = [];
  text = '';
  readonly nodeType = 1;
  constructor(readonly name: string) {}
  setAttributeNS(_ns: string | null, name: string, value: string): void {
    this.attributes.set(name, value);
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  appendChild<T>(child: T): T {
    if (child instanceof AstNode) this.children.push(child);
    else if (isText(child)) this.text += child.data;
    return child;
  }
  insertBefore<T>(child: T): T {
    return this.appendChild(child);
  }
  child(name: string): AstNode | undefined {
    return this.children.find((c) => c.name === name);
  }
}

interface TextNode {
  nodeType: 3;
  data: string;
}
function isText(value: unknown): value is TextNode {
  return typeof value === 'object' && value !== null && (value as { nodeType?: number }).nodeType === 3;
}

const FACTORY = {
  createElementNS: (_ns: string, qualifiedName: string) => new AstNode(qualifiedName.replace(/^.*:/, '')),
  createTextNode: (data: string): TextNode => ({ nodeType: 3, data }),
  createComment: (data: string) => ({ nodeType: 8, data }),
  createCDATASection: (data: string): TextNode => ({ nodeType: 3, data }),
  createProcessingInstruction: (target: string, data: string) => ({ nodeType: 7, target, data }),
  createAttributeNS: (_ns: string, name: string) => ({ nodeType: 2, name, value: '' }),
};

/**
 * What a sequence may hold, for the analysis. `app`: it may hold a top-level application. `doc`: whenever it holds
 * one, it holds the document too. `windows`: whenever it holds an application, it holds each of its windows.
 */
interface Flow {
  app: boolean;
  doc: boolean;
  windows: boolean;
}
const NO_APPLICATION: Flow = { app: false, doc: false, windows: false };
const single = (app: boolean): Flow => ({ app, doc: false, windows: false });

function union(flows: readonly Flow[]): Flow {
  const withApp = flows.filter((f) => f.app);
  return {
    app: withApp.length > 0,
    doc: withApp.length > 0 && withApp.every((f) => f.doc),
    windows: withApp.length > 0 && withApp.every((f) => f.windows),
  };
}

const APP_URI = NAMESPACE_URIS.app;
const DOWNWARD = new Set(['child', 'descendant', 'descendant-or-self']);
const NON_ELEMENT_AXES = new Set(['attribute', 'namespace']);
/** Functions whose answer depends on an element's children. */
const READS_CHILDREN = new Set(['has-children', 'deep-equal']);
/** Functions that find elements anywhere in the document of their argument. */
const FINDS_ELEMENTS = new Set(['id', 'element-with-id', 'idref']);

/** The error of a query fontoxpath could answer differently from the one tree (code `xpath-evaluation`). */
export class OneTreeError extends InspectorError {}

/** Thrown inside the analysis; turned into the user's error with a position. */
class Refusal {
  constructor(
    readonly at: AstNode,
    readonly what: string,
  ) {}
}

interface NodeTestInfo {
  mayMatchApplication: boolean;
  /** May match one of the windows an application lists. */
  mayMatchWindow: boolean;
  /** Matches every element (so every window). */
  matchesElements: boolean;
  matchesDocument: boolean;
}

function nodeTest(test: AstNode | undefined, windowNames: ReadonlySet<string>): NodeTestInfo {
  const info = nodeTestBase(test);
  if (test?.name !== 'nameTest') return { ...info, mayMatchWindow: info.mayMatchApplication };
  const prefix = test.attributes.get('xqx:prefix');
  const uri =
    test.attributes.get('xqx:URI') ?? (isNamespace(prefix ?? '') ? NAMESPACE_URIS[prefix as Namespace] : undefined);
  const namespaceUri = prefix === '' && uri === undefined ? NAMESPACE_URIS.control : uri;
  return { ...info, mayMatchWindow: namespaceUri === undefined || windowNames.has(`{${namespaceUri}}${test.text}`) };
}

function nodeTestBase(test: AstNode | undefined): Omit<NodeTestInfo, 'mayMatchWindow'> {
  if (!test) return { mayMatchApplication: true, matchesElements: false, matchesDocument: false };
  switch (test.name) {
    case 'nameTest': {
      const prefix = test.attributes.get('xqx:prefix');
      const uri = test.attributes.get('xqx:URI');
      return {
        mayMatchApplication: prefix === 'app' || uri === APP_URI,
        matchesElements: false,
        matchesDocument: false,
      };
    }
    case 'Wildcard': {
      // `*`: no children; `app:*`: NCName then star; `*:Button`: star then NCName; `Q{uri}*`: uri then star.
      const first = test.children[0];
      const namespaceGiven = first?.name === 'NCName' || first?.name === 'uri';
      return {
        mayMatchApplication: !namespaceGiven || first.text === 'app' || first.text === APP_URI,
        matchesElements: first === undefined,
        matchesDocument: false,
      };
    }
    case 'anyKindTest':
      return { mayMatchApplication: true, matchesElements: true, matchesDocument: true };
    case 'elementTest': {
      const named = test.child('elementName');
      return { mayMatchApplication: true, matchesElements: named === undefined, matchesDocument: false };
    }
    case 'documentTest':
      return { mayMatchApplication: false, matchesElements: false, matchesDocument: true };
    case 'textTest':
    case 'commentTest':
    case 'piTest':
    case 'attributeTest':
    case 'namespaceTest':
      return { mayMatchApplication: false, matchesElements: false, matchesDocument: false };
    default:
      return { mayMatchApplication: true, matchesElements: false, matchesDocument: false };
  }
}

/** A predicate may select by position unless its static type is a boolean or nodes, and it calls no position(). */
function positional(predicate: AstNode): boolean {
  const type = predicate.attributes.get('fontoxpath:type');
  if (!type || !(type === 'xs:boolean' || /^(node|element|attribute)\(\)[*+?]?$/.test(type))) return true;
  const calls = (node: AstNode): boolean =>
    (node.name === 'functionCallExpr' && /^(position|last)$/.test(node.child('functionName')?.text ?? '')) ||
    node.children.some(calls);
  return calls(predicate);
}

type Variables = ReadonlyMap<string, Flow>;

function variableName(binding: AstNode | undefined): string {
  const name = binding?.name === 'varName' ? binding : binding?.child('varName');
  return name?.text ?? '';
}

class Analysis {
  constructor(private readonly windowNames: ReadonlySet<string>) {}

  expression(node: AstNode, context: Flow, variables: Variables): Flow {
    switch (node.name) {
      case 'pathExpr':
        return this.path(node, context, variables);
      case 'contextItemExpr':
        return context;
      case 'rootExpr':
        return NO_APPLICATION;
      case 'varRef':
        return variables.get(node.child('name')?.text ?? '') ?? single(true);
      case 'flworExpr':
        return this.flwor(node, context, variables);
      case 'quantifiedExpr':
        return this.quantified(node, context, variables);
      case 'inlineFunctionExpr':
        return this.inlineFunction(node, variables);
      case 'functionCallExpr':
        return this.functionCall(node, context, variables);
      case 'namedFunctionRef': {
        const name = node.child('functionName')?.text ?? '';
        if (READS_CHILDREN.has(name)) throw new Refusal(node, `\`${name}\` as a function item`);
        return NO_APPLICATION;
      }
      case 'simpleMapExpr': {
        let flow = context;
        node.children.forEach((part, i) => {
          flow = this.expression(part, i === 0 ? context : single(flow.app), variables);
        });
        return flow;
      }
      case 'intersectOp':
      case 'exceptOp': {
        const [first, ...rest] = node.children.map((part) => this.expression(part, context, variables));
        void rest;
        return single(first?.app ?? false);
      }
      case 'arrowExpr': {
        const flow = union(node.children.map((part) => this.expression(part, context, variables)));
        const name = node.child('EQName')?.text ?? '';
        if (READS_CHILDREN.has(name) && flow.app) throw new Refusal(node, `\`${name}\` of an application`);
        return single(flow.app);
      }
      default:
        return union(node.children.map((part) => this.expression(part, context, variables)));
    }
  }

  private path(node: AstNode, context: Flow, variables: Variables): Flow {
    let flow = context;
    node.children.forEach((step, i) => {
      if (step.name === 'rootExpr') flow = NO_APPLICATION;
      else if (step.name === 'stepExpr') flow = this.step(step, flow, i === 0, variables);
      else flow = this.expression(step, i === 0 ? flow : single(flow.app), variables);
    });
    return flow;
  }

  private step(step: AstNode, from: Flow, first: boolean, variables: Variables): Flow {
    const axis = step.child('xpathAxis')?.text;
    const predicates = step.child('predicates')?.children ?? [];
    let flow: Flow;
    if (
      axis === undefined &&
      predicates.length === 0 &&
      step.child('filterExpr')?.children[0]?.name === 'contextItemExpr'
    ) {
      // `.` as a step keeps each node: the set stays what it was.
      return from;
    }
    if (axis === undefined) {
      const filter = step.child('filterExpr');
      const primary = filter?.children[0];
      flow = primary ? this.expression(primary, first ? from : single(from.app), variables) : single(true);
      for (const part of step.children)
        if (part !== filter && part.name !== 'predicates') this.expression(part, single(flow.app), variables);
    } else {
      const test = nodeTest(
        step.children.find((c) => c.name !== 'xpathAxis' && c.name !== 'predicates'),
        this.windowNames,
      );
      if (DOWNWARD.has(axis) && from.app && !(axis === 'child' && !test.mayMatchWindow)) {
        const covered = axis === 'child' ? from.doc : from.doc || from.windows;
        if (!covered || predicates.some(positional)) throw new Refusal(step, `a \`${axis}\` step from an application`);
      }
      flow = this.axisFlow(axis, test, from);
    }
    for (const predicate of predicates) this.expression(predicate, single(flow.app), variables);
    return predicates.length > 0 ? single(flow.app) : flow;
  }

  private axisFlow(axis: string, test: NodeTestInfo, from: Flow): Flow {
    if (NON_ELEMENT_AXES.has(axis)) return NO_APPLICATION;
    switch (axis) {
      case 'self':
        return {
          app: from.app && test.mayMatchApplication,
          doc: from.doc && test.matchesDocument,
          windows: from.windows && test.matchesElements,
        };
      case 'descendant-or-self':
        // An application in the answer is in `from` (self) or a child of the document in `from`.
        return {
          app: test.mayMatchApplication,
          doc: test.matchesDocument && (!from.app || from.doc),
          windows: test.matchesElements && (!from.app || from.doc || from.windows),
        };
      case 'parent':
      case 'ancestor':
        // A top-level application is nobody's parent: its windows' parent is the document.
        return NO_APPLICATION;
      case 'ancestor-or-self':
        return single(from.app && test.mayMatchApplication);
      case 'child':
      case 'descendant':
        // An application in the answer is a child of the document, which was in `from`: so are all windows.
        return { app: test.mayMatchApplication, doc: false, windows: test.matchesElements };
      default:
        return single(test.mayMatchApplication);
    }
  }

  private flwor(node: AstNode, context: Flow, outer: Variables): Flow {
    const variables = new Map(outer);
    let result = NO_APPLICATION;
    for (const clause of node.children) {
      switch (clause.name) {
        case 'forClause':
          for (const item of clause.children) {
            const source = item.child('forExpr')?.children[0];
            const flow = source ? this.expression(source, context, variables) : single(true);
            variables.set(variableName(item.child('typedVariableBinding')), single(flow.app));
            const position = item.child('positionalVariableBinding');
            if (position) variables.set(position.text, NO_APPLICATION);
          }
          break;
        case 'letClause':
          for (const item of clause.children) {
            const source = item.child('letExpr')?.children[0];
            const flow = source ? this.expression(source, context, variables) : single(true);
            variables.set(variableName(item.child('typedVariableBinding')), flow);
          }
          break;
        case 'returnClause':
          result = union(clause.children.map((part) => this.expression(part, context, variables)));
          break;
        default:
          for (const part of clause.children) this.expression(part, context, variables);
      }
    }
    return result;
  }

  private quantified(node: AstNode, context: Flow, outer: Variables): Flow {
    const variables = new Map(outer);
    for (const part of node.children) {
      if (part.name === 'quantifiedExprInClause') {
        const source = part.child('sourceExpr')?.children[0];
        const flow = source ? this.expression(source, context, variables) : single(true);
        variables.set(variableName(part.child('typedVariableBinding')), single(flow.app));
      } else this.expression(part, context, variables);
    }
    return NO_APPLICATION;
  }

  private inlineFunction(node: AstNode, outer: Variables): Flow {
    const variables = new Map(outer);
    for (const param of node.child('paramList')?.children ?? []) variables.set(variableName(param), single(true));
    const body = node.child('functionBody');
    return body ? union(body.children.map((part) => this.expression(part, single(true), variables))) : NO_APPLICATION;
  }

  private functionCall(node: AstNode, context: Flow, variables: Variables): Flow {
    const name = node.child('functionName')?.text ?? '';
    const args = (node.child('arguments')?.children ?? []).map((arg) => this.expression(arg, context, variables));
    const reads = args.length === 0 ? context : union(args);
    if (READS_CHILDREN.has(name) && reads.app) throw new Refusal(node, `\`${name}\` of an application`);
    if (name === 'root') return NO_APPLICATION;
    return single(FINDS_ELEMENTS.has(name) || args.some((arg) => arg.app));
  }
}

/** Source order of the XQueryX nodes, for finding a node's text in the query. */
function preorder(root: AstNode): AstNode[] {
  const out: AstNode[] = [];
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

function nameTestText(test: AstNode): string {
  const prefix = test.attributes.get('xqx:prefix');
  const uri = test.attributes.get('xqx:URI');
  if (prefix) return `${prefix}:${test.text}`;
  return uri !== undefined && prefix === undefined ? `Q{${uri}}${test.text}` : test.text;
}

/**
 * Where the refused construct is in the query: the name test of the refused step (or, for `//` and other steps
 * without a name, of the step after it or before it), or the function's name; found as the n-th occurrence of that
 * text among the query's tokens, n being its rank among the syntax tree's nodes with the same text.
 */
function offsetOf(xpath: string, root: AstNode, at: AstNode): number {
  const nodes = preorder(root);
  const tokens = significantTokens(xpath);
  const occurrence = (target: AstNode, text: string, isFunction: boolean): number | undefined => {
    const same = nodes.filter((n) =>
      isFunction
        ? (n.name === 'functionCallExpr' || n.name === 'namedFunctionRef') && n.child('functionName')?.text === text
        : n.name === 'nameTest' && nameTestText(n) === text,
    );
    const rank = same.indexOf(target);
    const found = tokens.filter((token, i) => {
      if (token.kind !== 'name' || token.operatorPosition) return false;
      const bare = token.text.replace(/^fn:/, '');
      const next = tokens[i + 1]?.text;
      return isFunction ? bare === text && (next === '(' || next === '#') : token.text === text && next !== '(';
    });
    return rank >= 0 ? found[rank]?.start : undefined;
  };
  if (at.name !== 'stepExpr') return occurrence(at, at.child('functionName')?.text ?? '', true) ?? 0;
  const path = nodes.find((n) => n.children.includes(at));
  const steps = path?.children ?? [at];
  const here = steps.indexOf(at);
  const candidates = [at, ...steps.slice(here + 1), ...steps.slice(0, here).reverse()];
  for (const step of candidates) {
    const test = step.child('nameTest');
    if (!test) continue;
    const offset = occurrence(test, nameTestText(test), false);
    if (offset !== undefined) return offset;
  }
  return 0;
}

/** What the check needs to know of the tree. */
export interface OneTreeShape {
  /** The query's context node is a top-level application. */
  contextIsApplication: boolean;
  /** `{namespace-uri}local-name` of each window an application lists (alias edges); empty when none does. */
  windowNames: ReadonlySet<string>;
}

/**
 * Throws an `xpath-evaluation` error naming the step when fontoxpath, over the tree without alias edges, could
 * answer the query differently from the one tree. A tree without alias edges is that tree already: nothing to
 * check. A query fontoxpath cannot parse passes (fontoxpath reports the syntax error itself).
 */
export function checkOneTree(fontoxpath: ScriptParser, xpath: string, shape: OneTreeShape): void {
  if (shape.windowNames.size === 0) return;
  let root: AstNode;
  try {
    root = fontoxpath.parseScript(
      xpath,
      { language: fontoxpath.evaluateXPath.XPATH_3_1_LANGUAGE, annotateAst: true },
      // parseScript builds its XQueryX through the factory; these plain objects are all the analysis reads.
      FACTORY as unknown as NodesFactory,
    ) as unknown as AstNode;
  } catch {
    return;
  }
  try {
    new Analysis(shape.windowNames).expression(root, single(shape.contextIsApplication), new Map());
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const position = positionAt(xpath, offsetOf(xpath, root, error.at));
    throw new OneTreeError(
      'xpath-evaluation',
      `This query needs fontoxpath (it is outside the fast path's subset), which cannot look below an application: ` +
        `${error.what} at line ${position.line}, column ${position.column}. An application's windows are also the ` +
        `desktop's children: start from them (\`/Window[...]\`, \`//Window[...]\`), or keep the query in the fast ` +
        `path's subset (paths, =, !=, contains, starts-with, and/or/not, [n], count()).`,
      { position },
    );
  }
}
