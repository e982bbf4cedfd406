/**
 * One default for new work (issue 77): every surface a person uses without choosing an edition —
 * the command line for every kind of file, the /evaluate page that runs it — evaluates in the
 * current release unless the environment sets EDITION; REST and GraphQL keep the service's EDITION
 * (1.2.4 unless set) for the clients written against it. One function decides (newWorkEdition);
 * the page, the start page and `--help` say what it decides. The command and the page agreeing on
 * the bytes of the same files: test/http/evaluatePage.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE } from "../../src/cli/helpText.js";
import {
  DEFAULT_EDITION_ID,
  NEW_WORK_DEFAULT,
  NEW_WORK_EDITION_ID,
  newWorkEdition,
} from "../../src/editions/index.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

describe("newWorkEdition", () => {
  it("is the current release unless the environment sets EDITION, whatever the requests' default", () => {
    expect(NEW_WORK_EDITION_ID).toBe("2.5.0");
    expect(DEFAULT_EDITION_ID).toBe("1.2.4");
    expect(newWorkEdition({ EDITION: "1.2.4", editionSet: false })).toBe("2.5.0");
    expect(newWorkEdition({ EDITION: "1.2.4", editionSet: true })).toBe("1.2.4");
    expect(newWorkEdition({ EDITION: "2.4.1", editionSet: true })).toBe("2.4.1");
  });

  it("is said once, in the same words, by the command's --help", () => {
    expect(NEW_WORK_DEFAULT).toBe("EDITION if set, else 2.5.0, Boavizta's current release");
    expect(USAGE.replace(/\s+/g, " ")).toContain(`(default: ${NEW_WORK_DEFAULT})`);
  });
});

describe.each([
  { name: "a service without EDITION", overrides: {}, files: "2.5.0", requests: "1.2.4" },
  {
    name: "a service with EDITION=2.4.1",
    overrides: { EDITION: "2.4.1", editionSet: true },
    files: "2.4.1",
    requests: "2.4.1",
  },
])("$name", ({ overrides, files, requests }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "silent", ...overrides });
  });
  afterAll(() => server.close());
  const text = async (path: string) => (await fetch(`${server.url}${path}`)).text();

  it(`preselects ${files} on the evaluate page and says so on the start page`, async () => {
    const page = await text("/evaluate");
    expect([...page.matchAll(/<option value="(\d[^"]*)" selected>/g)].map((match) => match[1])).toEqual([
      files,
    ]);
    const start = (await text("/")).replace(/\s+/g, " ");
    expect(start).toContain(`A file, on the page or the command line, is evaluated in ${files} unless`);
    expect(start).toContain(`else gets this service's ${requests}`);
  });

  it(`answers REST and GraphQL requests naming no edition in ${requests}`, async () => {
    const version = await (await fetch(`${server.url}/v1/utils/version`)).json();
    const graphql = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ version { methodology } }" }),
    });
    expect({ version, graphql: await graphql.json() }).toEqual({
      version: requests,
      graphql: { data: { version: { methodology: requests } } },
    });
  });
});
