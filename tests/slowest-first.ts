import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took longest in a run of `npm test` on 2 cores (docs/tests.md), longest first.
 * Vitest starts the files it has timed before longest first, but a clean clone has no timings,
 * and then it starts the largest files first: the chain of builds in dependencies.test.ts, a
 * short file, started last and ran alone for minutes at the end.
 */
const SLOWEST = [
  'tests/dependencies.test.ts',
  'tests/e2e/layout.test.ts',
  'tests/generate.test.ts',
  'tests/i18n.test.ts',
  'tests/photos.test.ts',
  'tests/checks/accessibility.test.ts',
  'tests/e2e/french.test.ts',
  'tests/duplicate-pages.test.ts',
  'tests/e2e/find-and-details.test.ts',
  'tests/audit.test.ts',
  'tests/e2e/behaviour.test.ts',
  'tests/recipes.test.ts',
  'tests/code-edits.test.ts',
];

/** Vitest's order (groups, then what it knows), with the known slowest files first in each group. */
export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (f: TestSpecification) => {
      const at = SLOWEST.indexOf(path.relative(root, f.moduleId).split(path.sep).join('/'));
      return at < 0 ? SLOWEST.length : at;
    };
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => group(a.file) - group(b.file) || rank(a.file) - rank(b.file) || a.i - b.i)
      .map((x) => x.file);
  }
}
