import type { ObjectMeta } from "@opgen/runtime";
import { defineKind } from "@opgen/runtime";
import { GroupVersion } from "./groupversion.js";

/** MyApp is the Schema for the myapps API (spec and status trimmed: RBAC reads only the kind). */
export interface MyApp {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export const MyAppKind = defineKind<MyApp>({
  group: GroupVersion.group,
  version: GroupVersion.version,
  kind: "MyApp",
  plural: "myapps",
  namespaced: true,
});
