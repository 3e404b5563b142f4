/** Package workqueue: the rate-limited, deduplicating key queue controllers feed and drain. */
export * from "./queue.js";
export * from "./ratelimiter.js";
