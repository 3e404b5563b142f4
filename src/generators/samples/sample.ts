/**
 * The sample custom resource `create api` writes to config/samples: Kubebuilder's header, labels
 * and name, and a body filled from the kind's generated CRD schema (`exampleBody` of
 * `@opgen/apimachinery/schema`), then checked against that schema, CEL rules included, as the API
 * server would check it. Whatever does not pass is returned as problems (and noted in the file)
 * rather than written silently.
 */

import { exampleBody, type JSONSchemaProps } from "@opgen/apimachinery/schema";
import { fieldErrorString } from "@opgen/apimachinery/status";
import { validateCustomResource } from "@opgen/apimachinery/validation";
import { toYaml } from "../../util/yaml.js";
import { renderTemplate } from "../scaffold/render.js";

export interface SampleMeta {
  apiVersion: string;
  kind: string;
  /** metadata.name, e.g. `appcluster-sample`. */
  name: string;
  projectName: string;
}

export interface Sample {
  content: string;
  /** One line per field no valid value was found for: `spec.x: ...`. */
  problems: string[];
}

const TODO =
  "# TODO(user): Add fields here; `npm run manifests` checks this sample against the CRD.";

export function renderSample(schema: JSONSchemaProps | undefined, meta: SampleMeta): Sample {
  const { body, problems: fillProblems } = schema
    ? exampleBody(schema)
    : { body: { spec: {} }, problems: [] };
  const problems = fillProblems.map((p) => `${p.field}: ${p.message}`);
  if (schema) {
    const object = {
      apiVersion: meta.apiVersion,
      kind: meta.kind,
      metadata: { name: meta.name },
      ...body,
    };
    const { unknownFields, errors } = validateCustomResource(object, schema);
    problems.push(...unknownFields.map((f) => `unknown field "${f}"`));
    // A field already named by the filler is not reported twice.
    for (const e of errors) {
      const line = fieldErrorString(e);
      if (!fillProblems.some((p) => p.field === e.field)) problems.push(line);
    }
  }
  const notes = problems.map((p) => `# TODO(user): fix ${p.replace(/\s*\n\s*/g, " ")}\n`).join("");
  return {
    content: renderTemplate("api/sample.yaml.hbs", {
      ...meta,
      body: (notes + bodyYaml(body)).trimEnd(),
    }),
    problems,
  };
}

/** The body as YAML, the TODO hint first inside spec (or above an empty spec). */
function bodyYaml(body: Record<string, unknown>): string {
  const { spec, ...rest } = body;
  let out = "";
  if (spec !== undefined) {
    const text = toYaml({ spec });
    out += text.startsWith("spec:\n") ? `spec:\n  ${TODO}\n${text.slice(6)}` : `${TODO}\n${text}`;
  }
  return out + (Object.keys(rest).length ? toYaml(rest) : "");
}
