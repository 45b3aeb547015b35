import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import {
  ADDED_COLUMNS,
  type Result,
  type SqlDatabase,
  type Statement,
  schema,
  storeIdInsert,
} from './sql.js';
import {
  adoptId,
  deepCheck,
  refuseEmpty,
  SqliteFileWatch,
  setAsideLeftovers,
} from './sqlite-files.js';
import { StoreHarmedError } from './store.js';

/** How long a write waits for another process's transaction to end before it gives up. */
const BUSY_MS = 5000;

/**
 * SQLite through libsql (its binary ships as an npm package: nothing compiles or downloads at
 * install), one connection, every statement synchronous: a transaction runs whole before
 * anything else in this process can touch the database, so the process never contends with
 * itself, and other processes are kept out by SQLite's own locks (a writer waits up to
 * BUSY_MS for another's transaction). In WAL mode readers never wait for the writer; with
 * synchronous=FULL a transaction is on the disk when COMMIT returns; with secure_delete, what
 * is deleted is overwritten with zeros. The store knows its files (sqlite-files.ts): a database
 * missing or empty where its id file says a store was is refused, unless `init` (an operator's
 * `claimsite leads store --init`) says to start a new one there.
 */
export function openSqlite(file: string, options: { init?: boolean } = {}): SqlDatabase {
  const db = openFile(file, options);
  let storeId: string;
  let watch: SqliteFileWatch;
  try {
    storeId = String(
      (db.prepare('SELECT store_id FROM lead_store WHERE id = 1').get() as { store_id: string })
        .store_id,
    );
    adoptId(file, storeId, Boolean(options.init));
    watch = new SqliteFileWatch(file);
  } catch (err) {
    db.close();
    throw err;
  }

  return sqliteDatabase(db, file, storeId, watch);
}

