/**
 * Package v1 contains API Schema definitions for the example v1 API group.
 * @groupName example.com
 * @versionName v1
 */
export const GroupVersion = { group: "example.com", version: "v1" } as const;
