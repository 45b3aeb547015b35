import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Lead } from './schema.js';

export interface OutboxEntry {
  submissionId: string;
  receivedAt: string;
  reason: string;
  lead: Lead;
}

/**
 * Appends one line and makes it durable before returning. A line torn by a crash is closed
 * first, so it can never swallow the line written after it.
 */
async function appendDurably(file: string, line: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const fh = await open(file, 'a+');
  try {
    const { size } = await fh.stat();
    const last = Buffer.alloc(1);
    if (size > 0) await fh.read(last, 0, 1, size - 1);
    await fh.write(`${size > 0 && last[0] !== 0x0a ? '\n' : ''}${line}\n`);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * A lock file beside the outbox, so the server's appends and `leads retry`'s rewrite never
 * interleave. A lock left by a dead process is taken over.
 */
async function withLock<T>(lockFile: string, fn: () => Promise<T>, waitMs = 10_000): Promise<T> {
  await mkdir(path.dirname(lockFile), { recursive: true });
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      const fh = await open(lockFile, 'wx');
      await fh.write(String(process.pid));
      await fh.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(await readFile(lockFile, 'utf8').catch(() => ''));
      if (holder && !alive(holder)) {
        await rm(lockFile, { force: true });
        continue;
      }
      if (Date.now() > until)
        throw new Error(`outbox is locked by process ${holder || 'unknown'} (${lockFile})`);
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 30));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lockFile, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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
 * Submission ids already delivered, kept in a JSON-lines file beside the outbox so every
 * process (the server, `leads retry`) sees what the others delivered.
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

  async add(id: string, contactId: string): Promise<void> {
    this.ids.add(id);
    await appendDurably(
      this.file,
      JSON.stringify({ submissionId: id, contactId, at: new Date().toISOString() }),
    );
  }
}

export class Outbox {
  readonly ledger: Ledger;
  private readonly lock: string;
  private readonly drainLock: string;

  constructor(readonly file: string) {
    this.ledger = new Ledger(path.join(path.dirname(file), 'delivered.jsonl'));
    this.lock = `${file}.lock`;
    this.drainLock = `${file}.drain.lock`;
  }

  async add(lead: Lead, reason: string): Promise<void> {
    const entry: OutboxEntry = {
      submissionId: lead.submissionId,
      receivedAt: new Date().toISOString(),
      reason,
      lead,
    };
    await withLock(this.lock, () => appendDurably(this.file, JSON.stringify(entry)));
  }

  async list(): Promise<OutboxEntry[]> {
    return parseLines<OutboxEntry>(await readFile(this.file, 'utf8').catch(() => ''));
  }

  /** Submissions waiting for delivery: in the outbox and not delivered by anyone since. */
  async waiting(): Promise<number> {
    const ids = new Set<string>();
    for (const e of await this.list())
      if (!(await this.ledger.has(e.submissionId))) ids.add(e.submissionId);
    return ids.size;
  }

  /**
   * Delivers what it can and keeps the rest. One drain at a time (a second waits); appends
   * made meanwhile are kept; an entry whose id was delivered by anyone is dropped, never sent.
   */
  async drain(
    deliver: (lead: Lead) => Promise<string>,
  ): Promise<{ delivered: number; kept: number; skipped: number }> {
    return withLock(
      this.drainLock,
      async () => {
        const entries = await this.list();
        const done = new Set<string>();
        let delivered = 0;
        let skipped = 0;
        for (const e of entries) {
          if (done.has(e.submissionId)) continue;
          if (await this.ledger.has(e.submissionId)) {
            done.add(e.submissionId);
            skipped++;
            continue;
          }
          try {
            const contactId = await deliver(e.lead);
            await this.ledger.add(e.submissionId, contactId);
            done.add(e.submissionId);
            delivered++;
          } catch {
            // Kept for the next run.
          }
        }
        const kept = await withLock(this.lock, async () => {
          const now = await this.list();
          const rest = now.filter((e) => !done.has(e.submissionId));
          const tmp = `${this.file}.${randomUUID()}.tmp`;
          const fh = await open(tmp, 'w');
          try {
            await fh.write(rest.map((e) => `${JSON.stringify(e)}\n`).join(''));
            await fh.sync();
          } finally {
            await fh.close();
          }
          await rename(tmp, this.file);
          return rest.length;
        });
        return { delivered, kept, skipped };
      },
      10 * 60_000,
    );
  }
}
