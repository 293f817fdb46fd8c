import fontoxpath from 'fontoxpath';
import { evaluateOverTreeWith, type EvaluationOutcome, type XPathEngine, type XPathItem } from './evaluate-core.js';
import type { XdmTree } from './tree.js';

export {
  toXPathError,
  type EvaluationOutcome,
  type XPathEngine,
  type XPathItem,
  type XPathValue,
} from './evaluate-core.js';

/** evaluateOverTreeWith with fontoxpath loaded up front (for callers that do not care when it loads). */
export function evaluateOverTree<N>(
  tree: XdmTree<N>,
  xpath: string,
  context: N,
  onItem?: (item: XPathItem<N>) => void,
  prepare?: (engine: XPathEngine) => void,
): EvaluationOutcome<N> {
  return evaluateOverTreeWith(() => fontoxpath, tree, xpath, context, onItem, prepare);
}
