import { describe, expect, it } from "vitest";
import { defaultWebhookPath, webhookPathProblem } from "../src/names/index.js";

describe("webhook paths", () => {
  it("derives controller-runtime's default paths", () => {
    expect(defaultWebhookPath("mutate", "crew.testproject.org", "v1", "Captain")).toBe(
      "/mutate-crew-testproject-org-v1-captain",
    );
    expect(defaultWebhookPath("validate", "", "v1", "Pod")).toBe("/validate--v1-pod");
  });

  it("accepts only paths both controller-runtime and the API server accept", () => {
    for (const ok of ["/", "/custom-mutate-sailor", "/a/b-1"])
      expect(webhookPathProblem(ok)).toBeUndefined();
    for (const bad of ["custom", "/Custom", "/custom_path", "/a//b", "/a/", "/-a", "/a.b"]) {
      expect(webhookPathProblem(bad), bad).toBeDefined();
    }
  });
});
