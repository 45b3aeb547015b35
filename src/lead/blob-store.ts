import { randomBytes } from 'node:crypto';
import type { Store } from '@netlify/blobs';
import { personKeys } from './person.js';
import { type CountedLead, factsOf, type LeadFacts } from './report.js';
import { MAX_BODY_BYTES } from './rules.js';
import {
  type AddResult,
  type AlertClaim,
  type AlertState,
  type DeadCursor,
  type DeadLetter,
  deadLetterOf,
  type HeldRecord,
  type LeadStatus,
  type LeadStore,
  type PersonQuery,
  type WaitingCursor,
  type WaitingLead,
} from './store.js';

/** A drain that ran longer than this is taken to have died (a function is stopped at 30 s). */
const LEASE_MS = 60_000;

/**
 * The lead store on Netlify: Netlify Blobs, which outlive a function's run (its `/tmp` does
 * not). One blob per lead: `waiting/<id>`, `delivered/<id>` (its id, contact id and time: no
 * personal data), `dead/<id>`; `state/alerts` for the alerts' times, `state/drain` for the lease
 * of the one drain that may run, `state/counts` for the numbers the last count found. Writing a
 * lead's own key is the whole operation, so processes never overwrite each other's leads.
 * Listing is the only way to find leads, so what reads many (a drain, a person's records) reads
 * them all: Netlify's volumes are small.
 */
export class BlobLeadStore implements LeadStore {
  constructor(
    private readonly blobs: Store,
    readonly where = 'Netlify Blobs',
  ) {}

  async add(entry: WaitingLead, { maxWaiting }: { maxWaiting: number }): Promise<AddResult> {
    const known = await this.status(entry.submissionId);
    if (known) return known;
    // Counting means listing every lead: the cap reads the count the last drain made.
    const counted = (await this.blobs.get('state/counts', { type: 'json' })) as {
      waiting?: number;
    } | null;
    if ((counted?.waiting ?? 0) >= maxWaiting) return 'full';
    const r = await this.blobs.setJSON(`waiting/${entry.submissionId}`, entry, { onlyIfNew: true });
    if (!r.modified) return 'waiting';
    await this.blobs.setJSON(`facts/${entry.submissionId}`, factsOf(entry.lead, entry.receivedAt), {
      onlyIfNew: true,
    });
    return 'added';
  }

  async keep(entry: WaitingLead): Promise<void> {
    if ((await this.status(entry.submissionId)) !== 'waiting') return;
    await this.blobs.setJSON(`waiting/${entry.submissionId}`, entry);
  }

  async waiting(
    options: { limit?: number; after?: WaitingCursor; dueBy?: string } = {},
  ): Promise<WaitingLead[]> {
    const { after, dueBy } = options;
    const live = (await this.all<WaitingLead>('waiting/'))
      .filter(
        (e) =>
          (!dueBy || e.nextAttemptAt <= dueBy) &&
          (!after ||
            e.receivedAt > after.receivedAt ||
            (e.receivedAt === after.receivedAt && e.submissionId > after.submissionId)),
      )
      .sort(
        (a, b) =>
          a.receivedAt.localeCompare(b.receivedAt) || a.submissionId.localeCompare(b.submissionId),
      );
    const out: WaitingLead[] = [];
    for (const e of live) {
      if (options.limit !== undefined && out.length >= options.limit) break;
      if ((await this.status(e.submissionId)) === 'waiting') out.push(e);
    }
    return out;
  }

  async counts(): Promise<{ waiting: number; dead: number }> {
    const [waiting, dead] = await Promise.all([this.keys('waiting/'), this.keys('dead/')]);
    const counts = { waiting: waiting.length, dead: dead.length };
    await this.blobs.setJSON('state/counts', { ...counts, at: new Date().toISOString() });
    return counts;
  }

  async status(submissionId: string): Promise<LeadStatus | null> {
    for (const state of ['delivered', 'dead', 'waiting'] as const)
      if ((await this.blobs.getMetadata(`${state}/${submissionId}`)) !== null) return state;
    return null;
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
    if ((await this.status(entry.submissionId)) !== 'waiting') return;
    await this.blobs.setJSON(`dead/${entry.submissionId}`, deadLetterOf(entry, reason));
    await this.blobs.delete(`waiting/${entry.submissionId}`);
  }

  /** Blobs are listed whole: the page is cut from the list (a function's run is short anyway). */
  async dead(
    options: { limit?: number; after?: DeadCursor; diedBefore?: string } = {},
  ): Promise<DeadLetter[]> {
    const { after, diedBefore, limit } = options;
    const all = (await this.all<DeadLetter>('dead/'))
      .filter(
        (d) =>
          (!diedBefore || d.deadAt < diedBefore) &&
          (!after ||
            d.deadAt > after.deadAt ||
            (d.deadAt === after.deadAt && d.submissionId > after.submissionId)),
      )
      .sort(
        (a, b) => a.deadAt.localeCompare(b.deadAt) || a.submissionId.localeCompare(b.submissionId),
      );
    return limit === undefined ? all : all.slice(0, Math.max(0, Math.floor(limit)));
  }

