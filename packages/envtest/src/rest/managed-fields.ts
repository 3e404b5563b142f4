/**
 * managedFields of Update operations (create, update, patch), as kube's field manager records
 * them with structured-merge-diff (`@opgen/apimachinery/merge`'s ssa): the writer owns what it
 * added or changed, others lose it, entries carry time and subresource, and managedFields a
 * client writes replace the live ones (`[]` resets them).
 */
import { ssa } from "@opgen/apimachinery/merge";
import { nowTime } from "../api/meta.js";
import type {
  KubeObject,
  ManagedFieldsEntry,
  ResourceInfo,
  ResourceVersionInfo,
} from "../api/types.js";
import { atomFor, converterFor, inVersion, resetFieldsFor, zeroFor } from "./merge-schema.js";

export interface ManagedFieldsContext {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  subresource?: string | undefined;
  info: ResourceInfo;
  version: ResourceVersionInfo;
}

/** The field manager's view of a request. */
export function fieldManagerScope(
  ctx: Omit<ManagedFieldsContext, "operation">,
): ssa.FieldManagerScope {
  const convert = converterFor(ctx.info);
  const zero = zeroFor(ctx.info, ctx.version);
  const resetFields = resetFieldsFor(ctx.info, ctx.version, ctx.subresource);
  return {
    manager: ctx.manager,
    apiVersion: ctx.apiVersion,
    subresource: ctx.subresource,
    atom: atomFor(ctx.info, ctx.version),
    ...(convert ? { convert } : {}),
    ...(zero ? { zero } : {}),
    ...(resetFields ? { resetFields } : {}),
    now: nowTime,
  };
}

/** Sets `obj.metadata.managedFields` for an Update-operation write of `obj` over `old`. */
export function recordManagedFields(
  obj: KubeObject,
  old: KubeObject | undefined,
  ctx: ManagedFieldsContext,
): void {
  if (!obj.metadata) obj.metadata = {};
  let entries: ssa.ManagedFieldsEntry[];
  try {
    const view = <T>(o: T): T => inVersion(ctx.info, ctx.version, o);
    entries = ssa.updateManagedFields(view(old), view(obj), fieldManagerScope(ctx));
  } catch (e) {
    // kube's UpdateNoErrors: a write the field manager cannot follow clears managedFields.
    if (!(e instanceof ssa.SmdError)) throw e;
    entries = [];
  }
  if (entries.length) obj.metadata.managedFields = entries as ManagedFieldsEntry[];
  else delete obj.metadata.managedFields;
}
