/**
 * The synchronous view of the node model that both XPath engines evaluate over (fontoxpath through a DOM facade,
 * and the compiled fast path). Implementations fetch lazily: asking for children or an attribute may materialize
 * nodes from a provider (in the XPath worker, through a blocking bridge to the runtime; see main/xpath/).
 *
 * Shape of the tree (PlatynUI's flat and grouped views): the document node is the desktop; its children are the
 * `app:Application` nodes first, then every top-level window (flat view). An application's children are the very
 * same window nodes (grouped view), whose `parent` is still the document. A child whose `parent` is not the node it
 * was reached from is an alias edge: descendant axes that started above the application skip it, so each element
 * is one node to a query (`//Button` lists a button once), while `app:Application[@Name='X']//Window` and `/Window`
 * both work.
 */
export interface XdmAttribute {
  /** null for control attributes (unnamespaced), else the namespace URI. */
  readonly namespaceUri: string | null;
  readonly localName: string;
  /** String value; reading it may fetch it. */
  readonly value: string;
}

/**
 * What an index answers with: the i-th element (document order), undefined past the end. An array is one; a lazy
 * list finds its elements as they are asked for, so a first-match query reads only what it needs.
 */
export interface ElementList<N> {
  at(index: number): N | undefined;
}

export interface XdmTree<N> {
  readonly root: N;
  isDocument(node: N): boolean;
  namespaceUri(node: N): string;
  localName(node: N): string;
  /** Namespace prefix used when printing the node's name (`item`, `app`, `native`, or '' for control). */
  prefix(node: N): string;
  parent(node: N): N | null;
  children(node: N): readonly N[];
  attributes(node: N): readonly XdmAttribute[];
  attribute(node: N, namespaceUri: string | null, localName: string): string | undefined;
  /**
   * The attributes with this local name in any namespace. Optional: a tree that knows some attributes cheaply (the
   * name, the runtime id) answers without fetching the others; without it, engines filter `attributes(node)`.
   */
  attributesNamed?(node: N, localName: string): readonly XdmAttribute[];
  /**
   * Optional index by name: the elements named {namespaceUri}localName among the document's descendants, each
   * element once (alias edges not followed), in document order; or undefined when the tree does not hold all of
   * them yet. It never fetches (a lazy tree answers only once everything it holds is complete), so an engine that
   * gets undefined walks, lazily, as it would without an index. The list stays valid until the tree changes; a tree
   * that changes drops or updates its index with the change. With `name`: only the elements whose Name attribute
   * (unnamespaced) is `name`, exactly as attribute(node, null, 'Name') answers.
   */
  elementsNamed?(namespaceUri: string, localName: string, name?: string): ElementList<N> | undefined;
  /**
   * Optional: true when `app:Application` elements occur only as children of the document (the live desktop), so
   * `//app:Application` from the document looks at the document's children alone instead of walking the tree.
   */
  readonly applicationsOnlyAtTop?: boolean;
  /**
   * Optional, for a tree that does not change: the node's place in document order (alias edges not followed; the
   * document first). Engines then compare these numbers instead of computing each node's path from the root.
   */
  documentPosition?(node: N): number;
  /** Throws the cancellation error when the evaluation was cancelled; engines call it at every step. */
  checkCancelled(): void;
}
