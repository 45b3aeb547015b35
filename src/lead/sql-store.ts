import { randomBytes, randomUUID } from 'node:crypto';
import { holderOf, isGone, type LeaseHolder } from './lease-holder.js';
import { personKeys } from './person.js';
import { type CountedLead, type FactStatus, factsOf, type LeadFacts } from './report.js';
import { MAX_BODY_BYTES } from './rules.js';
import type { Lead } from './schema.js';
import { LEAD_COLUMNS, type SqlDatabase, type Statement } from './sql.js';
import {
  type AddResult,
  type AlertClaim,
  type AlertState,
  type DeadCursor,
  type DeadLetter,
  type HeldRecord,
  type LeadStatus,
  type LeadStore,
  laterSteps,
  PAGE_SIZE,
  type PersonQuery,
  StoreHarmedError,
  type WaitingCursor,
  type WaitingLead,
  yieldToRequests,
} from './store.js';

/** A drain's lease: renewed every third of it while the drain runs, taken over once it lapses. */
const LEASE_MS = 30_000;

/**
 * The lead store on a SQL database: SQLite on one Node host, PostgreSQL for several. Every
 * change is one transaction, durable when it returns; queries go by index (a submission by its
 * id, waiting leads by state and time, a person by e-mail or phone), and the numbers health and
 * the cap need are counters the database keeps, so that accepting a lead costs the same with 10
 * or 100,000 waiting. The database is opened at the first operation, and again after one
 * failed to open it (a folder not yet writable, a server not yet up).
 */
export class SqlLeadStore implements LeadStore {
  private opening: Promise<SqlDatabase> | null = null;
  /** Personal data was deleted or cleared since the files were last erased. */
  private unerased = false;
  /**
   * Why the store's files are not the ones it opened, once it found they are not: from then on
   * this process accepts nothing into it (the operator restores a backup, or starts a new store,
   * and restarts the server).
   */
  private harmed: StoreHarmedError | null = null;
  /** Runs once the database is open, before anything else uses it (an older outbox's import). */
  onOpen?: (store: SqlLeadStore) => Promise<void>;

  constructor(
    private readonly open: () => Promise<SqlDatabase>,
    readonly where: string,
  ) {}

  /** The database, opened once. */
  db(): Promise<SqlDatabase> {
    this.opening ??= (async () => {
      const db = await this.open();
      try {
        // The hook gets a store on the database just opened, which waits for nothing.
        await this.onOpen?.(new SqlLeadStore(async () => db, this.where));
      } catch (err) {
        await db.close();
        throw err;
      }
      return db;
    })().catch((err) => {
      this.opening = null;
      throw err;
    });
    return this.opening;
  }

  /** Runs a write, once the files are found to be the ones opened (and after, with `after`). */
  private async batch(statements: Statement[], options: { after?: boolean } = {}) {
    const db = await this.db();
    await this.verify(db, false);
    const results = await db.batch(statements);
    if (options.after) await this.verify(db, false);
    return results;
  }

  private async verify(db: SqlDatabase, deep: boolean): Promise<void> {
    if (this.harmed) throw this.harmed;
    try {
      await db.verify(deep);
    } catch (err) {
      if (err instanceof StoreHarmedError) this.harmed = err;
      throw err;
    }
  }

  private async query(sql: string, params: unknown[] = []) {
    return (await this.db()).query(sql, params);
  }

