import {
  closeSync,
  existsSync,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { StoreHarmedError } from './store.js';

/**
 * What a SQLite lead store knows of its own files, so that it notices when they are harmed
 * under it (an operator's mistake, a cleanup script, a volume remounted). SQLite keeps writing
 * to a database whose file was deleted (the open descriptor keeps the bytes until it closes) and
 * keeps reading pages it has cached: without these checks a store that is gone goes on
 * acknowledging leads that die with the process.
 *
 * - The id file beside the database (`leads.db.id`) repeats the store id kept in the database
 *   (table lead_store): a start that finds no database, an empty one, or another store where the
 *   id file names one refuses to accept leads until an operator restores a backup or runs
 *   `claimsite leads store --init`, rather than start afresh unnoticed.
 * - Every write first checks that the database and its log (-wal) are still the files opened
 *   (device and inode), that the database has not shrunk (SQLite never shrinks it without a
 *   VACUUM, which the store does not run) and that both still begin with SQLite's headers.
 * - A health check adds SQLite's quick_check and reads the store id, on a connection of its own
 *   (whose cache is empty: it reads what is on the disk), on a thread; at most once every
 *   hundred times as long as the last one took (10 s at the least): under 1% of a core.
 */

/** How to bring back a store that is refused, said in every message that refuses it. */
function howToRecover(file: string): string {
  return `Stop the server; then restore the last backup to ${file} (docs/leads.md, "Backing up and restoring the store"), or start an empty store with claimsite leads store --init --outbox ${file}; then start the server again.`;
}

export const idFileOf = (file: string) => `${file}.id`;

/** The store id the file beside the database names; null when there is none. */
export function readIdFile(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(idFileOf(file), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const line = text.split('\n').find((l) => l.trim() && !l.startsWith('#'));
  return line?.trim() ?? null;
}

/**
 * Writes the id file: whole or not at all (a temporary file linked into place). Unless
 * `replace`, one already there is kept, and must name the same store.
 */
function writeIdFile(file: string, id: string, replace = false): void {
  const target = idFileOf(file);
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(
    tmp,
    `# The lead store in ${path.basename(file)} is this one. Keep this file beside it: a start that finds the database missing or empty while this file is here refuses leads until you restore a backup or run claimsite leads store --init (docs/leads.md).\n${id}\n`,
    { mode: 0o600 },
  );
  try {
    if (replace) renameSync(tmp, target);
    else linkSync(tmp, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    if (existsSync(tmp)) unlinkSync(tmp);
  }
}

/** Refuses a database that is missing or empty where the id file says a store was. */
export function refuseEmpty(file: string): void {
  const id = readIdFile(file);
  if (!id) return;
  const size = sizeOf(file);
  if (size !== null && size > 0) return;
  throw new StoreHarmedError(
    'store-missing',
    `The lead store ${file} is ${size === null ? 'missing' : 'empty'}, but ${idFileOf(file)} says store ${id} was there: no lead is accepted into a new, empty store unnoticed. ${howToRecover(file)}`,
  );
}

/**
 * Before `leads store --init` makes a new store where the database is missing or empty: a log
 * (-wal) or index (-shm) left of the one that was would be read into the new database. They are
 * set aside under another name, not deleted (the log may hold leads). Returns what was moved.
 */
export function setAsideLeftovers(file: string): string[] {
  const size = sizeOf(file);
  if (size !== null && size > 0) return [];
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const moved: string[] = [];
  for (const f of [`${file}-wal`, `${file}-shm`]) {
    if (!existsSync(f)) continue;
    renameSync(f, `${f}.set-aside-${stamp}`);
    moved.push(`${f}.set-aside-${stamp}`);
  }
  return moved;
}

/** The store id a database holds, and the id file made or checked against it. */
export function adoptId(file: string, storeId: string, init: boolean): void {
  const known = readIdFile(file);
  if (known === storeId) return;
  if (!known || init) {
    writeIdFile(file, storeId, init);
    return;
  }
  throw new StoreHarmedError(
    'store-missing',
    `The database ${file} is not the lead store ${idFileOf(file)} names (store ${known}; the database is store ${storeId}): it was replaced. ${howToRecover(file)}`,
  );
}

function sizeOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Descriptors this process reads headers through, one a file however many stores use it:
 * closing any descriptor of a database drops every SQLite lock the process holds on it, so one
 * is closed only once no store of this process uses its file.
 */
const shared = new Map<string, { fd: number; refs: number }>();
const keyOf = (s: { dev: number; ino: number }) => `${s.dev}:${s.ino}`;

function openShared(file: string): { key: string; fd: number; dev: number; ino: number } {
  const s = statSync(file);
  const key = keyOf(s);
  let entry = shared.get(key);
  if (!entry) {
    const fd = openSync(file, 'r');
    const f = fstatSync(fd);
    entry = { fd, refs: 0 };
    shared.set(keyOf(f), entry);
    entry.refs++;
    return { key: keyOf(f), fd, dev: f.dev, ino: f.ino };
  }
  entry.refs++;
  return { key, fd: entry.fd, dev: s.dev, ino: s.ino };
}

function closeShared(key: string): void {
  const entry = shared.get(key);
  if (!entry || --entry.refs > 0) return;
  shared.delete(key);
  closeSync(entry.fd);
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const WAL_MAGIC = [0x377f0682, 0x377f0683];

/** The files one open SQLite store watches, from when it opened them. */
export class SqliteFileWatch {
  private readonly db: ReturnType<typeof openShared>;
  private wal: ReturnType<typeof openShared> | null = null;
  private largest: number;
  /** The log was removed or replaced: what it held is still readable through SQLite's own descriptor. */
  logLost = false;

  constructor(private readonly file: string) {
    this.db = openShared(file);
    this.largest = fstatSync(this.db.fd).size;
    if (existsSync(`${file}-wal`)) this.wal = openShared(`${file}-wal`);
  }

  /** Throws a StoreHarmedError when the files are not the ones opened, or not a database. */
  check(): void {
    const { file } = this;
    const now = statOrNull(file);
    if (!now) throw this.harmed('store-missing', `The lead store's database ${file} was removed`);
    if (keyOf(now) !== this.db.key)
      throw this.harmed('store-missing', `The lead store's database ${file} was replaced`);
    if (now.size < this.largest)
      throw this.harmed(
        'store-corrupt',
        `The lead store's database ${file} was truncated (${now.size} bytes, ${this.largest} before)`,
      );
    this.largest = now.size;
    const head = Buffer.alloc(SQLITE_HEADER.length);
    if (readSync(this.db.fd, head, 0, head.length, 0) > 0 && !head.equals(SQLITE_HEADER))
      throw this.harmed(
        'store-corrupt',
        `The lead store's database ${file} was overwritten: it is no longer a SQLite database`,
      );
    this.checkLog();
  }

  private checkLog(): void {
    const log = `${this.file}-wal`;
    const now = statOrNull(log);
    if (!this.wal) {
      if (now) this.wal = openShared(log);
      return;
    }
    if (!now || keyOf(now) !== this.wal.key) {
      this.logLost = true;
      throw this.harmed(
        'store-missing',
        `The lead store's log ${log}, which holds the latest leads until they are copied into the database, was ${now ? 'replaced' : 'removed'}`,
      );
    }
    const head = Buffer.alloc(4);
    if (readSync(this.wal.fd, head, 0, 4, 0) === 4 && !WAL_MAGIC.includes(head.readUInt32BE(0)))
      throw this.harmed(
        'store-corrupt',
        `The lead store's log ${log} was overwritten: it is no longer a SQLite log`,
      );
  }

  private harmed(condition: StoreHarmedError['condition'], what: string): StoreHarmedError {
    return new StoreHarmedError(
      condition,
      `${what} while the server ran: no lead is accepted until it is restored. ${howToRecover(this.file)}`,
    );
  }

  close(): void {
    closeShared(this.db.key);
    if (this.wal) closeShared(this.wal.key);
  }
}

/**
 * What the thread runs: SQLite's quick check and the store id, on a connection of its own. Its
 * cache is empty, so it reads the bytes on the disk, not the pages the store's connection has
 * cached; on a thread, because quick_check reads every page (0.9 s for 100,000 waiting leads,
 * npm run bench:leads), which the server's event loop must not wait for. The thread shares the
 * process's SQLite, whose locks it knows.
 */
const CHECK_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
let result;
try {
  const db = new Database(workerData.file, { timeout: 1000 });
  try {
    const quick = db.prepare('PRAGMA quick_check(1)').all();
    const id = db.prepare('SELECT store_id FROM lead_store WHERE id = 1').all();
    result = { quick: quick[0] && quick[0].quick_check, storeId: id[0] && id[0].store_id };
  } finally {
    db.close();
  }
} catch (err) {
  result = { error: String(err && err.message), code: String(err && err.code) };
}
parentPort.postMessage(result);
`;

type CheckResult = { quick?: string; storeId?: string; error?: string; code?: string };

/**
 * SQLite's quick integrity check and the store id, read on a thread (CHECK_THREAD). Throws a
 * StoreHarmedError when the database is damaged or holds another store; a database busy for
 * longer than a second is not judged now.
 */
export async function deepCheck(file: string, storeId: string): Promise<void> {
  // Opening a file that is not there would make it.
  if (!existsSync(file))
    throw new StoreHarmedError(
      'store-missing',
      `The lead store's database ${file} was removed: no lead is accepted until it is restored. ${howToRecover(file)}`,
    );
  const libsql = createRequire(import.meta.url).resolve('libsql');
  const r = await new Promise<CheckResult>((resolve, reject) => {
    const thread = new Worker(CHECK_THREAD, { eval: true, workerData: { libsql, file } });
    thread.once('message', resolve);
    thread.once('error', reject);
  });
  if (r.error !== undefined)
    throw judged(file, Object.assign(new Error(r.error), { code: r.code }));
  if (r.quick !== 'ok')
    throw new StoreHarmedError(
      'store-corrupt',
      `The lead store's database ${file} is damaged (SQLite's quick_check: ${r.quick}): no lead is accepted until it is restored. ${howToRecover(file)}`,
    );
  if (r.storeId !== storeId)
    throw new StoreHarmedError(
      'store-missing',
      `The lead store's database ${file} no longer holds store ${storeId}: it was replaced while the server ran. ${howToRecover(file)}`,
    );
}

/** SQLite's word that a file is not a sound database, as a harmed store; other errors as they are. */
function judged(file: string, err: unknown): unknown {
  if (err instanceof StoreHarmedError) return err;
  const code = String((err as { code?: unknown }).code ?? '');
  const message = (err as Error).message ?? '';
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code) || /no such table|malformed/.test(message))
    return new StoreHarmedError(
      'store-corrupt',
      `The lead store's database ${file} is damaged (${message}): no lead is accepted until it is restored. ${howToRecover(file)}`,
    );
  return err;
}
