/**
 * A bounded map whose entries expire: where the metrics filter keeps TokenReview and
 * SubjectAccessReview answers, as k8s.io/apiserver's delegating authenticator and authorizer cache
 * theirs (so a scrape every few seconds costs no API call). Past `maxEntries` the oldest entry is
 * dropped, so a client sending ever new tokens cannot grow memory.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key); // re-inserted last: the Map's order is the eviction order
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expires: this.now() + ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
