import type { AttributeEntry } from '../model/attributes.js';
import type { Namespace } from '../model/namespaces.js';

/**
 * A snapshot is a tree of nodes with their attributes, as written by `snapshot` and read back by the mock provider.
 * The XML form: the document element `<snapshot>` holds top-level nodes (or the document is a single node element);
 * each node element's local name is its role and its namespace the node namespace; attributes are XML attributes,
 * control ones unprefixed, others prefixed; values typed (see shared/model/values.ts, parseValueText).
 */
export interface SnapshotNode {
  namespace: Namespace;
  role: string;
  attributes: AttributeEntry[];
  children: SnapshotNode[];
}
