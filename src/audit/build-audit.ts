import {
  type AuditReport,
  type AuditTables,
  auditTables,
  reportOf,
  updateTables,
} from './audit.js';
import { AuditWriter, type SavedAudit, type SavedState } from './audit-store.js';
import { type AuditedPage, phrasesOf } from './site-audit.js';
import type { Topics } from './topics.js';

/** What a build's audit is given besides its pages. */
interface AuditCache {
  /**
   * The last build's audit, opened before the commit removed it; null for none. The audit
   * closes it once its own state is committed or dropped.
   */
  previous: SavedAudit | null;
  /** Whether the file of the page at an index is as the last build left it. */
  unchanged: (page: number) => boolean;
  /**
   * The phrases of the page at an index, if this build split them as it rendered the page (see
   * RenderedPhrases): its file is not read. Valid until the next call.
   */
  rendered?: (page: number) => Uint32Array | null;
  outDir: string;
  /** The lexicon phrases are split by (see shingles); none, and relevance is not measured. */
  topics?: Topics;
}

/** A build's audit, and its state to keep for the next, put in place once the output is. */
export interface PendingAudit {
  report: AuditReport;
  commit(): void;
  abort(): void;
}

/**
 * The audit of a build's indexable pages (read where `locate` says). When the last build
 * audited the same pages, in the same order, its tables are brought up to date with the pages
 * whose files changed (see updateTables), the others not read at all; otherwise the tables are
 * made anew, of the phrases the last build kept of unchanged files and of the others read. The
 * report is the same either way.
 */
export function auditBuild(
  indexable: readonly AuditedPage[],
  locate: (file: string) => string,
  cache: AuditCache,
): PendingAudit {
  const done = () => cache.previous?.close();
  try {
    const files = indexable.map((page) => page.file);
    const topics = cache.topics?.digest ?? null;
    let saved = cache.previous?.load(topics) ?? null;
    let audited: { tables: AuditTables; next: AuditWriter };
    if (
      saved &&
      sameFiles(saved.files, files) &&
      !mostlyFree(saved) &&
      fewChanged(indexable, cache)
    )
      try {
        audited = updated(saved, indexable, locate, cache);
      } catch {
        // A state that does not add up (a phrase table that lacks a page's phrase, phrases cut
        // short) is not trusted further: the tables are made anew from the pages themselves.
        saved = null;
        audited = made(null, indexable, locate, cache);
      }
    else {
      const kept = saved && placesOf(saved);
      // The last tables are let go before new ones are made (20 MB at 100x).
      saved = null;
      audited = made(kept, indexable, locate, cache);
    }
    const { tables, next } = audited;
    try {
      const report = reportOf(tables, indexable, cache.topics !== undefined);
      return {
        report,
        commit: () => {
          try {
            next.commit(files, tables, topics);
          } finally {
            done();
          }
        },
        abort: () => {
          next.abort();
          done();
        },
      };
    } catch (err) {
      next.abort();
      throw err;
    }
  } catch (err) {
    done();
    throw err;
  }
}

/** Build audits since the process started, by whether their tables were updated or made: tests check which. */
export const buildAudits = { updated: 0, made: 0 };

/** The last build's tables, updated with the pages whose files changed. */
function updated(
  saved: SavedState,
  pages: readonly AuditedPage[],
  locate: (file: string) => string,
  cache: AuditCache,
): { tables: AuditTables; next: AuditWriter } {
  const previous = cache.previous as SavedAudit;
  const { tables, offsets } = saved;
  buildAudits.updated++;
  const next = new AuditWriter(cache.outDir, saved.data);
  try {
    updateTables(
      tables,
      (function* () {
        for (const [i, page] of pages.entries()) {
          if (cache.unchanged(i)) {
            next.keep(i, offsets[i] as number);
            continue;
          }
          const before = previous.phrases(offsets[i] as number, tables.phrases[i] as number);
          if (!before) throw new Error(`the last audit's phrases of ${page.file} are cut short`);
          const after = cache.rendered?.(i) ?? phrasesOf(locate(page.file), cache.topics);
          next.add(i, after);
          yield { page: i, before, after };
        }
      })(),
    );
    return { tables, next };
  } catch (err) {
    next.abort();
    throw err;
  }
}

/** Where the last build's phrases of each file are. */
function placesOf(saved: SavedState): Map<string, [offset: number, count: number]> {
  const places = new Map<string, [offset: number, count: number]>();
  for (const [i, file] of saved.files.entries())
    places.set(file, [saved.offsets[i] as number, saved.tables.phrases[i] as number]);
  return places;
}

/** New tables, of the phrases the last build kept of unchanged files and of the others read. */
function made(
  kept: ReadonlyMap<string, [offset: number, count: number]> | null,
  pages: readonly AuditedPage[],
  locate: (file: string) => string,
  cache: AuditCache,
): { tables: AuditTables; next: AuditWriter } {
  buildAudits.made++;
  const next = new AuditWriter(cache.outDir);
  try {
    const tables = auditTables(
      (function* () {
        for (const [i, page] of pages.entries()) {
          const at = cache.unchanged(i) ? kept?.get(page.file) : undefined;
          const phrases =
            cache.rendered?.(i) ??
            (at && cache.previous?.phrases(at[0], at[1])) ??
            phrasesOf(locate(page.file), cache.topics);
          next.add(i, phrases);
          yield phrases;
        }
      })(),
    );
    return { tables, next };
  } catch (err) {
    next.abort();
    throw err;
  }
}

/**
 * Whether few enough pages changed that updating the last tables costs less than making them:
 * each changed page's phrases go out and in again, and its neighbours' nearest pages are found
 * again.
 */
function fewChanged(pages: readonly AuditedPage[], cache: AuditCache): boolean {
  let changed = 0;
  for (let i = 0; i < pages.length; i++) if (!cache.unchanged(i)) changed++;
  return changed * 4 <= pages.length;
}

function sameFiles(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether the phrases file is mostly phrases no page has any more (appended by builds since it
 * was made, or by failed ones): then it is made anew.
 */
function mostlyFree(saved: SavedState): boolean {
  let live = 0;
  for (const count of saved.tables.phrases) live += count * 4;
  return saved.data.end > 2 * live + (1 << 20);
}