  async add(entry: WaitingLead, { maxWaiting }: { maxWaiting: number }): Promise<AddResult> {
    const keys = personKeys(entry.lead);
    const { storeId } = await this.db();
    const [inserted, , found, held] = await this.batch(
      [
        {
          // Kept only while fewer than maxWaiting wait: the check and the insert are one.
          sql: `INSERT INTO leads (submission_id, state, received_at, lead, email, phone, attempts,
                next_attempt_at, reason, contact_id, note_may_exist, progress)
              SELECT CAST(? AS TEXT), 'waiting', CAST(? AS TEXT), CAST(? AS JSONB), CAST(? AS TEXT),
                CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT),
                CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS TEXT)
              WHERE (SELECT n FROM lead_counts WHERE state = 'waiting') < ?
                AND EXISTS (SELECT 1 FROM lead_store WHERE store_id = ?)
              ON CONFLICT (submission_id) DO NOTHING`,
          params: [
            entry.submissionId,
            entry.receivedAt,
            JSON.stringify(entry.lead),
            keys.email,
            keys.phone,
            entry.attempts,
            entry.nextAttemptAt,
            entry.reason,
            entry.contactId ?? null,
            entry.noteMayExist ? 1 : 0,
            progressOf(entry),
            maxWaiting,
            storeId,
          ],
        },
        {
          // Counted once it is kept: not a lead refused at the cap, nor one sent twice.
          sql: `INSERT INTO lead_facts (submission_id, received_at, facts)
              SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS JSONB)
              WHERE EXISTS (SELECT 1 FROM leads WHERE submission_id = ?)
              ON CONFLICT (submission_id) DO NOTHING`,
          params: [
            entry.submissionId,
            entry.receivedAt,
            JSON.stringify(factsOf(entry.lead, entry.receivedAt)),
            entry.submissionId,
          ],
        },
        { sql: 'SELECT state FROM leads WHERE submission_id = ?', params: [entry.submissionId] },
        { sql: 'SELECT store_id FROM lead_store WHERE id = 1' },
      ],
      // Acknowledged only if the files still are the store's once it is committed.
      { after: true },
    );
    if (held?.rows[0]?.store_id !== storeId) {
      this.harmed = new StoreHarmedError(
        'store-missing',
        `The lead store ${this.where} no longer holds store ${storeId}: it was replaced while the server ran. Restore the last backup (docs/leads.md), or start an empty store with claimsite leads store --init, and start the server again.`,
      );
      throw this.harmed;
    }
    if (inserted?.changes) return 'added';
    const state = found?.rows[0]?.state as LeadStatus | undefined;
    return state ?? 'full';
  }

  async keep(entry: WaitingLead): Promise<void> {
    await this.batch([
      {
        sql: `UPDATE leads SET attempts = ?, next_attempt_at = ?, reason = ?,
                contact_id = COALESCE(?, contact_id), note_may_exist = ?, progress = ?
              WHERE submission_id = ? AND state = 'waiting'`,
        params: [
          entry.attempts,
          entry.nextAttemptAt,
          entry.reason,
          entry.contactId ?? null,
          entry.noteMayExist ? 1 : 0,
          progressOf(entry),
          entry.submissionId,
        ],
      },
    ]);
  }

  async waiting(
    options: { limit?: number; after?: WaitingCursor; dueBy?: string } = {},
  ): Promise<WaitingLead[]> {
    const rows = await this.page('waiting', 'received_at', {
      after: options.after && [options.after.receivedAt, options.after.submissionId],
      bound: options.dueBy === undefined ? undefined : ['next_attempt_at <= ?', options.dueBy],
      limit: options.limit,
    });
    return rows.map(waitingOf).filter((e): e is WaitingLead => e !== null);
  }

  async counts(): Promise<{ waiting: number; dead: number }> {
    const { rows } = await this.query(
      "SELECT state, n FROM lead_counts WHERE state <> 'delivered'",
    );
    const n = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
    return { waiting: n('waiting'), dead: n('dead') };
  }

  async status(submissionId: string): Promise<LeadStatus | null> {
    const { rows } = await this.query('SELECT state FROM leads WHERE submission_id = ?', [
      submissionId,
    ]);
    return (rows[0]?.state as LeadStatus | undefined) ?? null;
  }

