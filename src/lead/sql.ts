/**
 * What the lead store needs of a SQL database, so that one store (sql-store.ts) runs on SQLite
 * and on PostgreSQL. Statements are written once, with `?` placeholders and PostgreSQL's type
 * names in casts (JSONB, BYTEA); each engine's adapter turns them into its own.
 */
export interface Statement {
  sql: string;
  params?: unknown[];
}

export interface Result {
  rows: Record<string, unknown>[];
  /** Rows inserted, updated or deleted. */
  changes: number;
}

export interface SqlDatabase {
  readonly engine: 'sqlite' | 'postgres';
  /** Runs the statements in one transaction, in order: all of them are committed, or none. */
  batch(statements: Statement[]): Promise<Result[]>;
  /** One statement on its own. */
  query(sql: string, params?: unknown[]): Promise<Result>;
  /**
   * Erases what deleted rows left behind in the engine's files (SQLite's write-ahead log);
   * false when another process kept it from finishing now.
   */
  erase(): Promise<boolean>;
  /** The store's id (table lead_store), as it was when the database was opened. */
  readonly storeId: string;
  /**
   * Throws a StoreHarmedError when the database is no longer the one opened: cheap enough for
   * every write (SQLite: the files' identity, size and headers); `deep` adds what a health check
   * can afford (SQLite's quick_check, and the store id read again).
   */
  verify(deep: boolean): Promise<void>;
  /** Copies the database, while it is in use, to a new file (SQLite only). */
  backup?(file: string): Promise<void>;
  close(): Promise<void>;
}

/** The store's id, made once when its tables are made; what its id file beside it repeats. */
const STORE_ID_TABLE = `CREATE TABLE IF NOT EXISTS lead_store (
  id INTEGER PRIMARY KEY CHECK (id = 1), store_id TEXT NOT NULL, created_at TEXT NOT NULL)`;

/** Gives a store made now its id; one made before keeps its own. */
export const storeIdInsert = (id: string): Statement => ({
  sql: `INSERT INTO lead_store (id, store_id, created_at) VALUES (1, ?, ?)
        ON CONFLICT (id) DO NOTHING`,
  params: [id, new Date().toISOString()],
});

/** The tables, the same in both engines but for the types each names in `types`. */
export function schema(types: {
  json: string;
  blob: string;
  counter: string;
  /** SQL that is true when a JSON column holds an object. */
  isObject: (column: string) => string;
}): string[] {
  return [
    // One row a submission, whatever became of it. Its personal data (the lead, and the e-mail
    // and phone keys it is found by) is there only while it waits or is a dead letter: a
    // delivered row keeps its id, contact id and times, for de-duplication.
    `CREATE TABLE IF NOT EXISTS leads (
      submission_id TEXT PRIMARY KEY,
      state TEXT NOT NULL CHECK (state IN ('waiting', 'dead', 'delivered')),
      received_at TEXT NOT NULL,
      lead ${types.json},
      email TEXT,
      phone TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT,
      reason TEXT,
      contact_id TEXT,
      note_may_exist INTEGER NOT NULL DEFAULT 0,
      done_at TEXT,
      progress TEXT,
      CHECK ((state = 'delivered') = (lead IS NULL)),
      CHECK (lead IS NULL OR ${types.isObject('lead')}),
      CHECK (state <> 'delivered' OR (email IS NULL AND phone IS NULL))
    )`,
    'CREATE INDEX IF NOT EXISTS leads_by_state ON leads (state, received_at, submission_id)',
    // The dead letters by the time they died: read a page at a time, and expired, by it.
    'CREATE INDEX IF NOT EXISTS leads_by_death ON leads (state, done_at, submission_id)',
    'CREATE INDEX IF NOT EXISTS leads_by_email ON leads (email) WHERE email IS NOT NULL',
    'CREATE INDEX IF NOT EXISTS leads_by_phone ON leads (phone) WHERE phone IS NOT NULL',
    // How many rows are in each state, kept by triggers: health and the cap read one row
    // rather than count an index.
    `CREATE TABLE IF NOT EXISTS lead_counts (state TEXT PRIMARY KEY, n ${types.counter} NOT NULL)`,
    `INSERT INTO lead_counts (state, n) VALUES ('waiting', 0), ('dead', 0), ('delivered', 0)
      ON CONFLICT (state) DO NOTHING`,
    'CREATE TABLE IF NOT EXISTS lead_alerts (condition TEXT PRIMARY KEY, at TEXT NOT NULL)',
    // The one drain's lease: its holder renews it while it runs; a dead holder's runs out.
    `CREATE TABLE IF NOT EXISTS lead_drain (
      id INTEGER PRIMARY KEY CHECK (id = 1), holder TEXT, expires_at BIGINT NOT NULL)`,
    `INSERT INTO lead_drain (id, holder, expires_at) VALUES (1, NULL, 0)
      ON CONFLICT (id) DO NOTHING`,
    // What is counted of each accepted lead, nothing personal (src/lead/report.ts): kept after
    // its lead is delivered, refused or forgotten, for `claimsite leads report`.
    `CREATE TABLE IF NOT EXISTS lead_facts (
      submission_id TEXT PRIMARY KEY,
      received_at TEXT NOT NULL,
      facts ${types.json} NOT NULL
    )`,
    'CREATE INDEX IF NOT EXISTS lead_facts_by_time ON lead_facts (received_at)',
    STORE_ID_TABLE,
    // What the health check writes: as much as the largest lead.
    `CREATE TABLE IF NOT EXISTS lead_probe (id INTEGER PRIMARY KEY, data ${types.blob}, at TEXT)`,
  ];
}

/** The columns a store reads back. */
export const LEAD_COLUMNS =
  'submission_id, state, received_at, lead, attempts, next_attempt_at, reason, contact_id, note_may_exist, done_at, progress';

/**
 * Columns added since the table was first made: each engine adds the ones an older database
 * lacks when it opens it (`progress`: what a delivery achieved besides the contact and note, as
 * JSON: fields the CRM refused, the opportunity's id, the workflow enrolment; `host` and `pid`:
 * the drain lease's holder).
 */
export const ADDED_COLUMNS = [
  { table: 'leads', column: 'progress', type: 'TEXT' },
  // Which process holds the drain's lease, so that one that died is known to have (sql-store.ts).
  { table: 'lead_drain', column: 'host', type: 'TEXT' },
  { table: 'lead_drain', column: 'pid', type: 'INTEGER' },
] as const;
