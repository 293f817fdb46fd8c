// Helpers shared by the benchmarks (run.mjs skips files starting with "_").

/** The p-th percentile (nearest rank) of the samples. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One `name value unit` line, the value rounded to three decimals. */
export const print = (name: string, value: number, unit: string) =>
  process.stdout.write(`${name} ${Math.round(value * 1000) / 1000} ${unit}\n`);