  async delivered(submissionId: string, contactId: string): Promise<void> {
    const now = new Date().toISOString();
    await this.batch([
      {
        sql: `INSERT INTO leads (submission_id, state, received_at, contact_id, done_at)
              VALUES (?, 'delivered', ?, ?, ?)
              ON CONFLICT (submission_id) DO UPDATE SET state = 'delivered', lead = NULL,
                email = NULL, phone = NULL, reason = NULL, next_attempt_at = NULL,
                note_may_exist = 0, progress = NULL, contact_id = excluded.contact_id, done_at = excluded.done_at`,
        params: [submissionId, now, contactId, now],
      },
    ]);
    this.unerased = true;
  }

  async bury(entry: WaitingLead, reason: string): Promise<void> {
    await this.batch([
      {
        sql: `UPDATE leads SET state = 'dead', reason = ?, contact_id = COALESCE(?, contact_id),
                attempts = ?, next_attempt_at = NULL, done_at = ?
              WHERE submission_id = ? AND state = 'waiting'`,
        params: [
          reason,
          entry.contactId ?? null,
          entry.attempts,
          new Date().toISOString(),
          entry.submissionId,
        ],
      },
    ]);
  }

  async dead(
    options: { limit?: number; after?: DeadCursor; diedBefore?: string } = {},
  ): Promise<DeadLetter[]> {
    const rows = await this.page('dead', 'done_at', {
      after: options.after && [options.after.deadAt, options.after.submissionId],
      bound: options.diedBefore === undefined ? undefined : ['done_at < ?', options.diedBefore],
      limit: options.limit,
    });
    return rows.map(deadOf).filter((e): e is DeadLetter => e !== null);
  }

