import { createHash } from 'node:crypto';
import type { Store } from '@netlify/blobs';
import type { RateLimit } from './rate-limit.js';

/** Conditional writes lost to other instances before a visitor is let through uncounted. */
const ATTEMPTS = 8;

/**
 * The per-visitor limit shared by every instance of a Netlify function, through Netlify Blobs:
 * each instance counting alone would let a visitor through once per instance. One blob per
 * visitor per fixed window, `rate/<window>/<digest of the address>` (no address is stored),
 * counted up with conditional writes (created only if new, replaced only if its ETag is still
 * the one read, read with strong consistency), so two instances never lose a count. A store that
 * cannot be reached lets the submission through: a person is never refused for it. Each instance
 * removes the blobs of past windows once per window.
 */
export class BlobRateLimiter implements RateLimit {
  private swept = -1;
  /** Strong reads need the context's uncachedEdgeURL, which Netlify's functions are given. */
  private consistency: 'strong' | 'eventual' = 'strong';

  constructor(
    private readonly blobs: Store,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  async take(visitor: string, now = Date.now()): Promise<number | null> {
    const window = Math.floor(now / this.windowMs);
    const key = `rate/${window}/${createHash('sha256').update(visitor).digest('hex').slice(0, 32)}`;
    const wait = (window + 1) * this.windowMs - now;
    try {
      await this.sweep(window);
      for (let i = 0; i < ATTEMPTS; i++) {
        const held = await this.read(key);
        if (!held) {
          if ((await this.blobs.setJSON(key, { count: 1 }, { onlyIfNew: true })).modified)
            return null;
          continue;
        }
        const count = Number((held.data as { count?: unknown } | null)?.count) || 0;
        if (count >= this.limit) return wait;
        const written = await this.blobs.setJSON(
          key,
          { count: count + 1 },
          { onlyIfMatch: held.etag },
        );
        if (written.modified) return null;
      }
    } catch {
      // Blobs unreachable: the submission goes, uncounted.
    }
    return null;
  }

  /** A count and the ETag it was read at; null when the visitor has none in this window. */
  protected async read(key: string): Promise<{ data: unknown; etag: string } | null> {
    let held: { data: unknown; etag?: string } | null;
    try {
      held = await this.blobs.getWithMetadata(key, { type: 'json', consistency: this.consistency });
    } catch (err) {
      if (this.consistency !== 'strong' || !/uncachedEdgeURL/.test(String(err))) throw err;
      // Eventual reads may be stale: a write on a stale ETag is refused and read again.
      this.consistency = 'eventual';
      held = await this.blobs.getWithMetadata(key, { type: 'json' });
    }
    if (!held) return null;
    if (held.etag) return { data: held.data, etag: held.etag };
    // The local server of `netlify dev` gives ETags in listings only. Taken before the data
    // is read again, an ETag older than the data makes the write refused, and tried again.
    const { blobs } = await this.blobs.list({ prefix: key });
    const etag = blobs.find((b) => b.key === key)?.etag;
    if (!etag) return null;
    const data = await this.blobs.get(key, { type: 'json' });
    return data === null ? null : { data, etag };
  }

  /** Removes the counts of windows before this one: they limit nobody any more. */
  private async sweep(window: number): Promise<void> {
    if (this.swept === window) return;
    this.swept = window;
    const { blobs } = await this.blobs.list({ prefix: 'rate/' });
    await Promise.all(
      blobs
        .filter((b) => Number(b.key.split('/')[1]) < window)
        .map((b) => this.blobs.delete(b.key)),
    );
  }
}
