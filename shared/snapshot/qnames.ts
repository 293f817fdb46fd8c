/**
 * The qualified names a document uses, each once, with what the snapshot reader needs of them (prefix, local name,
 * the prefix an `xmlns` attribute declares, the local name's id in the table). The reader finds a name by a hash of
 * its characters, computed as it reads them, so a name met again makes no string.
 */
export class QNames {
  readonly qnames: string[] = [];
  /** '' for a name without a colon. */
  readonly prefixes: string[] = [];
  readonly locals: string[] = [];
  /** For `xmlns` and `xmlns:p`: the prefix it declares ('' for the default namespace); else undefined. */
  readonly declares: (string | undefined)[] = [];
  /** The local name's id in the table, -1 until it is asked for. */
  readonly localIds: number[] = [];
  private readonly hashes: number[] = [];
  /** Open addressing: a name's id at the first free slot from its hash on; -1 is free. */
  private slots = new Int32Array(1024).fill(-1);

  /** The id of the name text[start, end) (with its colon at `colon`, -1 for none), whose hash is `hash`. */
  id(text: string, start: number, end: number, colon: number, hash: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = slots[slot]!;
      if (id < 0) return this.add(text.slice(start, end), colon < 0 ? -1 : colon - start, hash, slot);
      if (this.hashes[id] === hash) {
        const known = this.qnames[id]!;
        if (known.length === length && text.startsWith(known, start)) return id;
      }
    }
  }

  private add(qname: string, colon: number, hash: number, slot: number): number {
    const id = this.qnames.length;
    this.qnames.push(qname);
    this.hashes.push(hash);
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    this.prefixes.push(prefix);
    this.locals.push(colon < 0 ? qname : qname.slice(colon + 1));
    this.declares.push(qname === 'xmlns' ? '' : prefix === 'xmlns' ? qname.slice(colon + 1) : undefined);
    this.localIds.push(-1);
    this.slots[slot] = id;
    if (this.qnames.length * 2 > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.hashes.length; id++) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot]! >= 0) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}

/** The hash QNames.id() expects: from the first character's code, each next code mixed in by nextHash. */
export function nextHash(hash: number, code: number): number {
  return (Math.imul(hash, 31) + code) | 0;
}
