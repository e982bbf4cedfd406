/**
 * A fault of the command itself (every fault of the input is worded where it is found) ends the
 * run in one line and exit 70, never a stack trace a user would read as their file's fault. The
 * fault is a real one, made here: the command is handed no standard output to write its table to.
 */
import { Readable, type Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { sink } from "../support/cli.js";

describe("a fault of the command", () => {
  it("is one line on stderr and exit 70, its message's first line kept", async () => {
    const stderr = sink();
    const io = { stdin: Readable.from([]), stdout: undefined as unknown as Writable, stderr: stderr.stream };
    const code = await main(["coefficients", "--edition", "2.4.1", "--provider", "aws"], io);
    expect(stderr.text()).toMatch(
      /^impact-service: internal error, a fault of the command and not of its input \(Cannot read properties of undefined \(reading '[a-z]+'\)\); please report it with the command line\n$/,
    );
    expect(code).toBe(70);
  });
});
