/**
 * A request's edition is resolved once, at its edge (src/rest/editionChoice.ts), and carried by the
 * request context (src/service/context.ts): a field without an `edition` argument answers in it.
 */
import { describe, expect, it } from "vitest";
import { restEditions } from "../../src/rest/editionChoice.js";
import { graphqlErrorOf } from "../../src/schema/errors.js";
import { createRequestContext } from "../../src/service/context.js";
import { sharedApp } from "../support/app.js";

const app = sharedApp();

describe("the request's edition", () => {
  it("is the resolved one when the request names it, the service's default otherwise", () => {
    const { service } = app;
    const editions = restEditions(service);
    const named = editions.requested(new URLSearchParams({ edition: "2.4.1" }));
    expect(named).toBe(service.editions.get("2.4.1"));
    expect(editions.requested(new URLSearchParams())).toBe(service.editions.get(service.defaultEdition));
    const request = createRequestContext(service, { spellError: graphqlErrorOf, edition: named });
    expect(request.edition().service).toBe(named);
    expect(request.edition(null).engine.rules.version).toBe("2.4.1");
    // An explicit argument still names its own edition.
    expect(request.edition("1.2.4").service).toBe(service.editions.get("1.2.4"));
    const plain = createRequestContext(service, { spellError: graphqlErrorOf });
    expect(plain.edition().service.edition.id).toBe(service.defaultEdition);
  });

  it("answers the REST route in the edition the query names", async () => {
    const body = JSON.stringify({ model: { archetype: "platform_compute_medium" }, usage: {} });
    const answer241 = await app.rest({
      method: "POST",
      url: "/v1/server/?edition=2.4.1&verbose=false",
      body,
    });
    const answer124 = await app.rest({
      method: "POST",
      url: "/v1/server/?edition=1.2.4&verbose=false",
      body,
    });
    expect(answer241.status).toBe(200);
    expect(answer124.status).toBe(200);
    expect(JSON.stringify(answer241.body)).not.toBe(JSON.stringify(answer124.body));
  });
});
