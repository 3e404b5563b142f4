/** Pod templates may not carry ephemeral containers (ValidatePodTemplateSpec), in every holder. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../src/index.js";
import { api, kubectl } from "./helpers.js";

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({});
});
afterAll(async () => {
  await env?.stop();
});

const labels = { app: "web" };
const debug = [{ name: "debug", image: "busybox" }];
const template = (restartPolicy?: string, ephemeral = true) => ({
  metadata: { labels },
  spec: {
    containers: [{ name: "c", image: "nginx" }],
    ...(restartPolicy ? { restartPolicy } : {}),
    ...(ephemeral ? { ephemeralContainers: debug } : {}),
  },
});
const selector = { matchLabels: labels };
const FORBIDDEN = "Forbidden: ephemeral containers not allowed in pod template";

const cases: [string, string, string, object, string][] = [
  [
    "Deployment.apps",
    "/apis/apps/v1",
    "deployments",
    { selector, template: template() },
    "spec.template",
  ],
  [
    "ReplicaSet.apps",
    "/apis/apps/v1",
    "replicasets",
    { selector, template: template() },
    "spec.template",
  ],
  [
    "StatefulSet.apps",
    "/apis/apps/v1",
    "statefulsets",
    { selector, serviceName: "web", template: template() },
    "spec.template",
  ],
  [
    "DaemonSet.apps",
    "/apis/apps/v1",
    "daemonsets",
    { selector, template: template() },
    "spec.template",
  ],
  ["Job.batch", "/apis/batch/v1", "jobs", { template: template("Never") }, "spec.template"],
  [
    "CronJob.batch",
    "/apis/batch/v1",
    "cronjobs",
    { schedule: "* * * * *", jobTemplate: { spec: { template: template("OnFailure") } } },
    "spec.jobTemplate.spec.template",
  ],
  [
    "ReplicationController",
    "/api/v1",
    "replicationcontrollers",
    { selector: labels, template: template() },
    "spec.template",
  ],
];

describe("ephemeral containers in pod templates", () => {
  it.each(cases)("refuses them in a %s", async (kind, prefix, resource, spec, path) => {
    const r = await api(env, "POST", `${prefix}/namespaces/default/${resource}`, {
      metadata: { name: "t" },
      spec,
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      `${kind} "t" is invalid: ${path}.spec.ephemeralContainers: ${FORBIDDEN}`,
    );
    expect(r.body.details.causes).toEqual([
      {
        reason: "FieldValueForbidden",
        message: FORBIDDEN,
        field: `${path}.spec.ephemeralContainers`,
      },
    ]);
  });

  it("refuses them in a PodTemplate, as kubectl shows, and on update", async () => {
    const tmpl = { apiVersion: "v1", kind: "PodTemplate", metadata: { name: "tmpl" } };
    const r = await kubectl(
      env,
      ["create", "-f", "-"],
      JSON.stringify({ ...tmpl, template: template() }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `The PodTemplate "tmpl" is invalid: template.spec.ephemeralContainers: ${FORBIDDEN}`,
    );
    const ok = await kubectl(
      env,
      ["create", "-f", "-"],
      JSON.stringify({ ...tmpl, template: template(undefined, false) }),
    );
    expect(ok.code, ok.stderr).toBe(0);
    const patched = await kubectl(env, [
      "patch",
      "podtemplate",
      "tmpl",
      "--type=merge",
      "-p",
      JSON.stringify({ template: { spec: { ephemeralContainers: debug } } }),
    ]);
    expect(patched.stderr.trim()).toBe(
      `The PodTemplate "tmpl" is invalid: template.spec.ephemeralContainers: ${FORBIDDEN}`,
    );
    // Its pod spec is validated too: a template needs containers.
    const empty = await api(env, "POST", "/api/v1/namespaces/default/podtemplates", {
      metadata: { name: "empty" },
      template: { spec: { containers: [] } },
    });
    expect(empty.body.message).toBe(
      'PodTemplate "empty" is invalid: template.spec.containers: Required value',
    );
  });

  it("refuses them when a Deployment's template gains them", async () => {
    await kubectl(env, ["create", "deployment", "web", "--image=nginx"]);
    const r = await kubectl(env, [
      "patch",
      "deployment",
      "web",
      "--type=json",
      "-p",
      JSON.stringify([
        { op: "add", path: "/spec/template/spec/ephemeralContainers", value: debug },
      ]),
    ]);
    expect(r.stderr.trim()).toBe(
      `The Deployment "web" is invalid: spec.template.spec.ephemeralContainers: ${FORBIDDEN}`,
    );
  });
});
