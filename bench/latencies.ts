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

/**
 * Latencies (ms) of `path` asked back to back, or every `everyMs`, until `until` resolves; the
 * connections reset counted in `resets`.
 */
export async function asked(
  base: string,
  path: string,
  resets: { count: number },
  until: Promise<unknown>,
  everyMs = 0,
): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    // A connection reset (a keep-alive closed by a service whose loop came back late) is counted
    // as its time, and tried again on a new connection
    await fetch(`${base}${path}`).then(
      async (answer) => {
        await answer.arrayBuffer();
        if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
      },
      () => {
        resets.count += 1;
      },
    );
    const took = performance.now() - started;
    latencies.push(took);
    if (everyMs > took) await new Promise((resolve) => setTimeout(resolve, everyMs - took));
  }
  return latencies;
}
