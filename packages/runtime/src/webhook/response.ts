/**
 * The verdicts controller-runtime's admission package builds (response.go): `allowed` (200),
 * `denied` (403 Forbidden with the message), `errored` (a code and a message, no reason) and the
 * denial made from a thrown error: an API error keeps its own status (e.g. 422 Invalid with field
 * causes, as `validationResponseFromStatus`), anything else becomes `denied(err.message)`.
 */
import type { StatusDetails } from "@opgen/apimachinery/status";
import type { AdmissionResponse, ResponseStatus } from "./types.js";

export type Verdict = Omit<AdmissionResponse, "uid">;

export function allowed(message?: string): Verdict {
  return { allowed: true, status: { metadata: {}, ...(message ? { message } : {}), code: 200 } };
}

export function denied(message?: string): Verdict {
  return {
    allowed: false,
    status: { metadata: {}, ...(message ? { message } : {}), reason: "Forbidden", code: 403 },
  };
}

export function errored(code: number, message: string): Verdict {
  return { allowed: false, status: { metadata: {}, message, code } };
}

interface StatusLike {
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/**
 * The Status of an API error: an ApiError from any copy of @opgen/apimachinery (an operator may
 * bundle its own), so this looks at the shape rather than the class.
 */
function apiStatusOf(err: unknown): StatusLike | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const status = (err as { status?: unknown }).status;
  if (typeof status !== "object" || status === null) return undefined;
  const code = (status as { code?: unknown }).code;
  return typeof code === "number" && Number.isInteger(code) ? (status as StatusLike) : undefined;
}

function warningsOf(err: unknown): string[] {
  const w = (err as { warnings?: unknown } | null)?.warnings;
  return Array.isArray(w) ? w.filter((x): x is string => typeof x === "string") : [];
}

/** The denial for an error thrown by a defaulter or validator. */
export function verdictFromError(err: unknown): Verdict {
  const s = apiStatusOf(err);
  let verdict: Verdict;
  if (s) {
    // Go's metav1.Status field order: metadata, status, message, reason, details, code.
    const status: ResponseStatus = {
      metadata: {},
      ...(s.status ? { status: s.status } : {}),
      ...(s.message ? { message: s.message } : {}),
      ...(s.reason ? { reason: s.reason } : {}),
      ...(s.details ? { details: s.details } : {}),
      code: s.code,
    };
    verdict = { allowed: false, status };
  } else {
    verdict = denied(err instanceof Error ? err.message : String(err));
  }
  const warnings = warningsOf(err);
  if (warnings.length) verdict.warnings = warnings;
  return verdict;
}

/** Adds warnings to a verdict (controller-runtime's `WithWarnings`). */
export function withWarnings(v: Verdict, warnings: unknown): Verdict {
  if (Array.isArray(warnings) && warnings.length) {
    v.warnings = [...(v.warnings ?? []), ...warnings.map(String)];
  }
  return v;
}
