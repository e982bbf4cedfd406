/** Latencies (ms) summed up as the bench's figures: how many, p50, p99 and the slowest, to 0.1 ms. */
export function latencySummary(latencies: readonly number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const quantile = (q: number) =>
    sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    count: sorted.length,
    p50Ms: round(quantile(0.5)),
    p99Ms: round(quantile(0.99)),
    maxMs: round(sorted.at(-1) ?? Number.NaN),
  };
}
