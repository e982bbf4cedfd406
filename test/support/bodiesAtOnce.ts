/**
 * Issue 86's round of legal bodies sent at once to a running service, kept for the test that runs
 * it in the container's limits (test/server/bodiesAtOnce.test.ts) and the bench that measures it
 * (bench/bodiesAtOnce.ts): each phase fires its bodies together, while one client asks light
 * requests back to back (`/healthz`, a small REST POST) until every body is answered. No waits of
 * a duration: each phase ends when its answers have all come.
 */
import { request as httpRequest } from "node:http";
import { largestFleetBody } from "../../bench/admission.js";

/** One of issue 86's lists: exactly 10,000 `{}`, the longest list any input accepts (MAX_FLEET_ITEMS). */
const AT_THE_BOUND = `[${Array(10_000).fill("{}").join(",")}]`;

/** `{"usage":{"x":[L, … 279 times]}}`: 8,370,575 bytes, under MAX_BODY_BYTES. */
export const ISSUE_BODY = `{"usage":{"x":[${Array(279).fill(AT_THE_BOUND).join(",")}]}}`;

/** 700,000 `{}` in lists of 100 (each within MAX_LIST_LENGTH, all built: about 50 MB estimated), 2.1 MB, a legal REST body. */
const HUNDRED = `[${Array(100).fill("{}").join(",")}]`;
export const BUILT_BODY = `{"model":{"archetype":"dellR740"},"x":[${Array(70)
  .fill(`[${Array(100).fill(HUNDRED).join(",")}]`)
  .join(",")}]}`;

/** An item that is not JSON after a list past the bound, padded: 8.4 MB. */
export const NOT_JSON = `{"query":"{ __typename }","variables":{"undeclared":[${Array(2_000_000).fill("{}").join(",")},${" ".repeat(100_000)}tru]}}`;

const LIGHT_REST = JSON.stringify({ model: { archetype: "dellR740" } });

/** A request of the round. */
interface Shot {
  readonly kind: string;
  readonly path: string;
  readonly body: string;
  readonly contentType?: string;
}

/** What one answer was. */
export interface ShotAnswer {
  readonly kind: string;
  readonly status: number;
  readonly retryAfter: string | undefined;
  /** The statuses of a batch's lines. */
  readonly lines?: readonly number[];
  /** The refusal's limit or message, shortened. */
  readonly said: string;
}

/** A batch of three lines: two holding issue 86's body, one light. */
export const BATCH = [
  `{"path":"/v1/server/?verbose=false","body":${ISSUE_BODY}}`,
  `{"path":"/v1/server/?verbose=false","body":${ISSUE_BODY}}`,
  `{"path":"/v1/server/?verbose=false","body":${LIGHT_REST}}`,
].join("\n");

const times = (count: number, shot: Shot): Shot[] => Array(count).fill(shot);

/** The phases: the issue's eight REST bodies and four batches; the same in GraphQL; bodies that are built; not JSON. */
export const PHASES: Readonly<Record<string, readonly Shot[]>> = {
  "eight of issue 86's REST bodies and four batches": [
    ...times(8, { kind: "REST", path: "/v1/server/?verbose=false", body: ISSUE_BODY }),
    ...times(4, { kind: "batch", path: "/v1/batch", body: BATCH, contentType: "application/x-ndjson" }),
  ],
  "eight of them in an undeclared GraphQL variable, and four batches": [
    ...times(8, {
      kind: "GraphQL",
      path: "/graphql",
      body: `{"query":"{ __typename }","variables":{"undeclared":${ISSUE_BODY.slice(ISSUE_BODY.indexOf("["), -2)}}}`,
    }),
    ...times(4, { kind: "batch", path: "/v1/batch", body: BATCH, contentType: "application/x-ndjson" }),
  ],
  "eight legal REST bodies of 700,000 records, all built": times(8, {
    kind: "REST built",
    path: "/v1/server/?verbose=false",
    body: BUILT_BODY,
  }),
  "the largest legal fleet (10,000 verbose servers) beside eight bodies built and four batches": [
    { kind: "fleet", path: "/graphql", body: largestFleetBody(10_000) },
    ...times(8, { kind: "REST built", path: "/v1/server/?verbose=false", body: BUILT_BODY }),
    ...times(4, { kind: "batch", path: "/v1/batch", body: BATCH, contentType: "application/x-ndjson" }),
  ],
  "four bodies that are not JSON, 8.4 MB": [
    ...times(2, { kind: "GraphQL not JSON", path: "/graphql", body: NOT_JSON }),
    ...times(2, { kind: "REST not JSON", path: "/v1/server/", body: NOT_JSON }),
  ],
};

