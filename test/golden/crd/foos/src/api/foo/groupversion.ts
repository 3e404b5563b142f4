/** @groupName bar.example.com */
export const GroupVersion = { group: "bar.example.com" } as const;
