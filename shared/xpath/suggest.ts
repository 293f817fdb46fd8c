/** "Did you mean ...?": the known name closest to a typed one, if it is close enough to be a typo. */

/** Edit distance with transpositions (optimal string alignment), so `Buotn` is one step from `Button`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/**
 * The candidate nearest to `typed` (case-insensitively; a name that differs only in case wins), or undefined when
 * none is within a third of the name's length (at least one edit).
 */
export function closestName(typed: string, candidates: Iterable<string>): string | undefined {
  const lower = typed.toLowerCase();
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === typed) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    const score = distance === 0 ? -1 : distance;
    if (score < bestDistance || (score === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = score;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
