import path from 'node:path';
import type { Command } from 'commander';
import { CanonicalError, canonicalProblems } from '../audit/canonicals.js';
import { buildPages } from '../pages.js';
import { readPhotos } from '../photos/read-photos.js';
import { displayPath } from '../site/display-path.js';
import { factsTable } from '../site/fact-ages.js';
import { formatWhole } from '../site/format.js';
import { loadSite } from '../site/load.js';
import { hoursNotice } from '../site/opening-hours.js';
import { PROVINCES } from '../site/provinces.js';
import { missingTrust, sampleData, sampleNotice, trustNotice } from '../site/sample.js';
import {
  baseUrlFrom,
  baseUrlOption,
  type CommandContext,
  dataOption,
  parsePath,
  publicFolder,
} from './context.js';

/** `claimsite validate`: checks the data set and says what it holds, writing nothing. */
export function registerValidate(program: Command, { io, siteData }: CommandContext) {
  program
    .command('validate')
    .description('check the data set and report what it holds, writing nothing')
    .addOption(dataOption(siteData))
    .option(
      '--public <dir>',
      'public folder, where the logo and photos are, if it exists',
      parsePath,
      'public',
    )
    .addOption(baseUrlOption())
    .action(async (opts: { data: string; public: string; baseUrl?: string }, cmd: Command) => {
      // The same site URL and public folder generate would use, so that what validates builds.
      const publicDir = publicFolder(opts.public, cmd.getOptionValueSource('public') === 'cli');
      const site = await loadSite(opts.data, {
        baseUrl: opts.baseUrl,
        baseUrlFrom: baseUrlFrom(cmd),
        publicDir,
      });
      // The photos as generate reads them: there, readable, of a size to show.
      await readPhotos(site.settings, displayPath(path.join(opts.data, 'site.json')), publicDir);
      const pages = buildPages(site);
      const canonicals = canonicalProblems(pages);
      if (canonicals.length > 0) throw new CanonicalError(canonicals);
      const areas = site.cities.reduce((n, c) => n + c.areas.length, 0);
      const lines = PROVINCES.map((p) => {
        const n = site.cities.filter((c) => c.provinceCode === p.code).length;
        return `  ${p.name.padEnd(28)} ${String(n).padStart(4)}`;
      });
      io.out(
        [
          `Data OK: ${displayPath(opts.data)}`,
          'Cities per province and territory:',
          ...lines,
          `  ${'Total'.padEnd(28)} ${String(site.cities.length).padStart(4)}`,
          ...(site.area
            ? [`Service area: ${site.national.name} (the cities above are its own)`]
            : []),
          `Areas: ${formatWhole(areas)} in cities, ${site.national.areas.length} provinces and territories under ${site.national.slug}`,
          `Pages: ${formatWhole(pages.length)} (${formatWhole(pages.filter((p) => p.sitemap).length)} indexable)`,
          'Canonical pages: none chains or points at a page left out of the index',
          '',
        ].join('\n') +
          factsTable(site) +
          sampleNotice(sampleData(site)) +
          trustNotice(missingTrust(site)) +
          hoursNotice(site.settings.officeHours),
      );
    });
}