  /**
   * One page of the leads in a state, in the order of `column` then submission id, from a cursor
   * on: a row value, so that both engines read the index from there on (an OR of the two made
   * SQLite read it from its start on every page).
   */
  private async page(
    state: 'waiting' | 'dead',
    column: 'received_at' | 'done_at',
    options: { after?: [string, string]; bound?: [string, string]; limit?: number },
  ) {
    const where = [`state = '${state}'`];
    const params: unknown[] = [];
    if (options.after) {
      where.push(`(${column}, submission_id) > (?, ?)`);
      params.push(...options.after);
    }
    if (options.bound) {
      where.push(options.bound[0]);
      params.push(options.bound[1]);
    }
    const limit =
      options.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(options.limit))}`;
    const { rows } = await this.query(
      `SELECT ${LEAD_COLUMNS} FROM leads WHERE ${where.join(' AND ')}
       ORDER BY ${column}, submission_id${limit}`,
      params,
    );
    return rows;
  }

  async deadCount(diedBefore: string): Promise<number> {
    const { rows } = await this.query(
      "SELECT COUNT(*) AS n FROM leads WHERE state = 'dead' AND done_at < ?",
      [diedBefore],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async drop(submissionId: string): Promise<boolean> {
    const [r] = await this.batch([
      {
        sql: "DELETE FROM leads WHERE submission_id = ? AND state IN ('waiting', 'dead')",
        params: [submissionId],
      },
    ]);
    if (!r?.changes) return false;
    await this.erase();
    return true;
  }

  async find(query: PersonQuery & { submissionId?: string }): Promise<HeldRecord[]> {
    const keys = personKeys(query);
    const { rows } = await this.query(
      `SELECT ${LEAD_COLUMNS} FROM leads WHERE state IN ('waiting', 'dead')
       AND (email = ? OR phone = ? OR submission_id = ?) ORDER BY received_at, submission_id`,
      [keys.email, keys.phone, query.submissionId ?? null],
    );
    return rows.flatMap((row): HeldRecord[] => {
      if (row.state === 'dead') {
        const entry = deadOf(row);
        return entry ? [{ kind: 'dead', entry }] : [];
      }
      const entry = waitingOf(row);
      return entry ? [{ kind: 'waiting', entry }] : [];
    });
  }

  async forget(person: PersonQuery): Promise<number> {
    const keys = personKeys(person);
    if (!keys.email && !keys.phone) return 0;
    const [r] = await this.batch([
      {
        sql: `DELETE FROM leads WHERE state IN ('waiting', 'dead') AND (email = ? OR phone = ?)`,
        params: [keys.email, keys.phone],
      },
    ]);
    await this.erase();
    return r?.changes ?? 0;
  }

  async counted(since?: string): Promise<CountedLead[]> {
    const { rows } = await this.query(
      `SELECT f.submission_id, f.facts, l.state FROM lead_facts f
       LEFT JOIN leads l ON l.submission_id = f.submission_id
       WHERE f.received_at >= ? ORDER BY f.received_at, f.submission_id`,
      [since ?? ''],
    );
    return rows.flatMap((row) => {
      const facts = (
        typeof row.facts === 'string' ? JSON.parse(row.facts) : row.facts
      ) as LeadFacts;
      const status = (row.state as FactStatus | null) ?? 'dropped';
      return facts ? [{ ...facts, submissionId: String(row.submission_id), status }] : [];
    });
  }

  /**
   * Erases what deletions left in the database's files; false when another process kept it
   * from finishing (the bytes go at the next checkpoint).
   */
  async erase(): Promise<boolean> {
    this.unerased = false;
    const erased = await (await this.db()).erase();
    if (!erased) this.unerased = true;
    return erased;
  }

  /**
   * Deletes the dead letters past their time; then erases what this and this process's
   * deliveries since the last pass left in the files (a drain calls it on every pass).
   */
  async expire(before: string): Promise<number> {
    // A page at a time, the server answering between two: a transaction apiece.
    let gone = 0;
    for (;;) {
      const [r] = await this.batch([
        {
          sql: `DELETE FROM leads WHERE submission_id IN (SELECT submission_id FROM leads
                WHERE state = 'dead' AND done_at < ? ORDER BY done_at LIMIT ${PAGE_SIZE})`,
          params: [before],
        },
      ]);
      gone += r?.changes ?? 0;
      if ((r?.changes ?? 0) < PAGE_SIZE) break;
      await yieldToRequests();
    }
    if (gone || this.unerased) await this.erase();
    return gone;
  }

  async exclusive<T>(fn: () => Promise<T>, options: { wait: boolean }): Promise<T | null> {
    const holder = randomUUID();
    const me = holderOf();
    const take = async () => {
      const now = Date.now();
      const [r] = await this.batch([
        {
          sql: `UPDATE lead_drain SET holder = ?, expires_at = ?, host = ?, pid = ?
                WHERE id = 1 AND (holder IS NULL OR expires_at < ?)`,
          params: [holder, now + LEASE_MS, me.host, me.pid, now],
        },
      ]);
      return Boolean(r?.changes) || (await this.takeFromTheDead(holder, me));
    };
    const until = Date.now() + (options.wait ? 10 * 60_000 : 0);
    while (!(await take())) {
      if (Date.now() >= until) return null;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 100));
    }
    const renew = setInterval(() => {
      this.batch([
        {
          sql: 'UPDATE lead_drain SET expires_at = ? WHERE id = 1 AND holder = ?',
          params: [Date.now() + LEASE_MS, holder],
        },
      ]).catch(() => {});
    }, LEASE_MS / 3);
    renew.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await this.batch([
        {
          sql: 'UPDATE lead_drain SET holder = NULL, expires_at = 0 WHERE id = 1 AND holder = ?',
          params: [holder],
        },
      ]).catch(() => {});
    }
  }

  /**
   * Takes the lease over from a holder this process can tell is dead (a kill -9 on this host):
   * at once, rather than once its lease runs out. Only the holder seen is replaced, so of two
   * processes taking it over at once, one gets it.
   */
  private async takeFromTheDead(holder: string, me: LeaseHolder): Promise<boolean> {
    const { rows } = await this.query('SELECT holder, host, pid FROM lead_drain WHERE id = 1');
    const held = rows[0];
    if (!held?.holder || !isGone({ host: String(held.host ?? ''), pid: Number(held.pid ?? 0) }))
      return false;
    const [r] = await this.batch([
      {
        sql: `UPDATE lead_drain SET holder = ?, expires_at = ?, host = ?, pid = ?
              WHERE id = 1 AND holder = ?`,
        params: [holder, Date.now() + LEASE_MS, me.host, me.pid, held.holder],
      },
    ]);
    return Boolean(r?.changes);
  }

  async claimAlert(condition: string, everyMs: number): Promise<AlertClaim | null> {
    // Not through batch(): an alert that a store is harmed is claimed in it all the same (the
    // processes still using its files share the time), and where that fails the caller keeps
    // to a guard of its own.
    const db = await this.db();
    const at = new Date().toISOString();
    const [before, taken] = await db.batch([
      { sql: 'SELECT at FROM lead_alerts WHERE condition = ?', params: [condition] },
      {
        sql: `INSERT INTO lead_alerts (condition, at) VALUES (?, ?)
              ON CONFLICT (condition) DO UPDATE SET at = excluded.at WHERE lead_alerts.at < ?`,
        params: [condition, at, new Date(Date.parse(at) - everyMs).toISOString()],
      },
    ]);
    if (!taken?.changes) return null;
    const previous = before?.rows[0]?.at;
    return { condition, at, previous: previous ? String(previous) : null };
  }

  async releaseAlert(claim: AlertClaim): Promise<void> {
    const db = await this.db();
    await db.batch([
      claim.previous
        ? {
            sql: 'UPDATE lead_alerts SET at = ? WHERE condition = ? AND at = ?',
            params: [claim.previous, claim.condition, claim.at],
          }
        : {
            sql: 'DELETE FROM lead_alerts WHERE condition = ? AND at = ?',
            params: [claim.condition, claim.at],
          },
    ]);
  }

  async alertState(): Promise<AlertState> {
    const { rows } = await this.query('SELECT condition, at FROM lead_alerts');
    return Object.fromEntries(rows.map((r) => [String(r.condition), String(r.at)]));
  }

  async saveAlertState(state: AlertState): Promise<void> {
    await this.batch(
      Object.entries(state).map(([condition, at]) => ({
        sql: `INSERT INTO lead_alerts (condition, at) VALUES (?, ?)
              ON CONFLICT (condition) DO UPDATE SET at = excluded.at`,
        params: [condition, at],
      })),
    );
  }

  /**
   * Whether a lead can be kept now: the files are the store's (with SQLite's quick check) and a
   * write as large as the largest lead succeeds.
   */
  async check(): Promise<void> {
    await this.verify(await this.db(), true);
    await this.batch([
      {
        sql: `INSERT INTO lead_probe (id, data, at) VALUES (1, ?, ?)
              ON CONFLICT (id) DO UPDATE SET data = excluded.data, at = excluded.at`,
        params: [randomBytes(MAX_BODY_BYTES), new Date().toISOString()],
      },
    ]);
  }

  /** The store's id, once its files are found sound (SQLite's quick check included). */
  async identity(): Promise<string> {
    const db = await this.db();
    await this.verify(db, true);
    return db.storeId;
  }

  /** The engine the store runs on, once it is open. */
  async engine(): Promise<SqlDatabase['engine']> {
    return (await this.db()).engine;
  }

  /** Copies the store, while in use, to a new file (SQLite); refused for a server's store. */
  async backup(file: string): Promise<void> {
    const db = await this.db();
    if (!db.backup) throw new Error(`${this.where} is backed up with its server's own tools`);
    await this.verify(db, true);
    await db.backup(file);
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = null;
    if (opening) await (await opening.catch(() => null))?.close();
  }

  /**
   * Adds leads kept elsewhere before (an older version's outbox): each one once, whatever is
   * there already, all in one transaction.
   */
  async importLeads(records: ImportedLeads): Promise<number> {
    const rows = importRows(records);
    if (rows.length === 0) return 0;
    // Many rows a statement: one round trip to a server for each few hundred leads.
    const statements: Statement[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      statements.push({
        sql: `INSERT INTO leads (submission_id, state, received_at, lead, email, phone, attempts,
                next_attempt_at, reason, contact_id, note_may_exist, done_at)
              VALUES ${chunk.map(() => '(?, ?, ?, CAST(? AS JSONB), ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
              ON CONFLICT (submission_id) DO NOTHING`,
        params: chunk.flat(),
      });
    }
    const results = await this.batch(statements);
    return results.reduce((n, r) => n + r.changes, 0);
  }
}

