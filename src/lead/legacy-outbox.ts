import { randomUUID } from 'node:crypto';
import { open, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Log } from './log.js';
import { emailKey, phoneKey } from './person.js';
import { leadSchema } from './schema.js';
import type { SqlLeadStore } from './sql-store.js';
import type { AlertState, DeadLetter, PersonQuery, WaitingLead } from './store.js';

/**
 * The outbox of versions before the database: JSON-lines files in one folder. `leads.jsonl`
 * (or the file LEAD_OUTBOX_PATH named) held waiting leads, a later line for a lead replacing an
 * earlier one; `delivered.jsonl` the delivered ids; `dead.jsonl` the dead letters; `alerts.json`
 * when each alert was last sent.
 */
const SIBLINGS = { delivered: 'delivered.jsonl', dead: 'dead.jsonl', alerts: 'alerts.json' };

/** What an imported file is renamed to: set aside beside the database, never deleted. */
const SET_ASIDE = /\.imported-[0-9TZ-]+$/;

interface ImportReport {
  waiting: number;
  dead: number;
  delivered: number;
  /** Lines that were not a record of their file: torn, not JSON, or JSON but not a lead. */
  skipped: number;
  setAside: string[];
}

/**
 * Imports an older version's outbox into the store once, then renames its files aside. A line
 * that is not a record of its file is skipped and counted, never fatal; what the store has
 * already is left as it is, so an import cut short is simply done again at the next start.
 * Null when there was nothing to import.
 */
export async function importLegacyOutbox(
  store: SqlLeadStore,
  waitingFile: string,
  log: Log,
): Promise<ImportReport | null> {
  const dir = path.dirname(waitingFile);
  const files: Files = {
    waiting: waitingFile,
    delivered: path.join(dir, SIBLINGS.delivered),
    dead: path.join(dir, SIBLINGS.dead),
    alerts: path.join(dir, SIBLINGS.alerts),
  };
  const texts = Object.fromEntries(
    await Promise.all(
      Object.entries(files).map(async ([k, f]) => [k, await readFile(f, 'utf8').catch(() => null)]),
    ),
  ) as Texts;
  if (Object.values(texts).every((t) => t === null)) return null;

  const lines = new Lines();
  const delivered = deliveredOf(lines, texts.delivered);
  const dead = deadOf(lines, texts.dead);
  const waiting = waitingOf(lines, texts.waiting, delivered, dead);
  const alerts = alertsOf(lines, texts.alerts);

  await store.importLeads({
    waiting: [...waiting.values()],
    dead: [...dead.values()],
    delivered: [...delivered.values()],
  });
  const known = await store.alertState();
  await store.saveAlertState({ ...alerts, ...known });

  const setAside = await setAsideImported(files, texts);
  const report = {
    waiting: waiting.size,
    dead: dead.size,
    delivered: delivered.size,
    skipped: lines.skipped,
    setAside,
  };
  log('outbox imported', { from: dir, ...report });
  return report;
}

type Files = Record<'waiting' | 'delivered' | 'dead' | 'alerts', string>;
type Texts = Record<keyof Files, string | null>;

/** A file's records, one JSON object a line; what is not one is counted as skipped. */
class Lines {
  skipped = 0;

  of(text: string | null): Record<string, unknown>[] {
    return (text ?? '').split('\n').flatMap((line) => {
      if (!line.trim()) return [];
      try {
        const value = JSON.parse(line) as unknown;
        if (typeof value === 'object' && value !== null && !Array.isArray(value))
          return [value as Record<string, unknown>];
      } catch {
        // A line torn by a crash mid-append: its lead was never acknowledged.
      }
      this.skipped++;
      return [];
    });
  }
}

type Delivered = Map<string, { submissionId: string; contactId: string; at: string }>;

function deliveredOf(lines: Lines, text: string | null): Delivered {
  const delivered: Delivered = new Map();
  for (const r of lines.of(text)) {
    if (!isId(r.submissionId)) {
      lines.skipped++;
      continue;
    }
    delivered.set(r.submissionId, {
      submissionId: r.submissionId,
      contactId: typeof r.contactId === 'string' ? r.contactId : '',
      at: isTime(r.at) ? r.at : new Date().toISOString(),
    });
  }
  return delivered;
}

