/**
 * The server's open connections and their answers in flight (src/app/openConnections.ts): a list
 * whose removed places are taken by its last connection, each socket finding its own.
 */
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import {
  answerInFlight,
  connectionOf,
  currentAnswer,
  listedConnection,
  openConnections,
} from "../../src/app/openConnections.js";

/** What the bookkeeping uses of a socket or an answer: its events. */
const socketLike = () => new EventEmitter() as unknown as Socket;
const answerLike = () => new EventEmitter() as unknown as ServerResponse;

describe("open connections", () => {
  it("lists each socket once, and takes a closed one's place with the last", () => {
    const open = openConnections();
    const sockets = Array.from({ length: 5 }, socketLike);
    const connections = sockets.map((socket) => connectionOf(open, socket));
    expect(connectionOf(open, sockets[2])).toBe(connections[2]);
    expect(open.list).toHaveLength(5);
    sockets[1].emit("close");
    expect(open.list.map(({ socket }) => sockets.indexOf(socket))).toEqual([0, 4, 2, 3]);
    sockets[3].emit("close");
    sockets[0].emit("close");
    expect(open.list.map(({ socket }) => sockets.indexOf(socket))).toEqual([2, 4]);
    // Every connection knows its place, so a later close removes that one
    expect(open.list.map(({ place }) => place)).toEqual([0, 1]);
    sockets[4].emit("close");
    sockets[2].emit("close");
    expect(open.list).toEqual([]);
  });

  it("keeps a connection's answers in flight in their order until each closes, then says so", () => {
    const open = openConnections();
    const socket = socketLike();
    const connection = connectionOf(open, socket);
    const [first, second] = [answerLike(), answerLike()];
    const closed: string[] = [];
    answerInFlight(connection, first, () => closed.push(`first, ${connection.answers.length} left`));
    answerInFlight(connection, second, () => closed.push(`second, ${connection.answers.length} left`));
    expect(currentAnswer(listedConnection(socket))).toBe(first);
    first.emit("close");
    expect(currentAnswer(listedConnection(socket))).toBe(second);
    second.emit("close");
    expect(currentAnswer(listedConnection(socket))).toBeUndefined();
    expect(closed).toEqual(["first, 1 left", "second, 0 left"]);
  });

  it("knows no connection of a socket never listed", () => {
    expect(listedConnection(socketLike())).toBeUndefined();
    expect(currentAnswer(undefined)).toBeUndefined();
  });
});
