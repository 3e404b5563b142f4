/**
 * The shapes shared by the server's parts: JSON objects as stored (object.ts), and one served
 * resource with the request that works on it (resource.ts).
 */
export * from "./object.js";
export * from "./resource.js";
