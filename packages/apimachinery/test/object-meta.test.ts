/** ValidateObjectMeta for a create: the rules envtest's admission and the sample check share. */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../src/status/index.js";
import { nameErrors, objectMetaErrors } from "../src/validation/object-meta.js";

const errors = (
  meta: unknown,
  namespaced = true,
  nameRule: "subdomain" | "label" | "path" = "subdomain",
) => objectMetaErrors(meta, { namespaced, nameRule }).map(fieldErrorString);

describe("objectMetaErrors", () => {
  it("accepts a complete, valid metadata", () => {
    expect(
      errors({
        name: "a.b-c",
        namespace: "ns",
        labels: { "example.com/app": "x", empty: "" },
        annotations: { "Example.com/Any": "free text" },
        ownerReferences: [
          { apiVersion: "v1", kind: "ConfigMap", name: "c", uid: "1", controller: true },
        ],
        finalizers: ["example.com/cleanup"],
      }),
    ).toEqual([]);
  });

  it("requires a name or generateName, and a namespace only on namespaced kinds", () => {
    expect(errors({})).toEqual([
      "metadata.name: Required value: name or generateName is required",
      "metadata.namespace: Required value",
    ]);
    expect(errors({ name: "a", namespace: "ns" }, false)).toEqual([
      "metadata.namespace: Forbidden: not allowed on this type",
    ]);
    expect(errors({ generateName: "a-" }, false)).toEqual([]);
  });

  it("checks generateName as a prefix (a trailing '-' is fine) with the kind's name rule", () => {
    expect(nameErrors("subdomain", "web-", true)).toEqual([]);
    expect(nameErrors("subdomain", "web-")).toHaveLength(1);
    expect(nameErrors("label", "a.b", true)).toHaveLength(1);
    expect(nameErrors("path", "a.b")).toEqual([]);
    expect(nameErrors("path", "a/b%")).toEqual(["may not contain '/'", "may not contain '%'"]);
    // An update keeps the name it has: its generateName is no longer checked.
    expect(
      objectMetaErrors(
        { name: "a", generateName: "A_", namespace: "ns" },
        { namespaced: true, nameRule: "subdomain", update: true },
      ),
    ).toEqual([]);
    expect(errors({ generateName: "a/", namespace: "ns" }, true, "path")).toEqual([
      "metadata.generateName: Invalid value: \"a/\": may not contain '/'",
    ]);
  });

  it("names negative generations, incomplete owner references, two controllers and bad finalizers", () => {
    expect(
      errors({
        name: "a",
        namespace: "ns",
        generation: -1,
        ownerReferences: [
          { apiVersion: "v1", kind: "A", name: "x", uid: "1", controller: true },
          { kind: "B", name: "y", controller: true },
        ],
        finalizers: ["ok", "bad name"],
      }),
    ).toEqual([
      "metadata.generation: Invalid value: -1: must be greater than or equal to 0",
      'metadata.ownerReferences[1].apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences[1].uid: Invalid value: "": uid must not be empty',
      expect.stringMatching(
        /^metadata\.ownerReferences: Invalid value: .*Only one reference can have Controller set to true\. Found "true" in references for A\/x and B\/y$/,
      ),
      expect.stringMatching(
        /^metadata\.finalizers\[1\]: Invalid value: "bad name": name part must consist/,
      ),
    ]);
  });

  it("counts annotations' size in bytes, keys included", () => {
    const value = "é".repeat(131071); // 262142 bytes
    expect(errors({ name: "a", namespace: "n", annotations: { ab: value } })).toEqual([]);
    expect(errors({ name: "a", namespace: "n", annotations: { abc: value } })).toEqual([
      "metadata.annotations: Too long: may not be more than 262144 bytes",
    ]);
  });
});
