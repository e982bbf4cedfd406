/**
 * The shim's GET answers are kept, serialized, by edition, path and query (src/rest/index.ts,
 * src/service/answerCache.ts): a kept answer is byte for byte the computed one, spellings of
 * one request share it, editions and services do not, and errors and POSTs are never kept.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import type { RestResponse } from "../../src/rest/index.js";
import { lazyApp, testConfig } from "../support/app.js";

// Apps of their own: the counts of kept answers below start from an empty cache.
const app = lazyApp(() => createApp(testConfig()));
const app241 = lazyApp(() => createApp(testConfig({ EDITION: "2.4.1" })));

// A custom edition (EDITIONS_FILE): 1.2.4's tables, another default cloud instance; the default.
const customFolder = mkdtempSync(join(tmpdir(), "answer-cache-"));
const editionsFile = join(customFolder, "editions.yml");
writeFileSync(
  editionsFile,
  [
    "editions:",
    "  - id: acme",
    "    base: 1.2.4",
    "    data: .",
    "    settings:",
    "      default_cloud_instance: c5.large",
    "",
  ].join("\n"),
);
const appAcme = lazyApp(() => createApp(testConfig({ EDITIONS_FILE: editionsFile, EDITION: "acme" })));

const get = (target: typeof app, url: string) => target.rest({ method: "GET", url, body: "" });

/** The bytes sent for an answer (what the HTTP front writes). */
function sentBytes(answer: RestResponse): Buffer {
  return answer.serialized ? Buffer.from(answer.serialized) : Buffer.from(JSON.stringify(answer.body));
}

const GETS = [
  "/v1/server/?archetype=dellR740",
  "/v1/server/?archetype=dellR740&verbose=false&criteria=gwp&criteria=pe",
  "/v1/server/archetype_config?archetype=dellR740",
  "/v1/server/archetypes",
  "/v1/cloud/instance?provider=aws&instance_type=m5.xlarge",
  "/v1/cloud/aws?instance_type=c5.large&verbose=false",
  "/v1/component/cpu?archetype=DEFAULT",
  "/v1/utils/country_code",
  "/v1/server/?archetype=dellR740&edition=2.4.1",
  "/v1/cloud/instance?instance_type=m6g.large&edition=2.4.1",
];

describe("kept GET answers", () => {
  it("are byte for byte the computed answers, on every kind of GET route and both editions", async () => {
    for (const url of GETS) {
      const computed = await get(app, url);
      expect(computed.status, url).toBe(200);
      // The first answer is computed: its bytes are JSON.stringify of its body.
      expect(computed.serialized, url).toBeDefined();
      expect(sentBytes(computed).equals(Buffer.from(JSON.stringify(computed.body))), url).toBe(true);
      const kept = await get(app, url);
      expect(kept.status, url).toBe(200);
      expect(sentBytes(kept).equals(sentBytes(computed)), url).toBe(true);
      // Its body, read (the batch route reads it), is the computed body.
      expect(kept.body, url).toEqual(computed.body);
    }
  });

  it("one entry per request, whatever its spelling (trailing slash, parameter order, repeated value)", async () => {
    const first = await get(app, "/v1/server/?archetype=dellR740&verbose=false&criteria=gwp&criteria=adp");
    const entries = app.service.answers.entries();
    const spellings = [
      "/v1/server?verbose=false&archetype=dellR740&criteria=gwp&criteria=adp",
      "/v1/server//?criteria=gwp&verbose=true&archetype=dellR740&criteria=adp&verbose=false",
      "/v1/server/?archetype=dell%52740&criteria=gwp&verbose=false&criteria=adp",
    ];
    for (const url of spellings) {
      expect(sentBytes(await get(app, url)).equals(sentBytes(first)), url).toBe(true);
    }
    expect(app.service.answers.entries()).toBe(entries);
    // The order of the criteria is the client's: another order is another request.
    await get(app, "/v1/server/?archetype=dellR740&verbose=false&criteria=adp&criteria=gwp");
    expect(app.service.answers.entries()).toBe(entries + 1);
  });

  it("are kept per edition: the same path and query of another edition is computed on its own", async () => {
    const url = "/v1/server/?archetype=dellR740&verbose=false";
    const of124 = await get(app, url);
    const of241 = await get(app, `${url}&edition=2.4.1`);
    expect(of241.body).not.toEqual(of124.body);
    // A service whose default edition is 2.4.1 answers the same URL with 2.4.1's answer, not
    // with what the other service keeps for it.
    await get(app241, url);
    const defaulted241 = await get(app241, url);
    expect(sentBytes(defaulted241).equals(sentBytes(of241))).toBe(true);
    expect(sentBytes(await get(app, url)).equals(sentBytes(of124))).toBe(true);
  });

  it("are kept per edition for a custom edition too (its own id), the default one included", async () => {
    const url = "/v1/cloud/instance?verbose=false";
    const acme = await get(appAcme, url);
    const of124 = await get(appAcme, `${url}&edition=1.2.4`);
    const c5 = await get(appAcme, `${url}&edition=1.2.4&instance_type=c5.large`);
    expect(acme.status).toBe(200);
    expect(sentBytes(acme).equals(sentBytes(c5))).toBe(true);
    expect(sentBytes(acme).equals(sentBytes(of124))).toBe(false);
    // Asked again, each answers its own edition's bytes.
    expect(sentBytes(await get(appAcme, url)).equals(sentBytes(acme))).toBe(true);
    expect(sentBytes(await get(appAcme, `${url}&edition=1.2.4`)).equals(sentBytes(of124))).toBe(true);
    expect(appAcme.service.answers.entries()).toBe(3);
  });

  it("never keeps a refusal, a 404 or a POST answer", async () => {
    const before = app.service.answers.entries();
    expect((await get(app, "/v1/server/?archetype=nonexistent")).status).toBe(404);
    expect((await get(app, "/v1/server/?archetype=dellR740&criteria=nonsense")).status).toBe(422);
    expect((await get(app, "/v1/nowhere")).status).toBe(404);
    const post = await app.rest({
      method: "POST",
      url: "/v1/server/?verbose=false",
      body: JSON.stringify({ usage: { usage_location: "FRA" } }),
    });
    expect(post.status).toBe(200);
    expect(post.serialized).toBeUndefined();
    expect(app.service.answers.entries()).toBe(before);
  });
});
