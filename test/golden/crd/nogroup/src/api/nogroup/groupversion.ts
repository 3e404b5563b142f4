/**
 * A package with an empty group, as controller-gen's `+groupName=`.
 * @groupName
 */
export const GroupVersion = { version: "nogroup" } as const;
