import { hash as digest } from 'node:crypto';

/** A short, stable digest of a value: of its JSON, or of a string as it is. */
export const hash = (value: unknown) =>
  digest(
    'sha256',
    typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'),
    'base64url',
  ).slice(0, 22);