/** The database file, made where there is none, in WAL mode with the store's tables. */
function openFile(file: string, options: { init?: boolean }): Database.Database {
  if (options.init) setAsideLeftovers(file);
  else refuseEmpty(file);
  // Leads are personal data: a folder made here is its owner's alone, and so is the database
  // (SQLite gives its -wal and -shm files the database file's own mode). Only a file that is not
  // there yet is touched: closing any descriptor of a database this process has open would
  // drop SQLite's locks on it, and another process could then take itself for the last user.
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const db = new Database(file, { timeout: BUSY_MS });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('secure_delete = ON');
    // The log is cut back to this after a checkpoint, rather than keeping its largest size.
    db.pragma('journal_size_limit = 4194304');
    transaction(db, [
      ...[...schema(SQLITE_TYPES), ...COUNT_TRIGGERS].map((sql) => ({ sql })),
      storeIdInsert(randomUUID()),
    ]);
    addColumns(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** The store's database over its one connection (see openSqlite). */
function sqliteDatabase(
  db: Database.Database,
  file: string,
  storeId: string,
  watch: SqliteFileWatch,
): SqlDatabase {
  const deep_ = new DeepChecks(file, storeId);
  return {
    engine: 'sqlite',
    storeId,
    async verify(deep) {
      try {
        watch.check();
      } catch (err) {
        if (watch.logLost) rescueLog(db);
        throw err;
      }
      if (deep) await deep_.check();
    },
    async backup(target) {
      // A new file of its owner's alone (a copy of personal data), never one that is there:
      // SQLite writes into an empty file, and refuses one with anything in it.
      closeSync(openSync(target, 'wx', 0o600));
      try {
        db.prepare('VACUUM INTO ?').run(target);
      } catch (err) {
        // What was begun of the copy is this command's own, and no backup.
        rmSync(target, { force: true });
        throw err;
      }
    },
    async batch(statements) {
      return transaction(db, statements);
    },
    async query(sql, params = []) {
      return run(db, { sql, params });
    },
    async erase() {
      // Deleted rows are zeros in the database file already (secure_delete); the log still holds
      // the pages as they were until a checkpoint copies it back and truncates it. Another
      // process reading at this moment keeps it from finishing; it is not waited for long.
      db.pragma('busy_timeout = 200');
      try {
        const r = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
        return r.busy === 0;
      } catch {
        return false;
      } finally {
        db.pragma(`busy_timeout = ${BUSY_MS}`);
      }
    },
    async close() {
      if (!db.open) return;
      try {
        db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
      } catch {
        // Another process is using it: the log stays for it, and is checkpointed later.
      }
      db.close();
      watch.close();
    },
  };
}

/**
 * The log was removed under the store: SQLite still reads it through the descriptor it holds,
 * and a checkpoint copies what it holds (the latest leads, acknowledged) into the database,
 * which is still there. Without it they would go with the process. Once is enough; it is tried
 * on each check that finds the log lost, and a failure leaves things as they were.
 */
function rescueLog(db: Database.Database): void {
  try {
    db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').all();
  } catch {
    // Another process holds the database, or the disk fails: nothing more can be done here.
  }
}

/**
 * The full check (deepCheck: quick_check on a thread), one at a time, and at most once every
 * hundred times as long as the last took, 10 s at the least: a health check in between gets the
 * last one's verdict, and a damaged database stays damaged.
 */
class DeepChecks {
  private running: Promise<void> | null = null;
  private nextAt = 0;
  private failure: unknown = null;

  constructor(
    private readonly file: string,
    private readonly storeId: string,
  ) {}

  async check(): Promise<void> {
    if (!this.running && Date.now() >= this.nextAt) {
      const started = Date.now();
      this.running = deepCheck(this.file, this.storeId)
        .then(
          () => {
            this.failure = null;
          },
          (err) => {
            // Busy, or the thread could not start: not judged now.
            this.failure = err instanceof StoreHarmedError ? err : null;
          },
        )
        .finally(() => {
          this.nextAt = Date.now() + Math.max(10_000, 100 * (Date.now() - started));
          this.running = null;
        });
    }
    if (this.running) await this.running;
    if (this.failure) throw this.failure;
  }
}

const SQLITE_TYPES = {
  json: 'TEXT',
  blob: 'BLOB',
  counter: 'INTEGER',
  isObject: (column: string) => `json_type(${column}) = 'object'`,
};

/** The counters of lead_counts, kept by the database itself on every change of a lead's state. */
const COUNT_TRIGGERS = [
  `CREATE TRIGGER IF NOT EXISTS leads_counted_in AFTER INSERT ON leads BEGIN
     UPDATE lead_counts SET n = n + 1 WHERE state = NEW.state; END`,
  `CREATE TRIGGER IF NOT EXISTS leads_counted_out AFTER DELETE ON leads BEGIN
     UPDATE lead_counts SET n = n - 1 WHERE state = OLD.state; END`,
  `CREATE TRIGGER IF NOT EXISTS leads_counted_moved AFTER UPDATE OF state ON leads
     WHEN OLD.state <> NEW.state BEGIN
     UPDATE lead_counts SET n = n - 1 WHERE state = OLD.state;
     UPDATE lead_counts SET n = n + 1 WHERE state = NEW.state; END`,
];

/**
 * Adds the columns a database made by an older version lacks. SQLite has no ADD COLUMN IF NOT
 * EXISTS: the check and the change are one transaction, so two processes opening it at once do
 * not both add it.
 */
function addColumns(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const { table, column, type } of ADDED_COLUMNS) {
      const columns = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
      if (!columns.some((c) => c.name === column))
        db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
    }
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

function transaction(db: Database.Database, statements: Statement[]): Result[] {
  // IMMEDIATE takes the write lock at the start, so a transaction never fails halfway for a
  // lock another process took after it had read.
  db.exec('BEGIN IMMEDIATE');
  try {
    const results = statements.map((s) => run(db, s));
    db.exec('COMMIT');
    return results;
  } catch (err) {
    // SQLite rolls back by itself after some errors (a full disk): then there is nothing to undo.
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

function run(db: Database.Database, { sql, params = [] }: Statement): Result {
  const stmt = db.prepare(toSqlite(sql));
  const args = params.map((p) => (typeof p === 'boolean' ? Number(p) : (p ?? null)));
  if (stmt.reader) {
    const rows = (stmt.all(...args) as Record<string, unknown>[]).map(withoutMetadata);
    return { rows, changes: 0 };
  }
  return { rows: [], changes: stmt.run(...args).changes };
}

/** PostgreSQL's type names in casts, as SQLite's. */
function toSqlite(sql: string): string {
  return sql.replace(/\bJSONB\b/g, 'TEXT').replace(/\bBYTEA\b/g, 'BLOB');
}

/** libsql adds timing metadata to each row it returns. */
function withoutMetadata(row: Record<string, unknown>): Record<string, unknown> {
  const { _metadata: _, ...rest } = row;
  return rest;
}
