import fontoxpath from 'fontoxpath';
import { evaluateOverTreeWith, type EvaluationOutcome } from './evaluate-core.js';
import type { XdmTree } from './tree.js';

export {
  toXPathError,
  type EvaluationOutcome,
  type XPathEngine,
  type XPathItem,
  type XPathValue,
} from './evaluate-core.js';

/** evaluateOverTreeWith with fontoxpath loaded up front (for callers that do not care when it loads). */
export function evaluateOverTree<N>(tree: XdmTree<N>, xpath: string, context: N): EvaluationOutcome<N> {
  return evaluateOverTreeWith(() => fontoxpath, tree, xpath, context);
}
