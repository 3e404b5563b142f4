import { describe, expect, it } from "vitest";
import {
  ApiError,
  errors,
  field,
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNotFound,
  isTooManyRequests,
  reasonForError,
} from "../src/status/index.js";

describe("Status errors", () => {
  it("words NotFound, AlreadyExists and Conflict as kube-apiserver does", () => {
    const nf = errors.notFound({ group: "apps", resource: "deployments" }, "web");
    expect(nf.message).toBe('deployments.apps "web" not found');
    expect(nf.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'deployments.apps "web" not found',
      reason: "NotFound",
      details: { name: "web", group: "apps", kind: "deployments" },
      code: 404,
    });
    expect(errors.alreadyExists({ group: "", resource: "pods" }, "p").message).toBe(
      'pods "p" already exists',
    );
    expect(errors.optimisticLock({ group: "", resource: "configmaps" }, "c").message).toBe(
      'Operation cannot be fulfilled on configmaps "c": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it("aggregates field errors into Invalid with causes", () => {
    const e = errors.invalid("AppCluster", "demo.example.com", "a", [
      field.invalid("spec.size", 20, "must be less than or equal to 10"),
      field.required("spec.image", ""),
      field.notSupported("spec.mode", "x", ["Fast", "Slow"]),
      field.tooLong("metadata.name", "x", 63),
      field.tooMany("spec.items", 5, 1),
    ]);
    expect(e.code).toBe(422);
    expect(e.message).toBe(
      'AppCluster.demo.example.com "a" is invalid: [spec.size: Invalid value: 20: must be less than or equal to 10, spec.image: Required value, spec.mode: Unsupported value: "x": supported values: "Fast", "Slow", metadata.name: Too long: may not be more than 63 bytes, spec.items: Too many: 5: must have at most 1 item]',
    );
    expect(e.details?.causes?.[0]).toEqual({
      reason: "FieldValueInvalid",
      message: "Invalid value: 20: must be less than or equal to 10",
      field: "spec.size",
    });
    const one = errors.invalid("Pod", "", "p", [field.required("spec.containers", "")]);
    expect(one.message).toBe('Pod "p" is invalid: spec.containers: Required value');
  });

  it("carries Retry-After for 429 and the constructors' codes", () => {
    const e = errors.tooManyRequests("slow down", 3);
    expect(e.headers).toEqual({ "Retry-After": "3" });
    expect(e.details?.retryAfterSeconds).toBe(3);
    expect(errors.requestEntityTooLarge("limit is 3145728").status).toMatchObject({
      code: 413,
      reason: "RequestEntityTooLarge",
      message: "Request entity too large: limit is 3145728",
    });
    expect(errors.gone("x").code).toBe(410);
    expect(errors.serviceUnavailable("x").code).toBe(503);
  });

  it("builds client-side errors from response bodies, Status or not", () => {
    const body = JSON.stringify(errors.notFound({ group: "", resource: "pods" }, "p").status);
    const e = ApiError.fromResponse(404, body, "GET /api/v1/namespaces/d/pods/p");
    expect(isNotFound(e)).toBe(true);
    expect(e.request).toBe("GET /api/v1/namespaces/d/pods/p");
    expect(e.details?.name).toBe("p");
    const html = ApiError.fromResponse(502, "<html>bad gateway</html>");
    expect(html).toMatchObject({
      code: 502,
      reason: "InternalError",
      message: "<html>bad gateway</html>",
    });
    expect(isNotFound(ApiError.fromResponse(404, ""))).toBe(true);
    expect(ApiError.fromStatus({ code: 409, reason: "AlreadyExists", message: "m" }).reason).toBe(
      "AlreadyExists",
    );
  });

  it("predicates answer only for ApiErrors of their reason", () => {
    const conflict = errors.conflict({ group: "", resource: "pods" }, "p", "x");
    expect(isConflict(conflict)).toBe(true);
    expect(isAlreadyExists(conflict)).toBe(false);
    expect(isConflict(new Error("Conflict"))).toBe(false);
    expect(isGone(errors.expired("too old"))).toBe(true);
    expect(isInvalid(errors.invalid("Pod", "", "p", []))).toBe(true);
    expect(isTooManyRequests(errors.tooManyRequests("x", 1))).toBe(true);
    expect(reasonForError("nope")).toBe("");
    expect(ignoreNotFound(errors.notFound({ group: "", resource: "pods" }, "p"))).toBeUndefined();
    expect(() => ignoreNotFound(conflict)).toThrow(conflict);
  });
});
