/*
 * What a streamed answer holds while it is read: a slot among the streams open at once, given back
 * once, however the answer ends.
 */

/**
 * The text chunks as bytes, until the client goes away (the table is not computed further);
 * `release` once it ends, however it ends.
 */
export async function* sent(
  chunks: AsyncGenerator<string>,
  signal: AbortSignal,
  release: () => void,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of chunks) {
      if (signal.aborted) return;
      yield Buffer.from(chunk);
    }
  } finally {
    release();
    await chunks.return(undefined);
  }
}

/**
 * The streams open at once, at most `max`: `take` answers how to give back the slot it took
 * (once, when the answer ends or the client leaves before it starts), or null when none is free.
 */
export function streamSlots(max: number) {
  let open = 0;
  return {
    take(signal: AbortSignal): (() => void) | null {
      if (open >= max) return null;
      open += 1;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        open -= 1;
      };
      signal.addEventListener("abort", release, { once: true });
      return release;
    },
  };
}
