import { NAMESPACES, type Namespace } from '../../shared/model/namespaces.js';
import type { NodeRecord } from './protocol.js';

/**
 * A region of the tree as the worker receives it: node records in pre-order as parallel integer fields in one
 * Int32Array, every string (role, name, runtime id, developer id) once in a string table. A whole loaded
 * application travels as one such block in one message (one copy of two arrays), not as one object per node.
 *
 * Per node, FIELDS integers: handle, parent handle (-1: none), namespace index, role, name, runtime id and developer
 * id as string table indices (-1: no id), and the number of children that follow in the block (-1: the children were
 * not sent).
 */
export interface RecordBlock {
  ints: Int32Array;
  strings: string[];
  /** Records at the top level of the block (the answer's list, or one root). */
  top: number;
}

export const FIELDS = 8;

/** One node's fields as a record (what the encoder takes, one node at a time, and the decoder hands out). */
export interface BlockNode extends Omit<NodeRecord, 'id'> {
  id: string | undefined;
}

const NAMESPACE_INDEX = new Map<Namespace, number>(NAMESPACES.map((ns, index) => [ns, index]));

/** Builds a block node by node in pre-order: add(node, kids) with kids the number of children added next, or -1. */
export class RecordBlockWriter {
  private ints = new Int32Array(FIELDS * 64);
  private length = 0;
  private readonly strings: string[] = [];
  private readonly indices = new Map<string, number>();
  private top = 0;
  /** Records written (the block's node count). */
  count = 0;

  private intern(text: string): number {
    let index = this.indices.get(text);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(text);
      this.indices.set(text, index);
    }
    return index;
  }

  /**
   * Adds one node; returns its position, so `setKids` can fill in the child count once the children are written.
   * `topLevel`: the node is one of the block's top-level records.
   */
  add(node: BlockNode, topLevel: boolean): number {
    if (this.length + FIELDS > this.ints.length) {
      const grown = new Int32Array(this.ints.length * 2);
      grown.set(this.ints);
      this.ints = grown;
    }
    const at = this.length;
    const ints = this.ints;
    ints[at] = node.h;
    ints[at + 1] = node.p;
    ints[at + 2] = NAMESPACE_INDEX.get(node.ns) ?? 0;
    ints[at + 3] = this.intern(node.role);
    ints[at + 4] = this.intern(node.name);
    ints[at + 5] = this.intern(node.rid);
    ints[at + 6] = node.id === undefined ? -1 : this.intern(node.id);
    ints[at + 7] = -1;
    this.length += FIELDS;
    this.count++;
    if (topLevel) this.top++;
    return at;
  }

  setKids(position: number, kids: number): void {
    this.ints[position + 7] = kids;
  }

  finish(): RecordBlock {
    return { ints: this.ints.slice(0, this.length), strings: this.strings, top: this.top };
  }
}

/** Reads a block in pre-order (the worker's side). */
export class RecordBlockReader {
  private at = 0;
  constructor(private readonly block: RecordBlock) {}

  get done(): boolean {
    return this.at >= this.block.ints.length;
  }

  /** The next record's fields and how many child records follow it (-1: its children were not sent). */
  next(): { node: BlockNode; kids: number } {
    const { ints, strings } = this.block;
    const at = this.at;
    this.at += FIELDS;
    const id = ints[at + 6]!;
    return {
      node: {
        h: ints[at]!,
        p: ints[at + 1]!,
        ns: NAMESPACES[ints[at + 2]!] ?? 'control',
        role: strings[ints[at + 3]!]!,
        name: strings[ints[at + 4]!]!,
        rid: strings[ints[at + 5]!]!,
        id: id < 0 ? undefined : strings[id],
      },
      kids: ints[at + 7]!,
    };
  }
}
