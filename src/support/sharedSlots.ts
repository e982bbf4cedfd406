/*
 * Slots shared by all clients with a share per client (its address, as the connection has it), so
 * that one client cannot hold every slot: the page's files and the batch route's batches each
 * count theirs so. A slot is given back once, however many times its release is called.
 */

/** Slots at once: all clients together, and one client's share. */
export interface SlotShares {
  readonly maxConcurrent: number;
  readonly maxPerClient: number;
}

/** Which bound refused a slot: the client's share (checked first: the one it can act on), or all. */
export type SlotsFull = "client" | "all";

/** A taken slot: its release, idempotent. */
export interface TakenSlot {
  readonly release: () => void;
}

/** The slots of `shares`; `take` answers a slot, or which bound is full with what the client holds. */
export function sharedSlots({ maxConcurrent, maxPerClient }: SlotShares) {
  const perClient = new Map<string, number>();
  let taken = 0;
  return {
    take(client: string): TakenSlot | { readonly full: SlotsFull; readonly held: number } {
      const held = perClient.get(client) ?? 0;
      if (held >= maxPerClient) return { full: "client", held };
      if (taken >= maxConcurrent) return { full: "all", held };
      taken += 1;
      perClient.set(client, held + 1);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          taken -= 1;
          const left = (perClient.get(client) ?? 1) - 1;
          if (left === 0) perClient.delete(client);
          else perClient.set(client, left);
        },
      };
    },
  };
}
