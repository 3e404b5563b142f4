/**
 * Package v1 contains API Schema definitions for the demo v1 API group.
 * @groupName demo.my.domain
 * @versionName v1
 */
export const GroupVersion = { group: "demo.my.domain", version: "v1" } as const;
