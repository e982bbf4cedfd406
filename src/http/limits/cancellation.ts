/*
 * One request's cancellation. The client going away and the execution budget running out cancel
 * the same object (the first reason is kept). Its AbortSignal is made only when something asks
 * for it (GraphQL, a fleet's chunks, the batch route, a wait for admission): a REST answer asks
 * for none, and a signal with its listeners cost more per request than the rest of the front's
 * bookkeeping (bench/README.md, "One lazy cancellation per request").
 */

export class Cancellation {
  #reason: { readonly value: unknown } | null = null;
  #controller: AbortController | null = null;
  #listeners: (() => void)[] | null = null;

  /** Whether it has been cancelled. */
  get cancelled(): boolean {
    return this.#reason !== null;
  }

  /** Why it was cancelled (undefined while it is not). */
  get reason(): unknown {
    return this.#reason?.value;
  }

  /** Cancels with `reason`, unless already cancelled: listeners are called once, in order. */
  cancel(reason: unknown): void {
    if (this.#reason !== null) return;
    this.#reason = { value: reason };
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = null;
    for (const listener of listeners ?? []) listener();
  }

  /** Calls `listener` once when cancelled (at once when it already is); returns its removal. */
  onCancel(listener: () => void): () => void {
    if (this.#reason !== null) {
      listener();
      return () => {};
    }
    this.#listeners ??= [];
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners?.indexOf(listener) ?? -1;
      if (at !== -1) this.#listeners?.splice(at, 1);
    };
  }

  /** An AbortSignal aborted with the same reason, made on first use. */
  get signal(): AbortSignal {
    if (this.#controller === null) {
      this.#controller = new AbortController();
      if (this.#reason !== null) this.#controller.abort(this.#reason.value);
    }
    return this.#controller.signal;
  }
}
