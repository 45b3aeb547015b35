import { readFileSync } from 'node:fs';
import { COMPRESSOR, compress, ENCODINGS, isCompressible } from '../compression.js';
import type { PreviousManifest } from './manifest.js';
import type { Plan } from './plan.js';
import type { Staging } from './staging.js';

/**
 * `generate --precompress`: beside every HTML, CSS, JS, XML and SVG file of the new output, its
 * brotli (`.br`) and gzip (`.gz`) forms, which `claimsite serve` sends to browsers that accept
 * them. They are files of the build like any other (staged, committed with the pages, listed in
 * the manifest, so a page's go with it), and a file whose bytes did not change keeps the ones
 * the last build wrote, under the same compressor (see COMPRESSOR): compressed again, they would
 * be the same bytes. A compressed form no smaller than its file is not written.
 *
 * Run once every page and extra is staged, before the commit. Files compress a few at a time on
 * libuv's threads while this one reads the next; their results are staged in page order, then in
 * the extras' order, so that the manifest is the same whichever build made them.
 */
export async function stagePrecompressed(
  staging: Staging,
  plan: Pick<Plan, 'files' | 'state'>,
  previous: PreviousManifest | null,
): Promise<number> {
  const reuse = staging.target.incremental && previous?.header.precompressed === COMPRESSOR;
  let compressed = 0;
  const inFlight: Array<Promise<() => void>> = [];
  for (const [rel, unchanged] of sources(staging, plan)) {
    // A compressed form that the public folder provides is the owner's.
    const forms = ENCODINGS.filter((e) => !staging.extras.has(rel + e.suffix));
    let stage: Promise<() => void>;
    if (unchanged && reuse && forms.every((e) => keepable(staging, previous, rel + e.suffix))) {
      // Queued behind the files still compressing, so that the order stays the page order.
      stage = Promise.resolve(() => keepForms(staging, rel, forms));
    } else {
      compressed++;
      stage = compressForms(staging, rel, forms);
      // Reported when its turn comes; until then a failure must not go unhandled.
      stage.catch(() => {});
    }
    inFlight.push(stage);
    if (inFlight.length >= IN_FLIGHT) ((await inFlight.shift()) as () => void)();
  }
  for (const stage of inFlight) (await stage)();
  return compressed;
}

/**
 * The files to compress, pages first in page order, then the other files in their order, each
 * with whether the commit leaves it as it was. The extras are listed before any compressed form
 * is added to them.
 */
function* sources(
  staging: Staging,
  plan: Pick<Plan, 'files' | 'state'>,
): Generator<[rel: string, unchanged: boolean]> {
  const { changed } = plan.state;
  const extras = [...staging.extras.keys()].filter(isCompressible);
  for (const at of plan.files.cursor()) {
    const rel = at.path;
    if (isCompressible(rel)) yield [rel, changed[at.index] === 0];
  }
  for (const rel of extras) yield [rel, !staging.rewrote(rel)];
}

/** Files compressing at once: enough to keep libuv's four threads busy while this one reads. */
const IN_FLIGHT = 8;

/**
 * Whether the last build's compressed form can stay: it wrote one (and it is still there), or
 * wrote none because it was no smaller. One the public folder provided then is the owner's old
 * file, not a form of this one.
 */
function keepable(staging: Staging, previous: PreviousManifest | null, rel: string): boolean {
  if (!previous?.has(rel)) return true;
  return previous.header.public[rel] === undefined && staging.keepPage(rel);
}

function keepForms(staging: Staging, rel: string, forms: readonly { suffix: string }[]): void {
  for (const e of forms) if (staging.owns(rel + e.suffix)) staging.keep(rel + e.suffix);
}

/** Reads a staged file and compresses it; resolves with the step that stages its forms. */
async function compressForms(
  staging: Staging,
  rel: string,
  forms: readonly (typeof ENCODINGS)[number][],
): Promise<() => void> {
  const bytes = readFileSync(staging.locate(rel));
  const made = await Promise.all(forms.map((e) => compress(e, bytes)));
  return () => {
    for (const [i, e] of forms.entries()) {
      const form = made[i] as Buffer;
      if (form.byteLength < bytes.byteLength) staging.put(rel + e.suffix, form);
    }
  };
}
