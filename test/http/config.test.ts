import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config.js";

describe("configuration from the environment", () => {
  it("applies the defaults when nothing is set (empty values count as unset)", () => {
    expect(parseConfig({ LOG_LEVEL: "" })).toEqual({
      port: 8080,
      host: "0.0.0.0",
      workers: 1,
      logLevel: "info",
      allowedOrigins: "*",
      compressionMinBytes: 1024,
    });
  });

  it("reads every variable", () => {
    const config = parseConfig({
      PORT: "9000",
      HOST: "127.0.0.1",
      WORKERS: "3",
      LOG_LEVEL: "debug",
      ALLOWED_ORIGINS: "https://a.example, http://localhost:3000",
      COMPRESSION_MIN_BYTES: "0",
    });
    expect(config).toEqual({
      port: 9000,
      host: "127.0.0.1",
      workers: 3,
      logLevel: "debug",
      allowedOrigins: ["https://a.example", "http://localhost:3000"],
      compressionMinBytes: 0,
    });
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ WORKERS: "0" }, "WORKERS"],
    [{ WORKERS: "1.5" }, "WORKERS"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ ALLOWED_ORIGINS: "example.org" }, "ALLOWED_ORIGINS"],
    [{ ALLOWED_ORIGINS: "https://a.example/path" }, "ALLOWED_ORIGINS"],
    [{ COMPRESSION_MIN_BYTES: "-1" }, "COMPRESSION_MIN_BYTES"],
  ])("refuses %o with one line naming %s", (env, name) => {
    let caught: unknown = null;
    try {
      parseConfig(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message.startsWith(`invalid ${name}=`)).toBe(true);
    expect(message).not.toContain("\n");
  });
});