/**
 * The light client's address: another client than the bodies' (127.0.0.1), as a client beside
 * them is; from the same address, its POSTs would find that client's share of the bodies' bytes
 * taken (MAX_BODY_BYTES_PER_CLIENT, src/http/limits/bodyBytes.ts).
 */
const LIGHT_CLIENT = "127.0.0.2";

/** POSTs `body` (GETs without one) from `from` and reads the whole answer (a refused connection is status 0). */
function post(
  port: number,
  path: string,
  body?: string,
  contentType = "application/json",
  from = "127.0.0.1",
) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        method: body === undefined ? "GET" : "POST",
        path,
        headers:
          body === undefined
            ? {}
            : { "content-type": contentType, "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", () => resolve({ status: 0, headers: {}, text: "" }));
      },
    );
    request.on("error", () => resolve({ status: 0, headers: {}, text: "" }));
    request.end(body);
  });
}

/** An answer as the round records it: a batch by its lines' statuses, a refusal by what it names. */
function answerOf(kind: string, answer: Awaited<ReturnType<typeof post>>): ShotAnswer {
  const retryAfter = answer.headers["retry-after"] as string | undefined;
  if (kind === "batch" && answer.status === 200) {
    const lines = answer.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { status?: number; summary?: unknown })
      .filter((line) => line.status !== undefined)
      .map((line) => line.status as number);
    return { kind, status: 200, retryAfter, lines, said: "" };
  }
  const limit = /"limit":"([A-Z_]+)"|\(([A-Z_]+)\)/.exec(answer.text);
  return {
    kind,
    status: answer.status,
    retryAfter,
    said: limit?.[1] ?? limit?.[2] ?? answer.text.slice(0, 120),
  };
}

/** What the light client saw while a phase ran. */
export interface LightFigures {
  readonly answered: number;
  readonly failed: number;
  readonly slowestMs: number;
}

/** Light requests back to back from LIGHT_CLIENT until `done` resolves: `/healthz` and a small REST POST in turn. */
async function lightClient(port: number, done: Promise<unknown>): Promise<LightFigures> {
  let finished = false;
  void done.then(() => {
    finished = true;
  });
  let answered = 0;
  let failed = 0;
  let slowestMs = 0;
  while (!finished) {
    const started = performance.now();
    const { status } =
      answered % 2 === 0
        ? await post(port, "/healthz", undefined, undefined, LIGHT_CLIENT)
        : await post(port, "/v1/server/?verbose=false", LIGHT_REST, undefined, LIGHT_CLIENT);
    slowestMs = Math.max(slowestMs, performance.now() - started);
    if (status === 200) answered += 1;
    else failed += 1;
  }
  return { answered, failed, slowestMs: Math.round(slowestMs) };
}

/** One phase: its bodies at once, the light client beside them; every answer, and the light figures. */
export async function firePhase(
  port: number,
  shots: readonly Shot[],
): Promise<{ answers: ShotAnswer[]; light: LightFigures }> {
  const answers = Promise.all(
    shots.map(async ({ kind, path, body, contentType }) =>
      answerOf(kind, await post(port, path, body, contentType)),
    ),
  );
  const light = lightClient(port, answers);
  return { answers: await answers, light: await light };
}
