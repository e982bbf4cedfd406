/**
 * A request's edition is resolved once, at its edge (src/rest/editionChoice.ts), and carried by the
 * request context (src/service/requestState.ts): a field without an `edition` argument answers in it.
 */
import { describe, expect, it } from "vitest";
import { EDITION_IDS, UnknownEditionError } from "../../src/editions/index.js";
import { restEditions } from "../../src/rest/editionChoice.js";
import { graphqlErrorOf } from "../../src/schema/errors.js";
import { servedEdition } from "../../src/service/open.js";
import { createRequestContext } from "../../src/service/requestState.js";
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

  it("a query naming none is served the edition its transport resolved (a batch's), one naming its own keeps it", () => {
    const { service } = app;
    const editions = restEditions(service);
    const batch = service.editions.get("2.4.1");
    expect(editions.requested(new URLSearchParams(), batch)).toBe(batch);
    expect(editions.requested(new URLSearchParams({ edition: "1.2.4" }), batch)).toBe(
      service.editions.get("1.2.4"),
    );
  });

  it("is checked by one function, whoever names it; each transport words the refusal", () => {
    const { service } = app;
    expect(servedEdition(service, "2.4.1")).toBe(service.editions.get("2.4.1"));
    expect(() => servedEdition(service, "9.9")).toThrow(new UnknownEditionError("9.9", EDITION_IDS));
    // GraphQL's words: BAD_USER_INPUT naming the field, the same message.
    const request = createRequestContext(service, { spellError: graphqlErrorOf });
    let refused: unknown;
    try {
      request.edition("9.9");
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      message: `unknown edition "9.9"; allowed values: ${EDITION_IDS.join(", ")}`,
      extensions: { code: "BAD_USER_INPUT", field: ["edition"] },
    });
    // Resolved once per request and id: the same edition context each time it is asked.
    expect(request.edition("2.4.1")).toBe(request.edition("2.4.1"));
  });
});
