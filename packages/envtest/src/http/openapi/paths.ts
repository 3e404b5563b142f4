/**
 * The operations both OpenAPI documents declare per served kind: a PATCH with the query
 * parameters kubectl looks for (`fieldValidation` above all).
 */
export function patchParameters(): { name: string; type: string }[] {
  return [
    { name: "dryRun", type: "string" },
    { name: "fieldManager", type: "string" },
    { name: "fieldValidation", type: "string" },
    { name: "force", type: "boolean" },
  ];
}
