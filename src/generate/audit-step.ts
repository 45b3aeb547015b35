import path from 'node:path';
import type { AuditReport } from '../audit/audit.js';
import { SavedAudit } from '../audit/audit-store.js';
import { auditBuild, type PendingAudit } from '../audit/build-audit.js';
import type { RenderedPhrases } from '../audit/rendered-phrases.js';
import { AuditFailed, auditReportFile, writeAuditReport } from '../audit/site-audit.js';
import type { Topics } from '../audit/topics.js';
import type { IndexedPage, Plan } from './plan.js';
import type { Staging } from './staging.js';

/**
 * What the audit needs of a build: its indexable pages, which of them the build left as they
 * were, and the last build's phrases, opened before the commit discards them (an open file
 * stays readable).
 */
export interface AuditJob {
  pages: readonly IndexedPage[];
  /**
   * By page index, 1 where the commit changes the page's file (a copy: the plan's state is let
   * go); null in a new output folder, where the last build's phrases describe nothing.
   */
  changed: Uint8Array | null;
  previous: SavedAudit | null;
  /** The phrases of the pages this thread rendered; closed once the audit is done. */
  rendered: RenderedPhrases | null;
  /** The data set's lexicon (relevance.json), by which phrases are split; none, no relevance. */
  topics: Topics | undefined;
}

/** An audit made: its report, and the state the next build's audit starts from. */
export interface Audited {
  report: AuditReport;
  file: string;
  /** Put in place once the output is committed. */
  state: Omit<PendingAudit, 'report'>;
}

/**
 * The build's audit, decided before the commit. A strict audit is made now, of the output as it
 * will be: it stops the build, with its report, when a page breaks a threshold, so the output
 * folder keeps its last good site. A report's is made after the commit (see finishAudit), once
 * the build's inputs and plan are let go. Then the last audit is forgotten: the output is about
 * to change.
 */
export function startAudit(
  mode: 'report' | 'strict' | undefined,
  outDir: string,
  plan: Plan,
  staging: Staging,
  rendered: RenderedPhrases | null,
  topics: Topics | undefined,
): Audited | AuditJob | null {
  const job = mode ? auditJob(outDir, plan, staging, rendered, topics) : null;
  const audit =
    job && mode === 'strict' ? auditStaged(job, outDir, (file) => staging.locate(file)) : job;
  try {
    // The phrases kept for the next audit describe the output as it is: none while it changes.
    SavedAudit.discard(outDir, audit !== null);
  } catch (err) {
    dropAudit(audit);
    throw err;
  }
  return audit;
}

/**
 * Makes a report's audit, of the committed output, and puts its state and report in place;
 * a strict one made before the commit is put in place as it is.
 */
export function finishAudit(audit: Audited | AuditJob | null, outDir: string): Audited | null {
  if (!audit) return null;
  let audited = audit as Audited;
  if ('pages' in audit) {
    // Collected first where the process allows it (the CLI does): V8 would collect the build's
    // inputs, plan and last manifest only once the audit's tables and report had grown the heap,
    // at an incremental build's peak (at 100x, 150 MB of heap and 30 MB of buffers, and a peak
    // 15-25 MB lower for one collection of 0.03 s).
    (globalThis as { gc?: () => void }).gc?.();
    audited = auditCommitted(audit, outDir);
  }
  audited.state.commit();
  writeAuditReport(audited.file, audited.report);
  return audited;
}

/** An audit a failed commit leaves: its files are let go. */
export function dropAudit(audit: Audited | AuditJob | null): void {
  if (audit && 'pages' in audit) {
    audit.previous?.close();
    audit.rendered?.close();
  } else audit?.state.abort();
}

function auditJob(
  outDir: string,
  plan: Plan,
  staging: Staging,
  rendered: RenderedPhrases | null,
  topics: Topics | undefined,
): AuditJob {
  const { incremental } = staging.target;
  return {
    pages: plan.indexable,
    changed: incremental ? plan.state.changed.slice() : null,
    previous: incremental ? SavedAudit.open(outDir) : null,
    rendered,
    topics,
  };
}

/** A strict audit of the staged output (see startAudit). */
function auditStaged(job: AuditJob, outDir: string, locate: (file: string) => string): Audited {
  const audited = auditCommitted(job, outDir, locate);
  if (audited.report.failures.length > 0) {
    audited.state.abort();
    writeAuditReport(audited.file, audited.report);
    throw new AuditFailed(audited.report, audited.file);
  }
  return audited;
}

/** The audit of the indexable pages, read where `locate` says (default: the output folder). */
function auditCommitted(
  job: AuditJob,
  outDir: string,
  locate = (file: string) => path.join(outDir, file),
): Audited {
  try {
    // The audit closes the last build's once it is done with it.
    const { report, ...state } = auditBuild(job.pages, locate, {
      previous: job.previous,
      // A file the commit leaves as it is says what it said when the last build audited it.
      unchanged: (i) => job.changed?.[job.pages[i]?.index ?? -1] === 0,
      rendered: (i) => job.rendered?.get(job.pages[i]?.index ?? -1) ?? null,
      outDir,
      ...(job.topics && { topics: job.topics }),
    });
    return { report, file: auditReportFile(outDir), state };
  } finally {
    job.rendered?.close();
  }
}
