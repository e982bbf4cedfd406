import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/*
 * A server's open connections, each with its answers in flight, kept without a Map, a Set or a
 * WeakMap. Those gain and lose a key per connection (a client opening one per request makes
 * thousands a second); V8 links a table they replace to its successor, and a weak map's old table
 * holds its young entries through young collections. Once such a table is old, every
 * connection's socket, request and answer outlives its young collection and is promoted: about
 * 1.6 MB at each with the Map, 3.7 with the WeakMap, in every process measured, where node:http
 * alone promotes nothing in about half (bench/README.md, "Connections opened per request"). So the
 * connections are a list whose removed places are overwritten, and a socket finds its own through
 * a property of its own.
 */

/** One open connection and the answers in flight on it, oldest first (more than one when pipelined). */
export interface Connection {
  readonly socket: Socket;
  readonly answers: ServerResponse[];
  /** Its index in `OpenConnections.list`. */
  place: number;
}

export interface OpenConnections {
  readonly list: Connection[];
}

const CONNECTION = Symbol("open connection");

type Tracked = Socket & { [CONNECTION]?: Connection };

export function openConnections(): OpenConnections {
  return { list: [] };
}

/** The socket's connection, listed until the socket closes. */
export function connectionOf(open: OpenConnections, socket: Socket): Connection {
  const tracked = socket as Tracked;
  const known = tracked[CONNECTION];
  if (known !== undefined) return known;
  const connection: Connection = { socket, answers: [], place: open.list.length };
  open.list.push(connection);
  tracked[CONNECTION] = connection;
  socket.once("close", () => unlist(open, connection));
  return connection;
}

/** The connection of a socket listed already, if any. */
export function listedConnection(socket: Socket): Connection | undefined {
  return (socket as Tracked)[CONNECTION];
}

/** Its place taken by the list's last connection. */
function unlist(open: OpenConnections, connection: Connection): void {
  const last = open.list.pop();
  if (last === undefined || last === connection) return;
  open.list[connection.place] = last;
  last.place = connection.place;
}

/** The answer the connection is writing, or will write next: node answers in the requests' order. */
export function currentAnswer(connection: Connection | undefined): ServerResponse | undefined {
  return connection?.answers[0];
}

/** Adds an answer in flight; it leaves the connection's list when it closes, then `closed` is called. */
export function answerInFlight(connection: Connection, response: ServerResponse, closed: () => void): void {
  connection.answers.push(response);
  response.once("close", () => {
    const at = connection.answers.indexOf(response);
    if (at !== -1) connection.answers.splice(at, 1);
    closed();
  });
}
