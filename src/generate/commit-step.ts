import { NEARBY } from '../routes.js';
import { nearbySlugs } from '../site/model.js';
import type { Inputs } from './inputs.js';
import {
  entryLine,
  type FileEntry,
  type ManifestHeader,
  manifestHeader,
  type PreviousManifest,
  type UnitLine,
  writeManifestAside,
} from './manifest.js';
import { indexedLine, type Plan, printText } from './plan.js';
import type { Staging } from './staging.js';

/**
 * Makes the staged output the output, with its manifest: the files of the last output the new
 * one no longer has are deleted, and the manifest, written aside, is put in place by the commit
 * with the files (see Staging.commit).
 */
export function commitBuild(
  outDir: string,
  inputs: Inputs,
  plan: Plan,
  staging: Staging,
  previous: PreviousManifest | null,
  made: {
    publicStamps: ManifestHeader['public'];
    dates: readonly string[];
    precompressed?: string;
  },
): void {
  const gone = staging.target.incremental
    ? [...(previous?.unmarked((rel) => staging.extras.has(rel)) ?? [])]
    : [];
  staging.commit(gone, () =>
    writeManifestAside(
      outDir,
      manifestHeader({
        key: inputs.key ?? '',
        public: made.publicStamps,
        nearby: { key: plan.nearby.key, lists: nearbySlugs(inputs.site, NEARBY) },
        units: unitLines(plan),
        ...(made.precompressed ? { precompressed: made.precompressed } : {}),
      }),
      manifestLines(plan, staging, made.dates),
    ),
  );
}

/** The manifest's lines: every page's in page order, then the other files'. */
function* manifestLines(plan: Plan, staging: Staging, dates: readonly string[]): Generator<string> {
  const { files, prints, state, indexable, copiedLines, reusable } = plan;
  // The indexable pages are in page order too: walked beside the files.
  let k = 0;
  for (const at of files.cursor()) {
    const i = at.index;
    // A copied page whose file stayed as it was has the line it had (the same day too).
    const last = copiedLines[i] ?? 0;
    if (last > 0 && reusable && state.render[i] === 0 && state.changed[i] === 0) {
      if (indexable[k]?.index === i) k++;
      yield reusable.lineAt(last - 1);
      continue;
    }
    const entry: FileEntry = [at.path, state.sizes[i] ?? 0, printText(prints.at(i))];
    const page = indexable[k];
    if (page?.index === i) {
      entry.push(dates[k] ?? '', indexedLine(page));
      k++;
    }
    yield entryLine(entry);
  }
  for (const [rel, size] of staging.extras) yield entryLine([rel, size]);
}

/** Each city's unit: its digest, where its lines are (the pages' lines come first, in order). */
function unitLines(plan: Plan): Record<string, UnitLine> {
  const out: Record<string, UnitLine> = {};
  for (const [u, unit] of plan.units.entries()) {
    if (!unit) continue;
    const first = plan.starts[u] ?? 0;
    const count = (plan.starts[u + 1] ?? first) - first;
    out[unit.slug] = [unit.digest, first, count, unit.images, unit.files];
  }
  return out;
}
