import type { Store } from '@netlify/blobs';
import {
  type AlertState,
  type DeadLetter,
  deadLetterOf,
  type LeadStore,
  type WaitingLead,
} from './store.js';

/** A drain that ran longer than this is taken to have died (a function is stopped at 30 s). */
const LEASE_MS = 60_000;

/**
 * The lead store on Netlify: Netlify Blobs, which outlive a function's run (its `/tmp` does
 * not). One blob per lead: `waiting/<id>`, `delivered/<id>`, `dead/<id>`; `state/alerts` for the
 * alerts' times and `state/drain` for the lease of the one drain that may run. Writing a lead's
 * own key is the whole operation, so processes never overwrite each other's leads.
 */
export class BlobLeadStore implements LeadStore {
  constructor(
    private readonly blobs: Store,
    readonly where = 'Netlify Blobs',
  ) {}

  async keep(entry: WaitingLead): Promise<void> {
    await this.blobs.setJSON(`waiting/${entry.submissionId}`, entry);
  }

  async waiting(): Promise<WaitingLead[]> {
    const { blobs } = await this.blobs.list({ prefix: 'waiting/' });
    const entries = await Promise.all(
      blobs.map((b) => this.blobs.get(b.key, { type: 'json' }) as Promise<WaitingLead | null>),
    );
    const live: WaitingLead[] = [];
    for (const e of entries) {
      if (e && !(await this.isDelivered(e.submissionId)) && !(await this.isDead(e.submissionId)))
        live.push(e);
    }
    return live.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  }

  async isWaiting(submissionId: string): Promise<boolean> {
    return (
      (await this.blobs.getMetadata(`waiting/${submissionId}`)) !== null &&
      !(await this.isDelivered(submissionId)) &&
      !(await this.isDead(submissionId))
    );
  }

  async isDelivered(submissionId: string): Promise<boolean> {
    return (await this.blobs.getMetadata(`delivered/${submissionId}`)) !== null;
  }

  async delivered(submissionId: string, contactId: string): Promise<void> {
    await this.blobs.setJSON(`delivered/${submissionId}`, {
      submissionId,
      contactId,
      at: new Date().toISOString(),
    });
    await this.blobs.delete(`waiting/${submissionId}`);
  }

  async bury(entry: WaitingLead, reason: string): Promise<void> {
    const letter = deadLetterOf(entry, reason);
    await this.blobs.setJSON(`dead/${entry.submissionId}`, letter);
    await this.blobs.delete(`waiting/${entry.submissionId}`);
  }

  async dead(): Promise<DeadLetter[]> {
    const { blobs } = await this.blobs.list({ prefix: 'dead/' });
    const letters = await Promise.all(
      blobs.map((b) => this.blobs.get(b.key, { type: 'json' }) as Promise<DeadLetter | null>),
    );
    return letters.filter((l): l is DeadLetter => l !== null);
  }

  async drop(submissionId: string): Promise<boolean> {
    const had =
      (await this.blobs.getMetadata(`waiting/${submissionId}`)) !== null ||
      (await this.isDead(submissionId));
    await this.blobs.delete(`waiting/${submissionId}`);
    await this.blobs.delete(`dead/${submissionId}`);
    return had;
  }

  /**
   * A lease rather than a lock: created only if absent, and taken over once it is older than a
   * drain can run. Two drains at once would still deliver each lead once (the CRM write is an
   * upsert and the note is looked for), only doing the work twice.
   */
  async exclusive<T>(fn: () => Promise<T>, options: { wait: boolean }): Promise<T | null> {
    const key = 'state/drain';
    const until = Date.now() + (options.wait ? LEASE_MS : 0);
    for (;;) {
      const lease = { at: Date.now() };
      const taken = await this.blobs.setJSON(key, lease, { onlyIfNew: true });
      if (taken.modified) break;
      const held = (await this.blobs.get(key, { type: 'json' })) as { at?: number } | null;
      if (!held || Date.now() - (held.at ?? 0) > LEASE_MS) {
        await this.blobs.delete(key);
        continue;
      }
      if (Date.now() >= until) return null;
      await new Promise((r) => setTimeout(r, 200));
    }
    try {
      return await fn();
    } finally {
      await this.blobs.delete(key);
    }
  }

  async alertState(): Promise<AlertState> {
    return ((await this.blobs.get('state/alerts', { type: 'json' })) as AlertState | null) ?? {};
  }

  async saveAlertState(state: AlertState): Promise<void> {
    await this.blobs.setJSON('state/alerts', state);
  }

  private async isDead(submissionId: string): Promise<boolean> {
    return (await this.blobs.getMetadata(`dead/${submissionId}`)) !== null;
  }
}
