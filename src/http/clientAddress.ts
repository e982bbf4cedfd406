import type { IncomingMessage } from "node:http";
import { isIPv6, type Socket } from "node:net";

/*
 * The client a request is counted to, where a share of what all clients use is kept per client
 * (the bytes of request bodies held, the /evaluate page's slots): the address its connection
 * comes from, as the socket has it. Not `X-Forwarded-For` nor `Forwarded`: any client writes
 * them, so a client reading them could pose as as many clients as it likes and escape its share.
 * The Deployment (deploy/) has no proxy in front of the pods (a ClusterIP Service keeps the
 * sender's address); behind a proxy every client is the proxy's address, and the shares are
 * sized for that (docs/limits.md, "Each client's share").
 */

/**
 * Groups of 16 bits of an IPv6 address that name its network: a /64, what one subscriber is
 * given, whose 2^64 addresses one client can use in turn.
 */
const NETWORK_GROUPS = 4;

/** The groups of an IPv6 address, `::` expanded (the address is one `isIPv6` accepts). */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split("::");
  const groups = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":"));
  const before = groups(head);
  const after = groups(tail);
  if (tail === undefined) return before;
  return [...before, ...Array<string>(8 - before.length - after.length).fill("0"), ...after];
}

/**
 * The client of an address: an IPv4 address itself (IPv4-mapped IPv6 as IPv4), an IPv6 address
 * by its /64 network (its zone dropped).
 */
export function clientOfAddress(address: string | undefined): string {
  if (address === undefined || address === "") return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1];
  const unzoned = address.replace(/%.*$/, "");
  if (!isIPv6(unzoned)) return unzoned;
  const network = ipv6Groups(unzoned)
    .slice(0, NETWORK_GROUPS)
    .map((group) => Number.parseInt(group, 16).toString(16));
  return `${network.join(":")}::/64`;
}

const CLIENT = Symbol("client");

/**
 * A connection's client, read once and kept on the socket (a kept-alive connection's requests
 * share it): not in a WeakMap, whose table would hold each connection's socket through young
 * collections (src/app/openConnections.ts).
 */
function clientOfSocket(socket: Socket & { [CLIENT]?: string }): string {
  const known = socket[CLIENT];
  if (known !== undefined) return known;
  const client = clientOfAddress(socket.remoteAddress);
  socket[CLIENT] = client;
  return client;
}

/** The client of a request: its connection's address (see above). */
export function clientOf(request: IncomingMessage): string {
  return clientOfSocket(request.socket);
}
