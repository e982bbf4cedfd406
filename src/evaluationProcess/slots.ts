import { FileRefusal, type Slot } from "../service/fileEvaluation.js";
import { sharedSlots } from "../support/sharedSlots.js";

/*
 * The page's slots: files evaluated at once, all clients together, and at most a share of them
 * per client (its address, as the connection has it), so that one client cannot hold every slot.
 * A slot is taken before the file is received and given back when its answer ends.
 */

export interface SlotBounds {
  /** Files evaluated at once, all clients together. */
  readonly maxConcurrent: number;
  /** Files one client (its address) has at once. */
  readonly maxPerClient: number;
}

/** The refusal of a request finding every slot taken: the service's. */
export const BUSY = "as many files as the service evaluates at once are running: try again in a minute";

/** The refusal of a client that has its share of the slots already. */
export function clientBusy({ maxPerClient }: SlotBounds): string {
  return `this client has ${maxPerClient === 1 ? "a file" : `${maxPerClient} files`} being evaluated already (the page's bound, ${maxPerClient} at once per client): wait for its answer`;
}

/** The slots of a service; `take` answers a slot, or the refusal (503) saying whose they are. */
export function createSlots(bounds: SlotBounds) {
  const slots = sharedSlots(bounds);
  return {
    take(client: string): Slot | FileRefusal {
      const taken = slots.take(client);
      if ("release" in taken) return taken;
      return new FileRefusal(503, taken.full === "client" ? clientBusy(bounds) : BUSY);
    },
  };
}
