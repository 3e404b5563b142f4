// A watch on a resource nobody has written yet, started from the RV of its (empty) list, must not
// be expired by writes to other resources in between (regression: informers relisted at start).
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventually, startTestEnv, type TestEnv } from "../src/index.js";
import { api, watchStream } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(async () => {
  await env?.stop();
});

it("replays from the list RV of an empty resource after writes elsewhere", async () => {
  const secrets = "/api/v1/namespaces/default/secrets";
  const list = (await api(env, "GET", secrets)).body;
  await api(env, "POST", "/api/v1/namespaces/default/configmaps", {
    metadata: { name: "elsewhere" },
  });
  const w = await watchStream(
    env,
    `${secrets}?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
  );
  expect(w.status).toBe(200);
  await api(env, "POST", secrets, { metadata: { name: "s1" } });
  await eventually(() =>
    expect(w.events.map((e) => `${e.type}:${e.object.metadata?.name}`)).toEqual(["ADDED:s1"]),
  );
  w.close();
});
