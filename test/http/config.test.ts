import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

describe("configuration from the environment (the variables of the HTTP front)", () => {
  it("applies the defaults when nothing is set (empty values count as unset)", () => {
    const config = loadConfig({ LOG_LEVEL: "", ALLOWED_ORIGINS: " " });
    expect(config.LOG_LEVEL).toBe("info");
    expect(config.ALLOWED_ORIGINS).toBe("*");
    expect(config.COMPRESSION_MIN_BYTES).toBe(1024);
    expect(config.PORT).toBe(8080);
    expect(config.EDITION).toBe("1.2.4");
  });

  it("reads the variables", () => {
    const config = loadConfig({
      LOG_LEVEL: "debug",
      ALLOWED_ORIGINS: "https://a.example, http://localhost:3000",
      COMPRESSION_MIN_BYTES: "0",
      EDITION: "2.4.1",
    });
    expect(config.LOG_LEVEL).toBe("debug");
    expect(config.ALLOWED_ORIGINS).toEqual(["https://a.example", "http://localhost:3000"]);
    expect(config.COMPRESSION_MIN_BYTES).toBe(0);
    expect(config.EDITION).toBe("2.4.1");
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ ALLOWED_ORIGINS: "example.org" }, "ALLOWED_ORIGINS"],
    [{ ALLOWED_ORIGINS: "https://a.example/path" }, "ALLOWED_ORIGINS"],
    [{ COMPRESSION_MIN_BYTES: "-1" }, "COMPRESSION_MIN_BYTES"],
    [{ EDITION: "3.0" }, "EDITION"],
  ])("refuses %o with one line naming %s", (env, name) => {
    let caught: unknown = null;
    try {
      loadConfig(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    expect(message).toContain(`${name}=`);
    expect(message).not.toContain("\n");
  });
});
