/**
 * admissionregistration.k8s.io/v1 webhook configurations as kube-apiserver 1.32 defaults and
 * validates them on create: kube's order, field paths and messages, list values as Go prints them.
 */
import { describe, expect, it } from "vitest";
import {
  defaultWebhookConfiguration,
  validateWebhookConfiguration,
  validateWebhooks,
  webhookClientConfigErrors,
} from "../src/admissionregistration/index.js";
import { fieldErrorString } from "../src/status/index.js";

type Obj = Record<string, unknown>;

const hook = (over: Obj = {}): Obj => ({
  name: "vapp.example.com",
  sideEffects: "None",
  admissionReviewVersions: ["v1"],
  clientConfig: { service: { name: "webhook-service", namespace: "system", path: "/validate" } },
  rules: [
    {
      operations: ["CREATE"],
      apiGroups: ["apps"],
      apiVersions: ["v1"],
      resources: ["deployments"],
    },
  ],
  ...over,
});

const messages = (config: Obj, kind = "ValidatingWebhookConfiguration" as const) =>
  validateWebhookConfiguration({ ...config, kind }).map(fieldErrorString);

describe("defaultWebhookConfiguration", () => {
  it("sets v1's defaults, reinvocationPolicy only on mutating webhooks, and keeps given values", () => {
    const mutating = { webhooks: [hook({ timeoutSeconds: 5 })] };
    defaultWebhookConfiguration(mutating, "MutatingWebhookConfiguration");
    expect(mutating.webhooks[0]).toMatchObject({
      failurePolicy: "Fail",
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 5,
      reinvocationPolicy: "Never",
      rules: [{ scope: "*" }],
      clientConfig: { service: { port: 443 } },
    });
    const validating = { webhooks: [hook({ clientConfig: { url: "https://h.example.com" } })] };
    defaultWebhookConfiguration(validating, "ValidatingWebhookConfiguration");
    expect(validating.webhooks[0]).not.toHaveProperty("reinvocationPolicy");
    expect(validating.webhooks[0]).toMatchObject({ timeoutSeconds: 10 });
  });
});

describe("validateWebhookConfiguration", () => {
  it("accepts a valid configuration", () => {
    expect(messages({ metadata: { name: "ok" }, webhooks: [hook()] })).toEqual([]);
  });

  it("reports in kube's order: each webhook's checks, its review versions, then a repeated name", () => {
    const errs = messages({
      metadata: { name: "Bad_Name" },
      webhooks: [
        hook({
          name: "twice.example.com",
          sideEffects: undefined,
          admissionReviewVersions: [],
          timeoutSeconds: 31,
          clientConfig: { url: "http://h.example.com/x?a=b" },
        }),
        hook({ name: "twice.example.com", sideEffects: "Some", failurePolicy: "never" }),
      ],
    });
    expect(errs).toEqual([
      expect.stringMatching(/^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123/),
      "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
      "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
      "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
      "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
      'webhooks[1].failurePolicy: Unsupported value: "never": supported values: "Fail", "Ignore"',
      'webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[1].name: Duplicate value: "twice.example.com"',
    ]);
  });

  it("prints list values as Go's %#v does", () => {
    const errs = messages({
      metadata: { name: "lists" },
      webhooks: [
        hook({
          admissionReviewVersions: ["v2", "v2"],
          rules: [
            {
              operations: ["*", "CREATE"],
              apiGroups: ["*", "apps"],
              apiVersions: ["v1"],
              resources: ["*", "pods"],
              scope: "Everywhere",
            },
          ],
        }),
      ],
    });
    expect(errs).toEqual([
      'webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations',
      'webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other API groups',
      'webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods"}: if \'*\' is present, must not specify other resources without subresources',
      'webhooks[0].rules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
      'webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
    ]);
  });

  it("checks a name as IsFullyQualifiedName does, and selectors as ValidateLabelSelector does", () => {
    const errs = validateWebhooks(
      {
        webhooks: [
          hook({
            name: "vapp.example",
            namespaceSelector: { matchLabels: { "bad key!": "v" } },
            objectSelector: {
              matchExpressions: [
                { key: "a", operator: "In" },
                { key: "b", operator: "Exists", values: ["x"] },
                { key: "c", operator: "Near" },
              ],
            },
          }),
        ],
      },
      "MutatingWebhookConfiguration",
    ).map(fieldErrorString);
    expect(errs).toEqual([
      'webhooks[0].name: Invalid value: "vapp.example": should be a domain with at least three segments separated by dots',
      expect.stringMatching(
        /^webhooks\[0\]\.namespaceSelector\.matchLabels: Invalid value: "bad key!": name part must consist of/,
      ),
      "webhooks[0].objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "webhooks[0].objectSelector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'webhooks[0].objectSelector.matchExpressions[2].operator: Invalid value: "Near": not a valid selector operator',
    ]);
  });

  it("checks reinvocationPolicy on mutating webhooks only, and match conditions through the caller", () => {
    const config = { webhooks: [hook({ reinvocationPolicy: "Always", matchConditions: [{}] })] };
    const conditions = (value: unknown, path: string) =>
      value ? [{ type: "FieldValueRequired" as const, field: `${path}[0].name`, detail: "" }] : [];
    expect(
      validateWebhooks(config, "MutatingWebhookConfiguration", { matchConditions: conditions }).map(
        fieldErrorString,
      ),
    ).toEqual([
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
      "webhooks[0].matchConditions[0].name: Required value",
    ]);
    expect(validateWebhooks(config, "ValidatingWebhookConfiguration")).toEqual([]);
  });
});

describe("webhookClientConfigErrors", () => {
  const at = (cc: unknown) => webhookClientConfigErrors(cc, "cc").map(fieldErrorString);

  it("needs exactly one of url and service", () => {
    const both = { url: "https://h", service: { name: "s", namespace: "n" } };
    for (const cc of [{}, both])
      expect(at(cc)).toEqual(["cc: Required value: exactly one of url or service is required"]);
  });

  it("reads a URL as Go's url.Parse does", () => {
    expect(at({ url: "h.example.com/x" })).toEqual([
      "cc.url: Invalid value: \"\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'cc.url: Invalid value: "": host must be provided; desired format: https://host[/path]',
    ]);
    expect(at({ url: "https://u:p@h.example.com/x#f" })).toEqual([
      'cc.url: Invalid value: "u:p": user information is not permitted in the URL',
      'cc.url: Invalid value: "f": fragments are not permitted in the URL',
    ]);
    expect(at({ url: "https://h.example.com:x/" })).toEqual([
      'cc.url: Required value: url must be a valid URL: parse "https://h.example.com:x/": invalid port ":x" after host; desired format: https://host[/path]',
    ]);
    expect(at({ url: "https://h.example.com:9443/convert" })).toEqual([]);
  });

  it("checks a service as kube does, name and namespace messages swapped as kube's callers swap them", () => {
    expect(at({ service: { name: "s", namespace: "" } })).toEqual([
      "cc.service.name: Required value: service name is required",
    ]);
    expect(at({ service: { name: "", namespace: "n", port: 0 } })).toEqual([
      "cc.service.namespace: Required value: service namespace is required",
      "cc.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
    ]);
    expect(at({ service: { name: "s", namespace: "n", path: "//" } })).toEqual([
      'cc.service.path: Invalid value: "//": segment[0] may not be empty',
    ]);
    expect(at({ service: { name: "s", namespace: "n", path: "/a//b.c/" } })).toEqual([
      'cc.service.path: Invalid value: "/a//b.c/": segment[1] may not be empty',
    ]);
  });
});
