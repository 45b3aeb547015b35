import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CanonicalError, canonicalProblems } from '../audit/canonicals.js';
import {
  AuditFailed,
  auditReportFile,
  auditSite,
  auditSummary,
  indexablePages,
  writeAuditReport,
} from '../audit/site-audit.js';
import { buildPages } from '../pages.js';
import { displayPath } from '../site/display-path.js';
import { factsTable } from '../site/fact-ages.js';
import { loadSite } from '../site/load.js';
import { type CommandContext, dataOption, parsePath } from './context.js';

/** `claimsite audit`: the content audit of a built site. */
export function registerAudit(program: Command, { io, siteData }: CommandContext) {
  program
    .command('audit')
    .description(
      'measure how much of each indexable page of a built site is its own, and find near-duplicates',
    )
    .addOption(dataOption(siteData, 'data folder the site was built from'))
    .option('--dir <dir>', 'built folder', parsePath, 'dist')
    .option('--strict', 'exit 1 if a page breaks the thresholds')
    .action(async (opts: { data: string; dir: string; strict?: boolean }) => {
      const site = await loadSite(opts.data);
      const pages = buildPages(site);
      // Search engines told two things is no matter of degree: refused with or without --strict.
      const canonicals = canonicalProblems(pages);
      if (canonicals.length > 0) throw new CanonicalError(canonicals);
      const report = auditSite(
        indexablePages(pages),
        (file) => {
          const at = path.join(opts.dir, file);
          if (!existsSync(at))
            throw new Error(
              `${displayPath(at)} is missing: build the site first (claimsite generate --data ${displayPath(opts.data)} --out ${displayPath(opts.dir)})`,
            );
          return at;
        },
        site.facts.topics ?? undefined,
      );
      const file = auditReportFile(opts.dir);
      writeAuditReport(file, report);
      io.out(`${auditSummary(report)}  Report: ${displayPath(file)}\n${factsTable(site)}`);
      if (opts.strict && report.failures.length > 0)
        throw new AuditFailed(report, displayPath(file));
    });
}
