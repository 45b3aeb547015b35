import { createHash } from 'node:crypto';

/** A short, stable digest of a value: of its JSON, or of a string as it is. */
export const hash = (value: unknown) =>
  createHash('sha256')
    .update(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'))
    .digest('base64url')
    .slice(0, 22);
