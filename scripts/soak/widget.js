// The soak's custom resource: a Widget whose status.value must follow spec.value, with the
// generation it was computed from. Its CRD is written to a temporary folder for envtest.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineKind } from "../../packages/runtime/dist/index.js";

export const Widget = defineKind({
  group: "soak.opgen.io",
  version: "v1",
  kind: "Widget",
  plural: "widgets",
  namespaced: true,
});

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.soak.opgen.io" },
  spec: {
    group: "soak.opgen.io",
    names: { kind: "Widget", listKind: "WidgetList", plural: "widgets", singular: "widget" },
    scope: "Namespaced",
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: { value: { type: "integer", minimum: 0 } },
                required: ["value"],
              },
              status: {
                type: "object",
                properties: {
                  value: { type: "integer" },
                  observedGeneration: { type: "integer", format: "int64" },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** Writes the Widget CRD into `dir` and returns the file's path. */
export function writeWidgetCrd(dir) {
  const file = join(dir, "widgets.soak.opgen.io.json");
  writeFileSync(file, JSON.stringify(crd));
  return file;
}

export function widget(name, value) {
  return {
    apiVersion: Widget.apiVersion,
    kind: Widget.kind,
    metadata: { name, namespace: "default" },
    spec: { value },
  };
}

/** Converged: the status reflects the current spec and generation. */
export function converged(w) {
  return (
    w.status?.value === w.spec?.value && w.status?.observedGeneration === w.metadata?.generation
  );
}