/** Leads kept elsewhere before, by state (see importLeads). */
interface ImportedLeads {
  waiting: WaitingLead[];
  dead: DeadLetter[];
  delivered: Array<{ submissionId: string; contactId: string; at: string }>;
}

/** Each imported lead as a row of the leads table, its columns in importLeads' order. */
function importRows(records: ImportedLeads): unknown[][] {
  const rows: unknown[][] = [];
  for (const d of records.delivered)
    rows.push([
      d.submissionId,
      'delivered',
      d.at,
      null,
      null,
      null,
      0,
      null,
      null,
      d.contactId,
      0,
      d.at,
    ]);
  for (const d of records.dead) {
    const keys = personKeys(d.lead);
    rows.push([
      d.submissionId,
      'dead',
      d.receivedAt,
      JSON.stringify(d.lead),
      keys.email,
      keys.phone,
      0,
      null,
      d.reason,
      d.contactId ?? null,
      0,
      d.deadAt,
    ]);
  }
  for (const w of records.waiting) {
    const keys = personKeys(w.lead);
    rows.push([
      w.submissionId,
      'waiting',
      w.receivedAt,
      JSON.stringify(w.lead),
      keys.email,
      keys.phone,
      w.attempts,
      w.nextAttemptAt,
      w.reason,
      w.contactId ?? null,
      w.noteMayExist ? 1 : 0,
      null,
    ]);
  }
  return rows;
}

