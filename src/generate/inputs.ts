import path from 'node:path';
import { TEMPLATES, type Template } from '../../templates/pages/index.js';
import { hash } from '../hash.js';
import { checkLeadValues } from '../lead/lead-values.js';
import { ESTIMATED_VALUES } from '../lead/rules.js';
import { PageUnits } from '../pages.js';
import { type PhotoPlan, planPhotos } from '../photos/plan.js';
import { readPhotos } from '../photos/read-photos.js';
import { encoderVersion } from '../photos/sharp.js';
import { codeVersion, isCompiled, packageRoot } from '../root.js';
import { ROUTES, type Route, type RouteId } from '../routes.js';
import { type ShareImages, shareImages } from '../share/share-images.js';
import { displayPath } from '../site/display-path.js';
import { DataError } from '../site/errors.js';
import { loadSite } from '../site/load.js';
import { FOOTER_CITIES, type Site, topCities } from '../site/model.js';
import { type Assets, assetsOfSite, loadClient } from './assets.js';
import { listPublic, type PublicFile } from './public-files.js';

/** Everything a build is made from, loaded and checked. */
export interface Inputs {
  site: Site;
  routes: readonly Route[];
  /** The pages, a unit (a city) at a time. */
  units: PageUnits;
  templates: Record<RouteId, Template>;
  assets: Assets;
  publicFiles: PublicFile[];
  /** The owner's photos: the files to make of each (src/photos). */
  photos: PhotoPlan;
  /** Each page's share image, named by what it shows. */
  share: ShareImages;
  /**
   * What every page shares: code, settings, content, assets, the footer's cities. A page of the
   * last build is reused only under the same key; null (running from sources) reuses none.
   */
  key: string | null;
  /** The sitemap's lastmod (YYYY-MM-DD). */
  lastmod: string;
}

export interface InputOptions {
  dataDir: string;
  /** Files copied into the output as they are (host files, images); null or absent for none. */
  publicDir?: string | null;
  baseUrl?: string;
  /** Where baseUrl came from, named if it is not a URL (--base-url, SITE_URL). */
  baseUrlFrom?: string;
  /** The sitemap's lastmod (YYYY-MM-DD); defaults to SOURCE_DATE_EPOCH's day, or today. */
  lastmod?: string;
  routes?: readonly Route[];
  templates?: Record<RouteId, Template>;
  /** Identifies the templates and code; pages are reused only under the same one. Default: the CLI bundle's hash. */
  codeVersion?: string | null;
  /** City records this code found valid before, not checked again (see LoadOptions.valid). */
  validRecords?: ReadonlySet<string>;
}

/**
 * The site's table of lead values against the form's loss ranges: a range it names that the
 * form has not is a data error (the site's schema cannot know the form's ranges).
 */
function checkLeadValuesOf(site: Site, dataDir: string): void {
  const table = site.settings.leadValues;
  if (!table) return;
  const checked = checkLeadValues(table, ESTIMATED_VALUES);
  if ('error' in checked)
    throw new DataError([
      {
        file: displayPath(path.join(dataDir, 'site.json')),
        record: null,
        field: 'leadValues',
        message: checked.error,
      },
    ]);
}

/** The build's code version (see InputOptions.codeVersion). */
export const codeOf = (options: InputOptions): string | null =>
  options.codeVersion === undefined ? codeVersion() : options.codeVersion;

/** Loads the data, the page list, the assets and the public files: every input of a build. */
export async function loadInputs(options: InputOptions): Promise<Inputs> {
  // The compiled CLI comes with its client bundle; from sources it is bundled afresh, while the
  // data loads. A data error is reported first; this keeps the bundle's own from going unhandled.
  const client = loadClient(packageRoot(), { prebuilt: isCompiled() });
  client.catch(() => {});
  const site = await loadSite(options.dataDir, {
    baseUrl: options.baseUrl,
    baseUrlFrom: options.baseUrlFrom,
    publicDir: options.publicDir,
    valid: options.validRecords,
  });
  checkLeadValuesOf(site, options.dataDir);
  const routes = options.routes ?? ROUTES;
  const photos = await photosOf(site, options);
  const assets: Assets = {
    ...assetsOfSite(await client, site),
    photos: { gallery: photos.gallery, portraits: photos.portraits },
  };

  const version = codeOf(options);
  const share = shareImages(site);
  // A photo's own file is not published: it may carry where it was taken (EXIF GPS).
  const originals = new Set(photos.files.map((f) => f.source.src.slice(1)));
  const publicFiles = listPublic(options.publicDir).filter((f) => !originals.has(f.rel));
  return {
    site,
    routes,
    units: new PageUnits(site, routes),
    templates: options.templates ?? TEMPLATES,
    assets,
    publicFiles,
    photos,
    share,
    key:
      version &&
      hash([
        version,
        site.settings,
        site.national,
        site.content,
        // The logo's size and picture (its file is copied as a public file).
        site.logo,
        // Rarely edited, and shown on city and province pages alike.
        [...site.facts.provinces.values()],
        site.facts.nationalComplaints,
        site.facts.catastrophes,
        site.facts.populationSource,
        site.facts.insurers,
        // Which city pages are indexed depends on the lexicon (see hasSubstance in routes.ts).
        site.facts.topics?.digest ?? null,
        assets.css,
        assets.js,
        assets.cityIndex,
        // The photos' files are named by their pictures and the encoder.
        assets.photos,
        topCities(site, FOOTER_CITIES).map((c) => [c.slug, c.name]),
        // Each language's catalogue, content and facts, and the cities its footer lists.
        [...site.languages.values()].map((s) => [
          s.lang,
          s.t,
          s.links === site.links ? null : s.content,
          s.facts === site.facts ? null : [[...s.facts.provinces.values()], s.facts.catastrophes],
          s.national,
          topCities(s, FOOTER_CITIES).map((c) => [c.slug, c.name]),
        ]),
      ]),
    lastmod: options.lastmod ?? defaultLastmod(),
  };
}

/** The photos site.json names, read from the public folder, and the files to make of them. */
async function photosOf(site: Site, options: InputOptions): Promise<PhotoPlan> {
  const file = displayPath(path.join(options.dataDir, 'site.json'));
  const sources = await readPhotos(site.settings, file, options.publicDir);
  return planPhotos(sources, sources.length > 0 ? encoderVersion() : '');
}

function defaultLastmod(): string {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  const date = Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date();
  return date.toISOString().slice(0, 10);
}