function deadOf(lines: Lines, text: string | null): Map<string, DeadLetter> {
  const dead = new Map<string, DeadLetter>();
  for (const r of lines.of(text)) {
    const lead = leadOf(r);
    if (!lead || !isTime(r.receivedAt)) {
      lines.skipped++;
      continue;
    }
    dead.set(lead.submissionId, {
      submissionId: lead.submissionId,
      receivedAt: r.receivedAt,
      deadAt: isTime(r.deadAt) ? r.deadAt : r.receivedAt,
      reason: typeof r.reason === 'string' ? r.reason : '',
      lead: lead.lead,
      ...(typeof r.contactId === 'string' ? { contactId: r.contactId } : {}),
    });
  }
  return dead;
}

function waitingOf(
  lines: Lines,
  text: string | null,
  delivered: Delivered,
  dead: Map<string, DeadLetter>,
): Map<string, WaitingLead> {
  const waiting = new Map<string, WaitingLead>();
  for (const r of lines.of(text)) {
    const lead = leadOf(r);
    if (!lead || !isTime(r.receivedAt)) {
      lines.skipped++;
      continue;
    }
    // The last line of a lead is its latest state; one delivered or dead no longer waits.
    if (delivered.has(lead.submissionId) || dead.has(lead.submissionId)) continue;
    waiting.set(lead.submissionId, {
      submissionId: lead.submissionId,
      receivedAt: r.receivedAt,
      lead: lead.lead,
      attempts: typeof r.attempts === 'number' ? r.attempts : 0,
      nextAttemptAt: isTime(r.nextAttemptAt) ? r.nextAttemptAt : r.receivedAt,
      reason: typeof r.reason === 'string' ? r.reason : 'kept by an older version',
      ...(typeof r.contactId === 'string' ? { contactId: r.contactId } : {}),
      // Whether the old version's last attempt added the note is not known: it is looked for.
      noteMayExist: true,
    });
  }
  return waiting;
}

function alertsOf(lines: Lines, text: string | null): AlertState {
  try {
    const parsed = JSON.parse(text ?? '{}') as unknown;
    if (typeof parsed === 'object' && parsed !== null) return parsed as AlertState;
  } catch {
    if (text !== null) lines.skipped++;
  }
  return {};
}

/** Each file imported renamed aside, stamped with the time; the names it was given. */
async function setAsideImported(files: Files, texts: Texts): Promise<string[]> {
  const stamp = new Date()
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z');
  const setAside: string[] = [];
  for (const [k, file] of Object.entries(files)) {
    if (texts[k as keyof Files] === null) continue;
    const aside = `${file}.imported-${stamp}`;
    // Another process may have imported and renamed it at the same moment: nothing is lost.
    await rename(file, aside).then(
      () => setAside.push(path.basename(aside)),
      () => {},
    );
  }
  return setAside;
}

function isId(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

function isTime(v: unknown): v is string {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v));
}

/** A record's lead, checked against the form's schema; null when it is not one. */
function leadOf(r: Record<string, unknown>) {
  if (!isId(r.submissionId)) return null;
  const parsed = leadSchema.safeParse(r.lead);
  if (!parsed.success || parsed.data.submissionId !== r.submissionId) return null;
  return { submissionId: r.submissionId, lead: parsed.data };
}

/** The files an import set aside in a folder. */
async function setAsideFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => SET_ASIDE.test(n)).map((n) => path.join(dir, n));
}

/** Does a set-aside line hold this person? */
function holds(line: string, person: PersonQuery): boolean {
  try {
    const r = JSON.parse(line) as { lead?: { email?: string; phone?: string } };
    const email = emailKey(person.email);
    const phone = phoneKey(person.phone);
    return (
      (email !== null && emailKey(r.lead?.email) === email) ||
      (phone !== null && phoneKey(r.lead?.phone) === phone)
    );
  } catch {
    return false;
  }
}

/** The lines of the set-aside files that hold a person, by file. */
export async function findInSetAside(
  dir: string,
  person: PersonQuery,
): Promise<Array<{ file: string; lines: string[] }>> {
  const found = [];
  for (const file of await setAsideFiles(dir)) {
    const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => holds(l, person));
    if (lines.length > 0) found.push({ file, lines });
  }
  return found;
}

/**
 * Removes a person's lines from the set-aside files: each file rewritten beside itself without
 * them, made durable, then renamed over it. The other lines stay as they were.
 */
export async function forgetInSetAside(dir: string, person: PersonQuery): Promise<number> {
  let removed = 0;
  for (const file of await setAsideFiles(dir)) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    const kept = lines.filter((l) => !holds(l, person));
    if (kept.length === lines.length) continue;
    removed += lines.length - kept.length;
    const tmp = `${file}.${randomUUID()}.tmp`;
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.write(kept.join('\n'));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  }
  return removed;
}
