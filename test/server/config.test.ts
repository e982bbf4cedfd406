/**
 * src/config.ts: every environment variable read once, validated, with one line naming each
 * wrong variable; an empty value means the default.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_LIMITS, limitsOf, loadConfig } from "../../src/config.js";

describe("loadConfig", () => {
  it("an empty environment gives the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      WORKERS: 1,
      MAX_BODY_BYTES: 8 * 1024 * 1024,
      MAX_STRING_LENGTH: 100,
      MAX_LIST_LENGTH: 100,
      MAX_FLEET_ITEMS: 10_000,
      EXECUTION_TIMEOUT_MS: 30_000,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      EDITION: "1.2.4",
      settingsOverrides: {},
    });
    expect(config.HOST).toBeUndefined();
    expect(limitsOf(config)).toEqual(DEFAULT_LIMITS);
  });

  it("reads each variable; an empty value is the default", () => {
    const config = loadConfig({
      PORT: " 0 ",
      HOST: "127.0.0.1",
      WORKERS: "4",
      MAX_STRING_LENGTH: "",
      MAX_FLEET_ITEMS: "500",
      EDITION: "2.4.1",
      BOAVIZTA_DEFAULT_SERVER: "dellR740",
      UNRELATED: "x",
    });
    expect(config).toMatchObject({ PORT: 0, HOST: "127.0.0.1", WORKERS: 4, MAX_STRING_LENGTH: 100 });
    expect(limitsOf(config).maxFleetItems).toBe(500);
    expect(config.EDITION).toBe("2.4.1");
    expect(config.settingsOverrides).toEqual({ BOAVIZTA_DEFAULT_SERVER: "dellR740" });
  });

  it.each([
    ["PORT", "abc", 'PORT="abc" must be a whole number'],
    ["PORT", "65536", 'PORT="65536" must be at most 65535'],
    ["PORT", "-1", 'PORT="-1" must be a whole number'],
    ["WORKERS", "0", 'WORKERS="0" must be at least 1'],
    ["MAX_BODY_BYTES", "1e6", 'MAX_BODY_BYTES="1e6" must be a whole number'],
    ["SHUTDOWN_TIMEOUT_MS", "10s", 'SHUTDOWN_TIMEOUT_MS="10s" must be a whole number'],
    ["EDITION", "2.4", 'EDITION="2.4" unknown edition "2.4"; allowed values: 1.2.4, 2.4.1'],
    ["BOAVIZTA_UNCERTAINTY", "high", "BOAVIZTA_UNCERTAINTY: expected a number"],
  ])("%s=%s is refused with one line naming it", (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      expect((error as Error).message).toBe(`invalid configuration: ${message}`);
      expect((error as Error).message).not.toContain("\n");
    }
  });

  it("several wrong variables are all named", () => {
    expect(() => loadConfig({ PORT: "x", WORKERS: "y" })).toThrow(/PORT="x".*; WORKERS="y"/);
  });
});
