/** A per-visitor limit: null when a submission may go, else the milliseconds until one may. */
export interface RateLimit {
  take(key: string, now?: number): number | null | Promise<number | null>;
}

/** A fixed-window counter per client, in this process: `limit` submissions per `windowMs`. */
export class RateLimiter implements RateLimit {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** null when allowed; otherwise the milliseconds until the client may try again. */
  take(key: string, now = Date.now()): number | null {
    if (this.hits.size > 10_000) {
      for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
    }
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      return null;
    }
    if (entry.count >= this.limit) return entry.resetAt - now;
    entry.count++;
    return null;
  }
}
