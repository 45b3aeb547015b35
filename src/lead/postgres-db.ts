import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  ADDED_COLUMNS,
  type Result,
  type SqlDatabase,
  type Statement,
  schema,
  storeIdInsert,
} from './sql.js';
import { StoreHarmedError } from './store.js';

/**
 * PostgreSQL (version 14 or newer) through `pg`: the store several Node hosts share behind a
 * load balancer (LEAD_STORE_URL). A small pool; each batch is one transaction on one
 * connection. The tables are made on first use, under an advisory lock, so that instances
 * starting together do not race to make them.
 */
export async function openPostgres(
  url: string,
  onError: (err: Error) => void,
): Promise<SqlDatabase> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 5,
    connectionTimeoutMillis: 5000,
    // A statement stuck behind a lock fails rather than holding a visitor past the 8 s answer.
    statement_timeout: 5000,
  });
  // A connection the server closed while idle (a restart, a failover) is dropped from the pool
  // and reported; without a listener it would end the process.
  pool.on('error', onError);

  const transaction = (statements: Statement[]) => inTransaction(pool, statements);

  let storeId: string;
  try {
    const results = await transaction([
      { sql: "SELECT pg_advisory_xact_lock(hashtext('claimsite lead store schema'))" },
      ...[...schema(POSTGRES_TYPES), ...COUNT_TRIGGER].map((sql) => ({ sql })),
      ...ADDED_COLUMNS.map(({ table, column, type }) => ({
        sql: `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} ${type}`,
      })),
      storeIdInsert(randomUUID()),
      { sql: 'SELECT store_id FROM lead_store WHERE id = 1' },
    ]);
    storeId = String(results.at(-1)?.rows[0]?.store_id);
  } catch (err) {
    await pool.end();
    throw err;
  }

  return {
    engine: 'postgres',
    storeId,
    async verify(deep) {
      // The server keeps its own files; what can be told from here is that the database still
      // holds this store (not one dropped and made again, or another restored over it).
      if (!deep) return;
      const { rows } = await run(pool, { sql: 'SELECT store_id FROM lead_store WHERE id = 1' });
      if (rows[0]?.store_id !== storeId)
        throw new StoreHarmedError(
          'store-missing',
          `The lead store's database no longer holds store ${storeId}: it was replaced while the server ran. Restore it from your last pg_dump (docs/leads.md), or restart the servers to go on with the store it now holds.`,
        );
    },
    batch: transaction,
    async query(sql, params = []) {
      return run(pool, { sql, params });
    },
    async erase() {
      // Deleted rows stay in their pages until a VACUUM makes the space reusable; the server's
      // own write-ahead log and backups are its operator's to keep or let go.
      await pool.query('VACUUM leads');
      return true;
    },
    async close() {
      await pool.end();
    },
  };
}

/** Statements run as one transaction on one connection of the pool. */
async function inTransaction(pool: pg.Pool, statements: Statement[]): Promise<Result[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const results: Result[] = [];
    for (const s of statements) results.push(await run(client, s));
    await client.query('COMMIT');
    return results;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const POSTGRES_TYPES = {
  json: 'JSONB',
  blob: 'BYTEA',
  counter: 'BIGINT',
  isObject: (column: string) => `jsonb_typeof(${column}) = 'object'`,
};

/** The counters of lead_counts, kept by the database on every change of a lead's state. */
const COUNT_TRIGGER = [
  `CREATE OR REPLACE FUNCTION lead_counted() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'UPDATE' AND OLD.state = NEW.state THEN RETURN NULL; END IF;
     IF TG_OP IN ('UPDATE', 'DELETE') THEN
       UPDATE lead_counts SET n = n - 1 WHERE state = OLD.state;
     END IF;
     IF TG_OP IN ('UPDATE', 'INSERT') THEN
       UPDATE lead_counts SET n = n + 1 WHERE state = NEW.state;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE OR REPLACE TRIGGER leads_counted AFTER INSERT OR DELETE OR UPDATE OF state ON leads
     FOR EACH ROW EXECUTE FUNCTION lead_counted()`,
];

async function run(
  client: pg.Pool | pg.PoolClient,
  { sql, params = [] }: Statement,
): Promise<Result> {
  const r = await client.query(toPostgres(sql), params);
  // Counters are BIGINT, which pg gives as strings; the store's numbers are small.
  const rows = (r.rows as Record<string, unknown>[]).map((row) => {
    for (const [k, v] of Object.entries(row)) if (k === 'n') row[k] = Number(v);
    return row;
  });
  return { rows, changes: r.rowCount ?? 0 };
}

/** `?` placeholders as PostgreSQL's numbered ones. */
function toPostgres(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
