import path from 'node:path';
import type { LeadConfig } from './config.js';
import type { LeadHandlerOptions } from './handler.js';
import { importLegacyOutbox } from './legacy-outbox.js';
import { jsonLog, type Log } from './log.js';
import { SqlLeadStore } from './sql-store.js';
import type { LeadStore } from './store.js';

/**
 * The Node host's store, as configured: PostgreSQL when LEAD_STORE_URL names a server (several
 * instances share it), else SQLite in the file LEAD_OUTBOX_PATH names. A LEAD_OUTBOX_PATH of an
 * older version (its `leads.jsonl`) puts the database beside it, and that outbox is imported
 * when the database is first opened. With `init` (`claimsite leads store --init`), a SQLite
 * store refused as missing or replaced is started afresh, or the database found is adopted.
 */
export function openLeadStore(
  config: Pick<LeadConfig, 'storeUrl' | 'outboxPath'>,
  log: Log,
  options: { init?: boolean } = {},
): SqlLeadStore {
  if (config.storeUrl) {
    const url = config.storeUrl;
    // Each engine's driver loads only when its store opens: the other commands never pay for it.
    return new SqlLeadStore(async () => {
      const { openPostgres } = await import('./postgres-db.js');
      return openPostgres(url, (err) => log('lead store connection lost', { error: err.message }));
    }, shownUrl(url));
  }
  const { database, legacy } = sqliteFiles(config.outboxPath);
  const store = new SqlLeadStore(async () => {
    const { openSqlite } = await import('./sqlite-db.js');
    return openSqlite(database, options);
  }, database);
  store.onOpen = async (opened) => {
    await importLegacyOutbox(opened, legacy, log);
  };
  return store;
}

/**
 * A Node host's lead service options with its store: the one given, else the configured one
 * (`createLeadService(withConfiguredStore({ config }))`).
 */
export function withConfiguredStore(
  options: Omit<LeadHandlerOptions, 'store'> & { store?: LeadStore },
): LeadHandlerOptions {
  return {
    ...options,
    store: options.store ?? openLeadStore(options.config, options.log ?? jsonLog),
  };
}

/** The SQLite database a LEAD_OUTBOX_PATH names, and where an older version's outbox would be. */
export function sqliteFiles(outboxPath: string): { database: string; legacy: string } {
  if (outboxPath.endsWith('.jsonl'))
    return { database: path.join(path.dirname(outboxPath), 'leads.db'), legacy: outboxPath };
  return { database: outboxPath, legacy: path.join(path.dirname(outboxPath), 'leads.jsonl') };
}

/** A server's URL without its password, for people and logs. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'the database at LEAD_STORE_URL';
  }
}

export type { LeadStore };
