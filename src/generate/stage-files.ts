import { headersFile } from './host-files.js';
import type { Inputs } from './inputs.js';
import type { PreviousManifest } from './manifest.js';
import { ownHeaders, replacedByPublic, stagePublic } from './public-files.js';
import { robotsTxt } from './sitemap.js';
import type { Staging } from './staging.js';

/**
 * Stages the files beside the pages: the hashed assets, the public folder's files (kept while
 * their stamp is unchanged), `_headers` and `robots.txt`. Returns the public files' stamps, for
 * the manifest.
 */
export function stageFiles(
  staging: Staging,
  inputs: Inputs,
  previous: PreviousManifest | null,
): Record<string, string> {
  const { assets, publicFiles, site } = inputs;
  for (const a of assets.files)
    if (!replacedByPublic(a.file, publicFiles)) staging.put(a.file, a.contents);
  const stamps = stagePublic(staging, publicFiles, previous?.header.public ?? {});
  staging.put('_headers', headersFile(site.settings, ownHeaders(publicFiles)));
  if (!replacedByPublic('robots.txt', publicFiles)) staging.put('robots.txt', robotsTxt(site));
  return stamps;
}
