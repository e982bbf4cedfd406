import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/support/log.js";

/** A logger writing its lines into an array (pino writes one line per call to a plain stream). */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString("utf8")));
      done();
    },
  });
  return { logger: createLogger("info", destination), lines };
}

describe("the logger's time field", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is the ISO time of the line's millisecond, whether or not a line was logged in it before", () => {
    vi.useFakeTimers();
    const { logger, lines } = capturedLogger();
    vi.setSystemTime(new Date("2026-11-23T16:30:22.123Z"));
    logger.info("first");
    logger.info("same millisecond");
    vi.setSystemTime(new Date("2026-11-23T16:30:22.124Z"));
    logger.info("next millisecond");
    vi.setSystemTime(new Date("2027-01-01T00:00:00.000Z"));
    logger.info("much later");
    expect(lines.map((line) => [line.msg, line.time])).toEqual([
      ["first", "2026-11-23T16:30:22.123Z"],
      ["same millisecond", "2026-11-23T16:30:22.123Z"],
      ["next millisecond", "2026-11-23T16:30:22.124Z"],
      ["much later", "2027-01-01T00:00:00.000Z"],
    ]);
  });
});