  async deadCount(diedBefore: string): Promise<number> {
    return (await this.dead({ diedBefore })).length;
  }

  async drop(submissionId: string): Promise<boolean> {
    const state = await this.status(submissionId);
    if (state !== 'waiting' && state !== 'dead') return false;
    await this.blobs.delete(`waiting/${submissionId}`);
    await this.blobs.delete(`dead/${submissionId}`);
    return true;
  }

  async find(query: PersonQuery & { submissionId?: string }): Promise<HeldRecord[]> {
    const keys = personKeys(query);
    const matches = (lead: { email?: string; phone?: string }, id: string) => {
      const k = personKeys(lead);
      return (
        id === query.submissionId ||
        (keys.email !== null && k.email === keys.email) ||
        (keys.phone !== null && k.phone === keys.phone)
      );
    };
    const waiting = (await this.waiting())
      .filter((e) => matches(e.lead, e.submissionId))
      .map((entry): HeldRecord => ({ kind: 'waiting', entry }));
    const dead = (await this.dead())
      .filter((e) => matches(e.lead, e.submissionId))
      .map((entry): HeldRecord => ({ kind: 'dead', entry }));
    return [...waiting, ...dead];
  }

  async forget(person: PersonQuery): Promise<number> {
    if (!person.email?.trim() && !person.phone?.trim()) return 0;
    const held = await this.find(person);
    for (const r of held) await this.blobs.delete(`${r.kind}/${r.entry.submissionId}`);
    return held.length;
  }

  async counted(since?: string): Promise<CountedLead[]> {
    const { blobs } = await this.blobs.list({ prefix: 'facts/' });
    const out: CountedLead[] = [];
    for (const { key } of blobs) {
      const facts = (await this.blobs.get(key, { type: 'json' })) as LeadFacts | null;
      if (!facts || (since && facts.receivedAt < since)) continue;
      const submissionId = key.slice('facts/'.length);
      out.push({ ...facts, submissionId, status: (await this.status(submissionId)) ?? 'dropped' });
    }
    return out.sort(
      (a, b) =>
        a.receivedAt.localeCompare(b.receivedAt) || a.submissionId.localeCompare(b.submissionId),
    );
  }

  async expire(before: string): Promise<number> {
    const old = (await this.dead()).filter((d) => d.deadAt < before);
    for (const d of old) await this.blobs.delete(`dead/${d.submissionId}`);
    return old.length;
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

  /**
   * One blob a condition, written only if it is still the one read (its etag), or only if new:
   * of functions claiming at once, one writes it.
   */
  async claimAlert(condition: string, everyMs: number): Promise<AlertClaim | null> {
    const key = `state/alert/${condition}`;
    for (let tries = 0; tries < 5; tries++) {
      const held = await this.blobs.getWithMetadata(key, { type: 'json' });
      const previous = (held?.data as { at?: string } | null)?.at ?? null;
      const at = new Date().toISOString();
      if (previous && Date.parse(at) - Date.parse(previous) < everyMs) return null;
      // Netlify gives each blob's etag; the package's local server does not, and there the
      // write is not conditional.
      const only = held?.etag
        ? { onlyIfMatch: held.etag }
        : held
          ? {}
          : { onlyIfNew: true as const };
      const written = await this.blobs.setJSON(key, { at }, only);
      if (written.modified) return { condition, at, previous };
    }
    return null;
  }

  async releaseAlert(claim: AlertClaim): Promise<void> {
    const key = `state/alert/${claim.condition}`;
    const held = await this.blobs.getWithMetadata(key, { type: 'json' });
    if ((held?.data as { at?: string } | null)?.at !== claim.at) return;
    if (!claim.previous) await this.blobs.delete(key);
    else
      await this.blobs.setJSON(
        key,
        { at: claim.previous },
        held?.etag ? { onlyIfMatch: held.etag } : {},
      );
  }

  async check(): Promise<void> {
    const probe = randomBytes(MAX_BODY_BYTES);
    await this.blobs.set('state/probe', probe.buffer.slice(probe.byteOffset, probe.byteLength));
  }

  async close(): Promise<void> {}

  private async keys(prefix: string): Promise<string[]> {
    const { blobs } = await this.blobs.list({ prefix });
    return blobs.map((b) => b.key);
  }

  private async all<T>(prefix: string): Promise<T[]> {
    const entries: Array<T | null> = await Promise.all(
      (await this.keys(prefix)).map(
        (k) => this.blobs.get(k, { type: 'json' }) as Promise<T | null>,
      ),
    );
    return entries.filter((e): e is T => e !== null);
  }
}
