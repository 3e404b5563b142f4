import { ApiError } from "@opgen/apimachinery/status";
import { describe, expect, it } from "vitest";
import { Recorder } from "../../src/events/recorder.js";
import type { RestClient, RestRequest } from "../../src/internal/rest/http.js";

/** A RestClient stand-in that records requests and serves no events.k8s.io group. */
function fakeRest(servesEventsV1: boolean) {
  const calls: RestRequest[] = [];
  const rest = {
    async request(req: RestRequest) {
      calls.push(req);
      if (!servesEventsV1 && req.path.startsWith("/apis/events.k8s.io/")) {
        throw new ApiError(404, "NotFound", "the server could not find the requested resource");
      }
      return {};
    },
  } as unknown as RestClient;
  return { rest, calls };
}

const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "ns", uid: "u1" } };

describe("event recorder", () => {
  it("falls back to core/v1 Events when events.k8s.io is not served, and stays there", async () => {
    const { rest, calls } = fakeRest(false);
    const r = new Recorder(rest, "ctrl");
    r.event(pod, "Warning", "Failed", "Sync", "boom");
    await r.flush();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /apis/events.k8s.io/v1/namespaces/ns/events",
      "POST /api/v1/namespaces/ns/events",
    ]);
    const body = calls[1]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      involvedObject: { kind: "Pod", name: "p", uid: "u1" },
      reason: "Failed",
      message: "boom",
      type: "Warning",
      source: { component: "ctrl" },
      count: 1,
    });
    r.event(pod, "Warning", "Failed", "Sync", "boom");
    r.event(pod, "Normal", "Other", "Sync", "fine");
    await r.flush();
    expect(
      calls.slice(2).map((c) => `${c.method} ${c.path.replace(/events\/.*/, "events/NAME")}`),
    ).toEqual(["PATCH /api/v1/namespaces/ns/events/NAME", "POST /api/v1/namespaces/ns/events"]);
    expect(calls[2]?.body).toMatchObject({ count: 2 });
  });

  it("never throws into the caller when the API fails", async () => {
    const rest = {
      async request() {
        throw new ApiError(500, "InternalError", "down");
      },
    } as unknown as RestClient;
    const r = new Recorder(rest, "ctrl");
    expect(() => r.event(pod, "Normal", "R", "A", "n")).not.toThrow();
    await r.flush();
  });
});
