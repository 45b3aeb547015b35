import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { configFromEnv, DEFAULT_OUTBOX_PATH } from '../lead/config.js';
import { jsonLog } from '../lead/log.js';
import { openLeadStore, sqliteFiles } from '../lead/open-store.js';
import type { SqlLeadStore } from '../lead/sql-store.js';
import { idFileOf, readIdFile, setAsideLeftovers } from '../lead/sqlite-files.js';
import { type CommandContext, parsePath } from './context.js';

const outboxOption = () =>
  new Option('--outbox <file>', 'the SQLite database of leads (unless LEAD_STORE_URL is set)')
    .argParser(parsePath)
    .env('LEAD_OUTBOX_PATH')
    .default(DEFAULT_OUTBOX_PATH);

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

async function withStore<T>(
  outbox: string,
  options: { init?: boolean },
  fn: (store: SqlLeadStore) => Promise<T>,
): Promise<T> {
  const store = openLeadStore(
    { outboxPath: outbox, storeUrl: configFromEnv().storeUrl },
    jsonLog,
    options,
  );
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/**
 * `claimsite leads store [--init]`: which store the settings name and whether its files are
 * sound; with --init, a new empty store where the one named is missing, or the database found
 * there adopted (after a restore from another store's backup). `claimsite leads backup <file>`:
 * a copy of a SQLite store made while it is in use (pg_dump's advice for PostgreSQL).
 */
export function registerLeadsStore(
  leads: Command,
  { io, setExitCode }: Pick<CommandContext, 'io' | 'setExitCode'>,
) {
  leads
    .command('store')
    .description(
      "check the lead store's files; with --init, start a new store where one is missing (or adopt a restored one)",
    )
    .addOption(outboxOption())
    .option(
      '--init',
      'start an empty store where the database is missing or empty, or adopt the database there',
    )
    .action(async (opts: { outbox: string; init?: boolean }) => {
      const server = Boolean(configFromEnv().storeUrl);
      const database = server ? '' : sqliteFiles(opts.outbox).database;
      const before = server ? null : readIdFile(database);
      const empty = !server && (!existsSync(database) || statSync(database).size === 0);
      const moved = opts.init && !server ? setAsideLeftovers(database) : [];
      await withStore(opts.outbox, { init: Boolean(opts.init) }, async (store) => {
        const id = await store.identity();
        const { waiting, dead } = await store.counts();
        const held = `${plural(waiting, 'lead', 'leads')} waiting, ${plural(dead, 'dead letter', 'dead letters')}`;
        for (const f of moved)
          io.out(`Set aside ${f}: left of the store that was, never read into the new one.\n`);
        if (!opts.init || before === id || server) {
          io.out(`${store.where} is lead store ${id} (${held}); its files check out.\n`);
          return;
        }
        io.out(
          `${empty ? `Started an empty lead store ${id} in ${database}` : `${database} (${held}) is lead store ${id} now`}; ${idFileOf(database)} says so. A server that refused the store takes leads at its next request; one that found the store harmed while it ran is to be restarted.\n`,
        );
      });
    });

  leads
    .command('backup')
    .description(
      'copy the lead store to a new file while it is in use (SQLite; pg_dump for PostgreSQL)',
    )
    .argument('<file>', 'the backup to make: a new file, never one that exists')
    .addOption(outboxOption())
    .action(async (file: string, opts: { outbox: string }) => {
      const target = path.resolve(file);
      const url = configFromEnv().storeUrl;
      if (url) {
        io.err(
          `The lead store is a PostgreSQL database: back it up with PostgreSQL's own tool, which copies it while in use:\n  pg_dump --format=custom --file=${file} "$LEAD_STORE_URL"\nand restore it, the servers stopped, with:\n  pg_restore --clean --if-exists --dbname="$LEAD_STORE_URL" ${file}\n(docs/leads.md, "Backing up and restoring the store"). No backup was made.\n`,
        );
        setExitCode(1);
        return;
      }
      if (existsSync(target))
        throw new Error(`${file} exists: a backup never overwrites a file; name a new one`);
      await withStore(opts.outbox, {}, async (store) => {
        await store.backup(target);
        const id = await store.identity();
        const { waiting, dead } = await store.counts();
        io.out(
          `Backed up lead store ${id} (${plural(waiting, 'lead', 'leads')} waiting, ${plural(dead, 'dead letter', 'dead letters')}) from ${store.where} to ${file}. It holds personal data: keep it as safe as the store. To restore it, see docs/leads.md.\n`,
        );
      });
    });
}
