/**
 * A typed client as its user builds one: GraphQL Code Generator reads schema/schema.graphql and
 * a document (test/clients/documents/), with the scalar mapping docs/clients.md gives
 * (`strictScalars`: a scalar without a type fails the generation); a client using urql is
 * compiled with `tsc --strict`, then run against the service: its numbers equal the REST shim's.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "@graphql-codegen/cli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

let server: TestServer;
let work: string;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  // Under node_modules: the generated client resolves @urql/core and graphql as a project would.
  mkdirSync(join(ROOT, "node_modules/.cache"), { recursive: true });
  work = mkdtempSync(join(ROOT, "node_modules/.cache/typed-client-"));
});

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The client a user writes over the generated document: every name and field typed. */
const CLIENT = `import { Client, fetchExchange } from "@urql/core";
import { CloudFleetDocument, type CloudFleetQuery } from "./graphql.js";

export async function fleetGwp(url: string): Promise<{ count: number; embedded: number[] }> {
  const client = new Client({ url, exchanges: [fetchExchange] });
  const result = await client
    .query(CloudFleetDocument, {
      fleet: [{ provider: "aws", instanceType: "m5.xlarge" }, { provider: "aws", instanceType: "c5.large" }],
      edition: "2.4.1",
      criteria: ["gwp"],
    })
    .toPromise();
  if (result.error) throw result.error;
  const data: CloudFleetQuery | undefined = result.data;
  if (!data) throw new Error("no data");
  const edition: string | null | undefined = "2.4.1";
  void edition;
  return {
    count: data.cloudInstances.count,
    embedded: data.cloudInstances.items.map((item) => {
      const phase = item?.impacts[0]?.embedded;
      return phase && phase.__typename === "Impact" ? phase.value : Number.NaN;
    }),
  };
}
`;

describe("a codegen-generated typed client (urql)", () => {
  it("generates with every scalar typed, compiles with tsc --strict, and answers the REST shim's numbers", async () => {
    await generate(
      {
        schema: join(ROOT, "schema/schema.graphql"),
        documents: [join(ROOT, "test/clients/documents/*.graphql")],
        generates: {
          [join(work, "graphql.ts")]: {
            plugins: ["typescript-operations", "typed-document-node"],
            config: {
              enumsAsTypes: true,
              scalars: { Edition: "string", JSON: "unknown" },
              strictScalars: true,
              nonOptionalTypename: true,
              useTypeImports: true,
            },
          },
        },
        silent: true,
      },
      true,
    );
    writeFileSync(join(work, "client.ts"), CLIENT);
    writeFileSync(
      join(work, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          skipLibCheck: true,
          verbatimModuleSyntax: false,
        },
        files: ["client.ts"],
      }),
    );
    // tsc's diagnostics are the failure's message when the client does not compile.
    const compiled = (() => {
      try {
        execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", work], {
          encoding: "utf8",
        });
        return "";
      } catch (error) {
        return String((error as { stdout?: string }).stdout ?? error);
      }
    })();
    expect(compiled).toBe("");
    const { fleetGwp } = (await import(join(work, "client.ts"))) as {
      fleetGwp: (url: string) => Promise<{ count: number; embedded: number[] }>;
    };
    const answer = await fleetGwp(`${server.url}/graphql`);
    expect(answer.count).toBe(2);
    for (const [index, instanceType] of ["m5.xlarge", "c5.large"].entries()) {
      const rest = await fetch(`${server.url}/v1/cloud/instance?verbose=false&criteria=gwp&edition=2.4.1`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ provider: "aws", instance_type: instanceType }),
      });
      const body = (await rest.json()) as { impacts: { gwp: { embedded: { value: number } } } };
      expect(answer.embedded[index]).toBe(body.impacts.gwp.embedded.value);
    }
  });
});
