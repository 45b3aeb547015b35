import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isAlive } from '../process.js';
import {
  type AlertState,
  type DeadLetter,
  deadLetterOf,
  type LeadStore,
  type WaitingLead,
} from './store.js';

/** Leads are personal data: files only their owner can read, in a folder only it can open. */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * The lead store on a Node host: JSON-lines files in the outbox's folder. `leads.jsonl` holds
 * waiting leads (appended; a later line for the same lead replaces an earlier one, and a drain
 * rewrites the file with the live ones only), `delivered.jsonl` the delivered ids, `dead.jsonl`
 * the dead letters, `alerts.json` when each alert was last sent. Appends and rewrites share a
 * lock file; drains take one of their own. An existing folder is used as it is (its mode is the
 * owner's to set); files and a folder made here are the owner's alone.
 */
export class FileLeadStore implements LeadStore {
  private readonly ledger: Ledger;
  private readonly deadFile: string;
  private readonly alertsFile: string;
  private readonly lock: string;
  private readonly drainLock: string;

  constructor(readonly file: string) {
    const dir = path.dirname(file);
    this.ledger = new Ledger(path.join(dir, 'delivered.jsonl'));
    this.deadFile = path.join(dir, 'dead.jsonl');
    this.alertsFile = path.join(dir, 'alerts.json');
    this.lock = `${file}.lock`;
    this.drainLock = `${file}.drain.lock`;
  }

  get where(): string {
    return this.file;
  }

  async keep(entry: WaitingLead): Promise<void> {
    await withLock(this.lock, () => appendDurably(this.file, JSON.stringify(entry)));
  }

  async waiting(): Promise<WaitingLead[]> {
    const latest = new Map<string, WaitingLead>();
    for (const e of await readLines<Partial<WaitingLead> & WaitingLead>(this.file)) {
      // Entries of older versions carry neither attempts nor a time for the next.
      latest.set(e.submissionId, {
        ...e,
        attempts: e.attempts ?? 0,
        nextAttemptAt: e.nextAttemptAt ?? e.receivedAt,
      });
    }
    const done = await this.done();
    return [...latest.values()]
      .filter((e) => !done.has(e.submissionId))
      .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  }

  /** The leads that no longer wait: delivered (by this process or another) or dead letters. */
  private async done(): Promise<Set<string>> {
    return new Set([
      ...(await this.dead()).map((d) => d.submissionId),
      ...(await this.ledger.all()),
    ]);
  }

  async isWaiting(submissionId: string): Promise<boolean> {
    return (await this.waiting()).some((e) => e.submissionId === submissionId);
  }

  isDelivered(submissionId: string): Promise<boolean> {
    return this.ledger.has(submissionId);
  }

  delivered(submissionId: string, contactId: string): Promise<void> {
    return this.ledger.add(submissionId, contactId);
  }

  async bury(entry: WaitingLead, reason: string): Promise<void> {
    const letter = deadLetterOf(entry, reason);
    await withLock(this.lock, () => appendDurably(this.deadFile, JSON.stringify(letter)));
  }

  dead(): Promise<DeadLetter[]> {
    return readLines<DeadLetter>(this.deadFile);
  }

  async drop(submissionId: string): Promise<boolean> {
    return withLock(this.lock, async () => {
      const fromWaiting = await rewrite<WaitingLead>(
        this.file,
        (e) => e.submissionId !== submissionId,
      );
      const fromDead = await rewrite<DeadLetter>(
        this.deadFile,
        (e) => e.submissionId !== submissionId,
      );
      return fromWaiting + fromDead > 0;
    });
  }

  exclusive<T>(fn: () => Promise<T>, options: { wait: boolean }): Promise<T | null> {
    return withLock(
      this.drainLock,
      async () => {
        const result = await fn();
        // The drain is the time to forget what was delivered or buried. Decided under the write
        // lock, from what is done rather than what waited a moment ago: a lead kept in between
        // is not yet known to anyone but this file.
        await withLock(this.lock, async () => {
          const done = await this.done();
          await rewrite<WaitingLead>(this.file, (e) => !done.has(e.submissionId), true);
        });
        return result;
      },
      options.wait ? 10 * 60_000 : 0,
    );
  }

  async alertState(): Promise<AlertState> {
    try {
      return JSON.parse(await readFile(this.alertsFile, 'utf8')) as AlertState;
    } catch {
      return {};
    }
  }

  async saveAlertState(state: AlertState): Promise<void> {
    await withLock(this.lock, () => writeDurably(this.alertsFile, JSON.stringify(state)));
  }

  /** Waiting lines as they are on disk (tests and `leads list` of an old outbox). */
  static async lines(file: string): Promise<WaitingLead[]> {
    return readLines<WaitingLead>(file);
  }
}

/**
 * Submission ids already delivered, kept in a JSON-lines file beside the outbox so every
 * process (the server, `leads retry`) sees what the others delivered. Read incrementally.
 */
export class Ledger {
  private readonly ids = new Set<string>();
  private offset = 0;
  /** One read at a time: concurrent reads from the same offset would count lines twice. */
  private reading: Promise<void> | null = null;

  constructor(readonly file: string) {}

  private refresh(): Promise<void> {
    this.reading ??= this.readNew().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async readNew(): Promise<void> {
    const info = await stat(this.file).catch(() => null);
    if (!info || info.size <= this.offset) return;
    const fh = await open(this.file, 'r');
    try {
      const buf = Buffer.alloc(info.size - this.offset);
      await fh.read(buf, 0, buf.length, this.offset);
      const text = buf.toString('utf8');
      const complete = text.lastIndexOf('\n') + 1;
      for (const e of parseLines<{ submissionId: string }>(text.slice(0, complete)))
        this.ids.add(e.submissionId);
      this.offset += Buffer.byteLength(text.slice(0, complete));
    } finally {
      await fh.close();
    }
  }

  async has(id: string): Promise<boolean> {
    if (this.ids.has(id)) return true;
    await this.refresh();
    return this.ids.has(id);
  }

  /** Every id delivered so far, by this process or another. */
  async all(): Promise<ReadonlySet<string>> {
    await this.refresh();
    return this.ids;
  }

  async add(id: string, contactId: string): Promise<void> {
    this.ids.add(id);
    await appendDurably(
      this.file,
      JSON.stringify({ submissionId: id, contactId, at: new Date().toISOString() }),
    );
  }
}

/** The outbox's folder, made for its owner alone when it is not there. */
async function ensureDir(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: DIR_MODE });
}

