/**
 * `openService`, the one way the server, the command line and the Impact Framework plugins open
 * the service: every edition by default, or the editions a command serves, the first its default.
 */
import { describe, expect, it } from "vitest";
import { loadEditions } from "../../src/config/referenceData.js";
import { EDITION_IDS } from "../../src/editions/index.js";
import { openService } from "../../src/service/open.js";
import { testConfig } from "../support/app.js";

describe("openService", () => {
  it("serves every edition, EDITION the default, with the configuration's limits", () => {
    const service = openService(testConfig({ EDITION: "2.4.1", MAX_FLEET_ITEMS: "120" }));
    expect([...service.editions.keys()]).toEqual(EDITION_IDS);
    expect(service.defaultEdition).toBe("2.4.1");
    expect(service.limits.maxFleetItems).toBe(120);
  });

  it("serves only the editions wanted, the first of them the default", () => {
    const service = openService(testConfig(), ["2.4.1"]);
    expect([...service.editions.keys()]).toEqual(["2.4.1"]);
    expect(service.defaultEdition).toBe("2.4.1");
  });

  it("logs the data's notices at debug and its warnings at warn when given a logger", () => {
    const lines: string[] = [];
    const log = (level: string) => (line: string) => {
      lines.push(`${level} ${line}`);
    };
    const logger = { debug: log("debug"), warn: log("warn") };
    const [edition] = loadEditions([], {}, new Set(["1.2.4"]));
    const loaded = [{ ...edition, notices: ["a notice"], warnings: ["a warning"] }];
    const service = openService(testConfig(), null, { logger, loaded });
    expect(lines).toEqual(["debug a notice", "warn a warning"]);
    expect([...service.editions.keys()]).toEqual(["1.2.4"]);
  });
});
