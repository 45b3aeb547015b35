import type { Deliverer } from './delivery.js';
import { type LeadStore, StoreHarmedError } from './store.js';

/**
 * Whether the store can keep a lead now, from its last write: an accepted lead, or a probe the
 * health check writes (as large as the largest lead) at most once every `everyMs`, however
 * often it is asked. A failed accept makes it unhealthy at once; the next write that succeeds
 * (the disk has room again) makes it healthy, with nothing restarted. Each failure is handed to
 * `onFailure` (the owner is alerted at once); a store whose files were harmed stays failing.
 */
export class StoreHealth {
  private failing = false;
  private probedAt = 0;
  private probing: Promise<void> | null = null;
  /** The store's files were removed, replaced or damaged: what the health route says then. */
  harmed: StoreHarmedError | null = null;

  constructor(
    private readonly store: LeadStore,
    private readonly everyMs = 1000,
    private readonly onFailure: (err: unknown) => void = () => {},
  ) {}

  failed(err?: unknown): void {
    this.failing = true;
    if (err instanceof StoreHarmedError) this.harmed = err;
    if (err !== undefined) this.onFailure(err);
  }

  succeeded(): void {
    this.failing = false;
    this.harmed = null;
    this.probedAt = Date.now();
  }

  async writable(): Promise<boolean> {
    if (!this.probing && Date.now() - this.probedAt >= this.everyMs) {
      this.probedAt = Date.now();
      this.probing = this.store
        .check()
        .then(
          () => this.succeeded(),
          (err) => this.failed(err),
        )
        .finally(() => {
          this.probing = null;
        });
    }
    if (this.probing) await this.probing;
    return !this.failing;
  }
}

/** What the health route says of a store whose files are not the ones it opened, and what to do. */
export const STORE_HARMED =
  "the lead store's files were removed, replaced or damaged: restore the last backup or run claimsite leads store --init, then restart (docs/leads.md; the log says which file)";

/** What the health route answers with no CRM token: the endpoint works, the CRM gets nothing. */
export const NOT_DELIVERED = 'GHL_TOKEN is not set: leads are kept, but not delivered to the CRM';

/**
 * The health route's answer: 200 while a lead would be accepted, 503 when one would not (the
 * store cannot write, or holds its cap of waiting leads), with how many wait. It says nothing of
 * why beyond that (no internal error text), nothing personal, and needs no token; it reads one
 * counter row and writes at most one probe a second, whatever the store holds.
 */
export async function healthOf(d: Deliverer): Promise<{ status: number; body: object }> {
  try {
    const writable = await d.health.writable();
    if (!writable)
      return {
        status: 503,
        body: {
          status: 'unavailable',
          reason: d.health.harmed ? STORE_HARMED : 'the lead store cannot keep a lead now',
        },
      };
    const { waiting } = await d.store.counts();
    if (waiting >= d.maxWaiting)
      return {
        status: 503,
        body: {
          status: 'unavailable',
          reason: `${d.maxWaiting} leads wait, the most LEAD_MAX_WAITING allows`,
          outbox: { waiting },
        },
      };
    return {
      status: 200,
      body: { status: 'ok', outbox: { waiting }, ...(d.crm ? {} : { delivery: NOT_DELIVERED }) },
    };
  } catch {
    return {
      status: 503,
      body: { status: 'unavailable', reason: 'the lead store cannot be read' },
    };
  }
}
