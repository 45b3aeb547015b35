import path from 'node:path';

/** How a path is shown to the operator: relative inside the working folder, absolute outside it. */
export function displayPath(p: string): string {
  const abs = path.resolve(p);
  const rel = path.relative(process.cwd(), abs);
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? abs : rel;
}
