/**
 * src/config/serviceConfig.ts: every environment variable read once, validated, with one line naming each
 * wrong variable; an empty (or blank) value means the default.
 */
import { describe, expect, it } from "vitest";
import { usableCores } from "../../src/config/cores.js";
import {
  ConfigError,
  capacityOf,
  DEFAULT_LIMITS,
  defaultConfig,
  loadConfig,
} from "../../src/config/serviceConfig.js";
import { EDITION_IDS } from "../../src/editions/index.js";

/** The message of the ConfigError `environment` is refused with. */
function refusal(environment: Record<string, string>): string {
  try {
    loadConfig(environment);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(environment)} was accepted`);
}

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
      LOG_LEVEL: "info",
      ALLOWED_ORIGINS: "*",
      COMPRESSION_MIN_BYTES: 1024,
      settingsOverrides: {},
    });
    expect(config.HOST).toBeUndefined();
    expect(config.limits).toEqual(DEFAULT_LIMITS);
  });

  it("empty and blank values are the defaults", () => {
    expect(loadConfig({ MAX_STRING_LENGTH: "", LOG_LEVEL: "", ALLOWED_ORIGINS: " " })).toMatchObject({
      MAX_STRING_LENGTH: 100,
      LOG_LEVEL: "info",
      ALLOWED_ORIGINS: "*",
    });
  });

  it("reads each variable", () => {
    const config = loadConfig({
      PORT: " 0 ",
      HOST: "127.0.0.1",
      WORKERS: "4",
      MAX_FLEET_ITEMS: "500",
      EDITION: "2.4.1",
      LOG_LEVEL: "debug",
      ALLOWED_ORIGINS: "https://a.example, http://localhost:3000",
      COMPRESSION_MIN_BYTES: "0",
      BOAVIZTA_DEFAULT_SERVER: "dellR740",
      UNRELATED: "x",
    });
    expect(config).toMatchObject({
      PORT: 0,
      HOST: "127.0.0.1",
      WORKERS: 4,
      EDITION: "2.4.1",
      LOG_LEVEL: "debug",
      ALLOWED_ORIGINS: ["https://a.example", "http://localhost:3000"],
      COMPRESSION_MIN_BYTES: 0,
    });
    expect(config.limits.maxFleetItems).toBe(500);
    expect(config.settingsOverrides).toEqual({ BOAVIZTA_DEFAULT_SERVER: "dellR740" });
  });

  it("WORKERS=auto starts one worker per core the process is given", () => {
    expect(loadConfig({ WORKERS: "auto" }).WORKERS).toBe(usableCores());
    expect(loadConfig({ WORKERS: " auto " }).WORKERS).toBe(usableCores());
  });

  it.each([
    ["WORKERS", "all", 'WORKERS="all" must be a whole number'],
    ["PORT", "abc", 'PORT="abc" must be a whole number'],
    ["PORT", "65536", 'PORT="65536" must be at most 65535'],
    ["PORT", "-1", 'PORT="-1" must be a whole number'],
    ["WORKERS", "0", 'WORKERS="0" must be at least 1'],
    ["MAX_BODY_BYTES", "1e6", 'MAX_BODY_BYTES="1e6" must be a whole number'],
    ["SHUTDOWN_TIMEOUT_MS", "10s", 'SHUTDOWN_TIMEOUT_MS="10s" must be a whole number'],
    ["COMPRESSION_MIN_BYTES", "-1", 'COMPRESSION_MIN_BYTES="-1" must be a whole number'],
    ["EDITION", "2.4", `EDITION="2.4" unknown edition "2.4"; allowed values: ${EDITION_IDS.join(", ")}`],
    ["EDITION", "3.0", `EDITION="3.0" unknown edition "3.0"; allowed values: ${EDITION_IDS.join(", ")}`],
    [
      "LOG_LEVEL",
      "loud",
      'LOG_LEVEL="loud" Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
    ],
    [
      "ALLOWED_ORIGINS",
      "example.org",
      'ALLOWED_ORIGINS="example.org" must be * or a comma-separated list of origins such as https://example.org (not an origin: example.org)',
    ],
    [
      "ALLOWED_ORIGINS",
      "https://a.example/path",
      'ALLOWED_ORIGINS="https://a.example/path" must be * or a comma-separated list of origins such as https://example.org (not an origin: https://a.example/path)',
    ],
    ["BOAVIZTA_UNCERTAINTY", "high", "BOAVIZTA_UNCERTAINTY: expected a number"],
  ])("%s=%s is refused with one line naming it", (name, value, message) => {
    const text = refusal({ [name]: value });
    expect(text).toBe(`invalid configuration: ${message}`);
    expect(text).not.toContain("\n");
  });

  it("several wrong variables are all named, on one line", () => {
    expect(refusal({ PORT: "x", WORKERS: "y" })).toMatch(/PORT="x".*; WORKERS="y"/);
    const both = refusal({ PORT: "70000", SHUTDOWN_TIMEOUT_MS: "-1" });
    expect(both).not.toContain("\n");
    expect(both).toContain('PORT="70000" must be at most 65535');
    expect(both).toContain('SHUTDOWN_TIMEOUT_MS="-1"');
  });
});

describe("the settings (src/config/environment.ts)", () => {
  it("give the limits and the capacity under their own names, from the variables", () => {
    const config = loadConfig({
      MAX_BODY_BYTES: "2048",
      MAX_BODY_BYTES_IN_FLIGHT: "4096",
      MAX_BODY_BYTES_PER_CLIENT: "3072",
      BODY_MIN_BYTES_PER_WINDOW: "512",
      MAX_PARSED_BYTES_IN_FLIGHT: "2097152",
      EXECUTION_TIMEOUT_MS: "7",
    });
    expect(config.limits).toEqual({
      ...DEFAULT_LIMITS,
      maxBodyBytes: 2048,
      bodyMinBytesPerWindow: 512,
      executionTimeoutMs: 7,
    });
    expect(capacityOf(config)).toEqual({
      maxBodyBytesInFlight: 4096,
      maxBodyBytesPerClient: 3072,
      maxParsedBytesInFlight: 2 * 1024 * 1024,
      maxConcurrentFleetItems: 10_000,
      admissionQueueLength: 8,
    });
    expect(Object.keys(DEFAULT_LIMITS).sort()).toEqual([
      "bodyMinBytesPerWindow",
      "bodyRateWindowMs",
      "bodyTimeoutMs",
      "executionTimeoutMs",
      "maxAnswerBytes",
      "maxBodyBytes",
      "maxFleetItems",
      "maxListLength",
      "maxNestingDepth",
      "maxStringLength",
      "maxUrlLength",
    ]);
    expect(capacityOf(defaultConfig())).toEqual({
      maxBodyBytesInFlight: 64 * 1024 * 1024,
      maxBodyBytesPerClient: 24 * 1024 * 1024,
      maxParsedBytesInFlight: 128 * 1024 * 1024,
      maxConcurrentFleetItems: 10_000,
      admissionQueueLength: 8,
    });
  });
});
