import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '../routes.js';
import { type AuditReport, audit, percent } from './audit.js';
import { mainText } from './main-text.js';
import { shingles } from './shingles.js';
import type { Topics } from './topics.js';

/**
 * The kind a page is counted under: its route, and for the question-form pages which of them
 * it is (each has a job of its own to do).
 */
export function pageKind(page: Page): string {
  return page.questionnaire ? `${page.route}:${page.questionnaire}` : page.route;
}

/** What the audit needs of an indexable page. */
export interface AuditedPage {
  path: string;
  file: string;
  /** See pageKind. */
  kind: string;
}

/** The indexable pages of a page list, as the audit takes them. */
export const indexablePages = (pages: readonly Page[]): AuditedPage[] =>
  pages.flatMap((p) => (p.sitemap ? [{ path: p.path, file: p.file, kind: pageKind(p) }] : []));

/**
 * The audit of a built site: every indexable page's main text, read from where `locate` says
 * its file is, one at a time.
 */
export function auditSite(
  indexable: readonly AuditedPage[],
  locate: (file: string) => string,
  topics?: Topics,
): AuditReport {
  return audit(
    (function* () {
      for (const page of indexable)
        yield { path: page.path, kind: page.kind, phrases: phrasesOf(locate(page.file), topics) };
    })(),
    topics,
  );
}

/** A page's phrases, read from its file (counted in filesRead). */
export function phrasesOf(file: string, topics?: Topics): Uint32Array {
  filesRead.count++;
  return shingles(mainText(readFileSync(file, 'utf8')), topics);
}

/** Pages whose phrases were read from their files since the process started: tests count them. */
export const filesRead = { count: 0 };

/** Beside the output folder, as its manifest: the report is not published with the site. */
export const auditReportFile = (outDir: string) =>
  path.join(
    path.dirname(path.resolve(outDir)),
    `.${path.basename(path.resolve(outDir))}.audit.json`,
  );

/**
 * Indented, each list one item a line, written a part at a time: at 100x the report lists
 * 40,346 pages and 80,602 failures, and as one string (stringified, then edited) it took 56 MB
 * for a moment at the end of the build.
 */
export function writeAuditReport(file: string, report: AuditReport): void {
  const fd = openSync(file, 'w');
  let batch = '{\n';
  const write = (text: string) => {
    batch += text;
    if (batch.length >= 1 << 20) {
      writeSync(fd, batch);
      batch = '';
    }
  };
  try {
    const entries = Object.entries(report);
    for (const [k, [key, value]] of entries.entries()) {
      const comma = k + 1 < entries.length ? ',' : '';
      if (Array.isArray(value) && value.length > 0) {
        write(`  ${JSON.stringify(key)}: [\n`);
        for (const [i, item] of value.entries())
          write(`    ${JSON.stringify(item)}${i + 1 < value.length ? ',' : ''}\n`);
        write(`  ]${comma}\n`);
      } else
        write(
          `  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}${comma}\n`,
        );
    }
    writeSync(fd, `${batch}}\n`);
  } finally {
    closeSync(fd);
  }
}

/** A build stopped by --strict: the pages that broke a threshold. */
export class AuditFailed extends Error {
  constructor(
    readonly report: AuditReport,
    readonly reportFile: string,
  ) {
    const shown = report.failures.slice(0, 10);
    const more = report.failures.length - shown.length;
    super(
      [
        `the content audit found ${report.failures.length} page${report.failures.length === 1 ? '' : 's'} breaking its thresholds:`,
        ...shown.map((f) => `  ${f}`),
        ...(more > 0 ? [`  and ${more} more`] : []),
        `Full report: ${reportFile}`,
      ].join('\n'),
    );
  }
}

/** The summary printed at the end of a build: a row per page kind, the worst pages, problems. */
export function auditSummary(report: AuditReport): string {
  const rows = [...report.kinds].sort((a, b) => a.kind.localeCompare(b.kind));
  const width = Math.max(9, ...rows.map((k) => k.kind.length));
  const relevant = rows.some((k) => k.medianRelevance !== null);
  const lines = [
    `Content audit of ${report.pages.length} indexable pages (own phrases: found on no other page; similarity: to the nearest page, - where none is near${relevant ? '; on topic: the share of its own text in sentences about damage, claims, insurance, risk or recovery' : ''}):`,
    `  ${'page kind'.padEnd(width)}  pages  own (median, least)  similarity (median, most)${relevant ? '  on topic (median, least)' : ''}  least own${relevant ? ' / least on topic' : ''}`,
    ...rows.map(
      (k) =>
        `  ${k.kind.padEnd(width)}  ${String(k.pages).padStart(5)}  ${percent(k.medianOwnShare).padStart(10)}, ${percent(k.minOwnShare).padStart(4)}     ${similar(k.medianSimilarity).padStart(12)}, ${similar(k.maxSimilarity).padStart(4)}  ${relevant ? `${percent(k.medianRelevance ?? 0).padStart(15)}, ${percent(k.minRelevance ?? 0).padStart(4)}    ` : '     '}${k.worst}${relevant && k.leastRelevant !== k.worst ? ` / ${k.leastRelevant}` : ''}`,
    ),
  ];
  const worst = [...report.pages].sort((a, b) => a.ownShare - b.ownShare).slice(0, 5);
  if (worst.length > 0)
    lines.push(
      `  Least of their own: ${worst.map((p) => `${p.path} ${percent(p.ownShare)}`).join(', ')}`,
    );
  if (relevant) {
    const off = [...report.pages]
      .sort((a, b) => (a.relevance ?? 0) - (b.relevance ?? 0))
      .slice(0, 5);
    lines.push(
      `  Least on topic: ${off.map((p) => `${p.path} ${percent(p.relevance ?? 0)}`).join(', ')}`,
    );
  }
  if (report.thin.length > 0)
    lines.push(
      `  Thin (fewer than ${report.thresholds.thinPhrases} phrases of their own): ${report.thin.slice(0, 5).join(', ')}${report.thin.length > 5 ? ` and ${report.thin.length - 5} more` : ''}`,
    );
  if (report.clusters.length > 0)
    lines.push(
      `  Near-duplicate groups: ${report.clusters.length}, the largest of ${report.clusters[0]?.length} pages (${report.clusters[0]?.slice(0, 3).join(', ')}, ...)`,
    );
  lines.push(
    report.failures.length === 0
      ? '  Every page meets the thresholds.'
      : `  ${report.failures.length} threshold${report.failures.length === 1 ? '' : 's'} broken, first: ${report.failures[0]}`,
  );
  return `${lines.join('\n')}\n`;
}

/** A similarity for the table; 0 is a page no other shares a band of phrases with. */
const similar = (s: number) => (s === 0 ? '-' : s.toFixed(2));
