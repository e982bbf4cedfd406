/*
 * What an AWS call's failure is, said in a few words for the scan's one line per failure: no
 * credentials, a denied call, throttling, a region that does not answer, or the service's own
 * error name. Nothing of the credentials is ever in it: the SDK's messages name no secret, and an
 * access key id a message might quote is replaced before the words leave this module.
 */

/** Error names of a call the account's policy denies. */
const DENIED = new Set([
  "UnauthorizedOperation",
  "AccessDenied",
  "AccessDeniedException",
  "AuthFailure",
  "UnrecognizedClientException",
  "InvalidClientTokenId",
  "ExpiredToken",
  "ExpiredTokenException",
  "SignatureDoesNotMatch",
]);

/** Error names of a call refused for its rate (after the SDK's bounded retries). */
const THROTTLED = new Set([
  "Throttling",
  "ThrottlingException",
  "RequestLimitExceeded",
  "TooManyRequestsException",
  "RequestThrottled",
  "RequestThrottledException",
]);

/** Node's codes of a connection that could not be made or was cut. */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
]);

/** An access key id (AKIA…, ASIA…), never written even where a message quotes one. */
const ACCESS_KEY_ID = /\b(AKIA|ASIA|AIDA|AROA)[A-Z0-9]{12,}\b/g;

/** The longest message kept of an error the list above does not name. */
const MAX_MESSAGE = 160;

/** The first line of a message, bounded, an access key id replaced. */
function safeMessage(message: string): string {
  return message.split("\n")[0].replace(ACCESS_KEY_ID, "<access key id>").slice(0, MAX_MESSAGE);
}

/** A failure's kind, for its words and for what the scan does next. */
export type FailureKind =
  | "no credentials"
  | "denied"
  | "throttled"
  | "not answering"
  | "too large"
  | "aborted"
  | "failed";

/** A call's failure in a few words: `denied (UnauthorizedOperation)`. */
export interface CallFailure {
  readonly kind: FailureKind;
  readonly words: string;
}

/** The failure of an AWS SDK call. */
export function callFailure(error: unknown): CallFailure {
  const named = error as {
    name?: string;
    code?: string;
    message?: string;
    $metadata?: { attempts?: number };
  };
  const name = named?.name ?? "Error";
  const message = safeMessage(String(named?.message ?? error));
  const attempts = named?.$metadata?.attempts;
  const tries = attempts === undefined ? "" : `, ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  if (name === "CredentialsProviderError" || /could not load credentials/i.test(message)) {
    return {
      kind: "no credentials",
      words: "no credentials (the SDK's chain found none: environment, profile, instance role)",
    };
  }
  if (DENIED.has(name)) return { kind: "denied", words: `denied (${name})` };
  if (THROTTLED.has(name)) return { kind: "throttled", words: `throttled (${name}${tries})` };
  if (name === "AnswerTooLarge") return { kind: "too large", words: `answered too much (${message}, cut)` };
  if (name === "AbortError") return { kind: "aborted", words: "stopped: the scan's time was spent" };
  const code = named?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  if (name === "TimeoutError" || name === "RequestTimeout" || (code !== undefined && UNREACHABLE.has(code))) {
    return { kind: "not answering", words: `did not answer (${code ?? name}${tries})` };
  }
  return { kind: "failed", words: `failed (${name}: ${message})` };
}