/** A row's lead: SQLite gives JSON text, PostgreSQL the object. A row that is not one is skipped. */
function leadOf(row: Record<string, unknown>): Lead | null {
  let lead: unknown = row.lead;
  if (typeof lead === 'string') {
    try {
      lead = JSON.parse(lead);
    } catch {
      return null;
    }
  }
  return typeof lead === 'object' && lead !== null && 'form' in lead ? (lead as Lead) : null;
}

function waitingOf(row: Record<string, unknown>): WaitingLead | null {
  const lead = leadOf(row);
  if (!lead) return null;
  return {
    submissionId: String(row.submission_id),
    receivedAt: String(row.received_at),
    lead,
    attempts: Number(row.attempts ?? 0),
    nextAttemptAt: String(row.next_attempt_at ?? row.received_at),
    reason: String(row.reason ?? ''),
    ...(row.contact_id ? { contactId: String(row.contact_id) } : {}),
    ...(Number(row.note_may_exist) ? { noteMayExist: true } : {}),
    ...stepsOf(row.progress),
  };
}

/** An entry's later steps as the `progress` column keeps them; null when there are none. */
function progressOf(entry: WaitingLead): string | null {
  const steps = laterSteps(entry);
  return steps ? JSON.stringify(steps) : null;
}

function stepsOf(value: unknown): ReturnType<typeof laterSteps> {
  if (typeof value !== 'string') return null;
  try {
    return laterSteps(JSON.parse(value));
  } catch {
    return null;
  }
}

function deadOf(row: Record<string, unknown>): DeadLetter | null {
  const lead = leadOf(row);
  if (!lead) return null;
  return {
    submissionId: String(row.submission_id),
    receivedAt: String(row.received_at),
    deadAt: String(row.done_at ?? row.received_at),
    reason: String(row.reason ?? ''),
    lead,
    ...(row.contact_id ? { contactId: String(row.contact_id) } : {}),
  };
}