/**
 * Appends one line and makes it durable before returning. A line torn by a crash is closed
 * first, so it can never swallow the line written after it. A file an older version made
 * readable by others is made the owner's alone.
 */
async function appendDurably(file: string, line: string): Promise<void> {
  await ensureDir(file);
  const fh = await open(file, 'a+', FILE_MODE);
  try {
    const info = await fh.stat();
    if ((info.mode & 0o777) !== FILE_MODE) await fh.chmod(FILE_MODE);
    const last = Buffer.alloc(1);
    if (info.size > 0) await fh.read(last, 0, 1, info.size - 1);
    await fh.write(`${info.size > 0 && last[0] !== 0x0a ? '\n' : ''}${line}\n`);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Replaces a file whole: written aside, fsynced, renamed over it. */
async function writeDurably(file: string, text: string): Promise<void> {
  await ensureDir(file);
  const tmp = `${file}.${randomUUID()}.tmp`;
  const fh = await open(tmp, 'w', FILE_MODE);
  try {
    await fh.write(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
}

/**
 * Keeps the lines of a JSON-lines file that `keep` accepts (the last line per submission only,
 * with `latestOnly`); returns how many lines went. Run under the write lock.
 */
async function rewrite<T extends { submissionId: string }>(
  file: string,
  keep: (entry: T) => boolean,
  latestOnly = false,
): Promise<number> {
  const entries = await readLines<T>(file);
  let kept = entries.filter(keep);
  if (latestOnly) {
    const last = new Map(kept.map((e, i) => [e.submissionId, i]));
    kept = kept.filter((e, i) => last.get(e.submissionId) === i);
  }
  if (kept.length === entries.length) return 0;
  await writeDurably(file, kept.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return entries.length - kept.length;
}

async function readLines<T>(file: string): Promise<T[]> {
  return parseLines<T>(await readFile(file, 'utf8').catch(() => ''));
}

function parseLines<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // A torn last line from a crash mid-append: its lead was not acknowledged to anyone.
    }
  }
  return out;
}

/**
 * A lock file, so that appends, rewrites and drains of several processes never interleave. A
 * lock left by a dead process is taken over. With `waitMs` 0, a held lock gives null at once.
 */
async function withLock<T>(lockFile: string, fn: () => Promise<T>, waitMs = 10_000): Promise<T> {
  await ensureDir(lockFile);
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      const fh = await open(lockFile, 'wx', FILE_MODE);
      await fh.write(String(process.pid));
      await fh.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(await readFile(lockFile, 'utf8').catch(() => ''));
      if (holder && !isAlive(holder)) {
        await rm(lockFile, { force: true });
        continue;
      }
      if (waitMs === 0) return null as T;
      if (Date.now() > until)
        throw new Error(`the outbox is locked by process ${holder || 'unknown'} (${lockFile})`);
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 30));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lockFile, { force: true });
  }
}
