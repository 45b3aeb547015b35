/** One problem in the data, located precisely enough to fix without searching. */
export interface DataIssue {
  file: string;
  /** The line of the file, counted from 1, where a text problem is. */
  line?: number;
  /** The record's slug, or its index in the file, or null for a whole-file problem. */
  record: string | null;
  /** Dotted path of the field, or null. */
  field: string | null;
  message: string;
}

export function formatIssue(i: DataIssue): string {
  const where = [
    i.file,
    i.line && `line ${i.line}`,
    i.record && `record ${i.record}`,
    i.field && `field ${i.field}`,
  ]
    .filter(Boolean)
    .join(', ');
  return `${where}: ${i.message}`;
}

/** Invalid input data; carries every issue found, not only the first. */
export class DataError extends Error {
  constructor(
    readonly issues: DataIssue[],
    /** What kind of problems: the data's, or (`generate --strict`) what keeps it from publishing. */
    heading = 'Invalid data',
  ) {
    super(
      `${heading} (${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}):\n${issues
        .map((i) => `  - ${formatIssue(i)}`)
        .join('\n')}`,
    );
    this.name = 'DataError';
  }
}
