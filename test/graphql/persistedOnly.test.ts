/**
 * Trusted documents only (PERSISTED_ONLY=true, PERSISTED_DOCUMENTS): the file's documents run by
 * their SHA-256; a document sent as text and an unknown hash are refused; the file is checked
 * when the configuration is read.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { ConfigError, loadConfig } from "../../src/config/serviceConfig.js";
import { lazyApp, testConfig } from "../support/app.js";

const DOCUMENT = "query Service { version { service } }";
const HASH = createHash("sha256").update(DOCUMENT).digest("hex");

function documentsFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "trusted-")), "persisted-documents.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const app = lazyApp(() =>
  createApp(testConfig({ PERSISTED_ONLY: "true", PERSISTED_DOCUMENTS: documentsFile({ [HASH]: DOCUMENT }) })),
);

async function post(body: unknown) {
  const answer = await app.yoga.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: answer.status,
    ...((await answer.json()) as { data?: unknown; errors?: { extensions: { code: string } }[] }),
  };
}

describe("PERSISTED_ONLY=true", () => {
  it("runs a trusted document named by its hash", async () => {
    const answer = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: HASH } } });
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ version: { service: expect.any(String) } });
  });

  it("refuses a document sent as text, even a trusted one with its hash", async () => {
    for (const body of [
      { query: DOCUMENT },
      { query: DOCUMENT, extensions: { persistedQuery: { version: 1, sha256Hash: HASH } } },
    ]) {
      const answer = await post(body);
      // application/json: 200 with the code (GraphQL over HTTP, src/schema/plugins/httpErrors.ts).
      expect(answer.status).toBe(200);
      expect(answer.errors?.[0].extensions.code).toBe("PERSISTED_QUERY_ONLY");
    }
  });

  it("refuses an unknown hash", async () => {
    const other = createHash("sha256").update("{ version { methodology } }").digest("hex");
    const answer = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: other } } });
    expect(answer.errors?.[0].extensions.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });

  it("needs PERSISTED_DOCUMENTS, whose hashes are checked", () => {
    expect(() => loadConfig({ PERSISTED_ONLY: "true" })).toThrow(ConfigError);
    expect(() =>
      loadConfig({
        PERSISTED_ONLY: "true",
        PERSISTED_DOCUMENTS: documentsFile({ [HASH]: "{ version { methodology } }" }),
      }),
    ).toThrow(/not a string of that SHA-256/);
  });
});
