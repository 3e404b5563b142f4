/**
 * Package v1 contains the MyApp API of seed 001.
 * @groupName example.com
 * @versionName v1
 */
export const GroupVersion = { group: "example.com", version: "v1" } as const;
