/** @groupName plural.example.com */
export const GroupVersion = { group: "plural.example.com", version: "v1" } as const;
