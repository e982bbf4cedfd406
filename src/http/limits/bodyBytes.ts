import { type Admission, createAdmission, type Lease } from "./admission.js";

/*
 * The bytes of request bodies held at once (REST and `/graphql`), counted as they arrive — not as
 * their Content-Length declares: eight connections declaring 8 MiB and sending a byte a second
 * held the whole budget for a minute with what they had not sent. Two bounds: all clients
 * together (MAX_BODY_BYTES_IN_FLIGHT), and each client (its address, src/http/clientAddress.ts)
 * at most its share (MAX_BODY_BYTES_PER_CLIENT), so that one client cannot hold what all share.
 * A body's bytes are held until its request has answered (they are its text until then), or
 * given back at once when it is refused. A client is tracked while it holds bytes, and at most
 * MAX_TRACKED_CLIENTS clients at once: each tracked client holds at least one byte of the budget
 * and one connection, so the map is bounded by both; past the count, a new client's body is
 * refused like one finding no room.
 */

/** Clients holding body bytes at once, at most (an entry is a few dozen bytes). */
export const MAX_TRACKED_CLIENTS = 4096;

export const BODIES_LIMIT = "MAX_BODY_BYTES_IN_FLIGHT";
export const CLIENT_SHARE_LIMIT = "MAX_BODY_BYTES_PER_CLIENT";

/** Why a body's next bytes were not taken: the budget of all clients, or this client's share. */
export type BodyRoomRefusal = typeof BODIES_LIMIT | typeof CLIENT_SHARE_LIMIT;

/** The bytes one body holds, taken as they arrive. */
export interface BodyAccount {
  /** Takes `bytes` more for the body: null when taken, else the bound that refused them. */
  take(bytes: number): BodyRoomRefusal | null;
  /** Gives back everything the body holds (its client untracked once it holds nothing); again does nothing. */
  release(): void;
}

export interface BodyBytes {
  /** The account of a new body of `client`'s. */
  open(client: string): BodyAccount;
  /** Bytes held, all clients together (the admission of MAX_BODY_BYTES_IN_FLIGHT, for its gauges). */
  readonly admission: Admission;
  /** Clients holding bytes now. */
  clients(): number;
}

interface BodyBytesBounds {
  /** MAX_BODY_BYTES_IN_FLIGHT. */
  readonly budget: number;
  /** MAX_BODY_BYTES_PER_CLIENT. */
  readonly perClient: number;
}

export function createBodyBytes({ budget, perClient }: BodyBytesBounds): BodyBytes {
  const admission = createAdmission({
    budget,
    queueLength: 0,
    limit: BODIES_LIMIT,
    unit: "bytes of request bodies",
  });
  /** Bytes each client holds, for clients holding some. */
  const held = new Map<string, number>();

  const give = (client: string, bytes: number) => {
    const left = (held.get(client) ?? 0) - bytes;
    if (left <= 0) held.delete(client);
    else held.set(client, left);
  };

  function open(client: string): BodyAccount {
    let lease: Lease | null = null;
    let mine = 0;
    return {
      take(bytes) {
        const clientHeld = held.get(client);
        if (clientHeld === undefined && held.size >= MAX_TRACKED_CLIENTS) return BODIES_LIMIT;
        if ((clientHeld ?? 0) + bytes > perClient) return CLIENT_SHARE_LIMIT;
        if (lease === null) lease = admission.tryAcquireAhead(mine + bytes);
        else if (!lease.resize(mine + bytes)) return BODIES_LIMIT;
        if (lease === null) return BODIES_LIMIT;
        mine += bytes;
        held.set(client, (clientHeld ?? 0) + bytes);
        return null;
      },
      release() {
        lease?.release();
        lease = null;
        give(client, mine);
        mine = 0;
      },
    };
  }

  return { open, admission, clients: () => held.size };
}
