/**
 * Server-side apply and managedFields as kube-apiserver does them with
 * sigs.k8s.io/structured-merge-diff: field sets, typed merge, comparison and removal, the
 * Updater's Apply and Update, and the field manager's bookkeeping of managedFields entries.
 */
export {
  type ApplyResult,
  applyManagedFields,
  type FieldManagerScope,
  type ManagedFieldsEntry,
  managerIdentifier,
  updateManagedFields,
} from "./field-manager.js";
export { fieldPE as fieldPathElement, type Path, type PathElement, pathString } from "./path.js";
export {
  type Atom,
  crdAtom,
  deduced,
  definitionAtom,
  definitionZero,
  type ListAtom,
  type MapAtom,
  untypedAtomic,
  withField,
} from "./schema.js";
export { FieldSet } from "./set.js";
export { compare, merge, removeItems, SmdError, toFieldSet } from "./typed.js";
export {
  type Conflict,
  ConflictError,
  type Converter,
  type ManagedFieldSets,
  type ResetFields,
  smdApply,
  smdUpdate,
  type TypedValue,
} from "./updater.js";
