import type { Plan } from './plan.js';
import type { Staging } from './staging.js';

/**
 * The disk's edge of the plan: an unchanged page whose file is gone from the output folder (or
 * whose folder is new) is rendered again. O(1) a page: one existence check, or a look at what
 * the thread that checked the last output's files found (a copied page by its line's number).
 */
export function keepUnchanged(plan: Plan, staging: Staging): void {
  const { render } = plan.state;
  const { copiedLines } = plan;
  for (const at of plan.files.cursor()) {
    const i = at.index;
    if (render[i] !== 0) continue;
    const line = copiedLines[i] ?? 0;
    // A copied page's path is not even decoded when the thread found its file.
    const kept =
      line > 0
        ? (staging.foundAt(line - 1) ?? staging.keepEntry(at.path, line - 1))
        : staging.keepPage(at.path);
    if (!kept) render[i] = 1;
  }
}
