import type { Alert, AlertCondition } from './alerts.js';
import { StoreHarmedError } from './store.js';

type StoreCondition = Extract<
  AlertCondition,
  'store-missing' | 'store-corrupt' | 'disk-full' | 'read-only' | 'store-down'
>;

/**
 * What kind of store failure an error is, by the codes SQLite, Node and PostgreSQL give: its
 * files harmed, the disk full, the files or volume read-only, the database damaged, or the store
 * out of reach. Null for an error that is not the store's (a drain's own bug).
 */
export function storeConditionOf(err: unknown): StoreCondition | null {
  if (err instanceof StoreHarmedError) return err.condition;
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  const message = String((err as Error | null)?.message ?? '');
  if (/^SQLITE_FULL|^ENOSPC$|^53100$/.test(code) || /disk is full|No space left/i.test(message))
    return 'disk-full';
  if (/^SQLITE_(READONLY|PERM|CANTOPEN)|^E(ROFS|ACCES|PERM)$|^25006$/.test(code))
    return 'read-only';
  if (/^SQLITE_(CORRUPT|NOTADB)|^XX00[12]$/.test(code) || /malformed/.test(message))
    return 'store-corrupt';
  // A table gone from a PostgreSQL database: it was dropped, or made again, under the servers.
  if (code === '42P01') return 'store-missing';
  if (/^SQLITE_|^E(CONNREFUSED|CONNRESET|HOSTUNREACH|TIMEDOUT|IO)$|^(08|57P)/.test(code))
    return 'store-down';
  return null;
}

/** What the owner is told of each, beside the error itself (no lead's data is ever in it). */
const TEXTS: Record<StoreCondition, string> = {
  'store-missing':
    'The lead store is gone or was replaced: new leads are refused (visitors are given the phone number).',
  'store-corrupt':
    'The lead store is damaged: new leads are refused (visitors are given the phone number).',
  'disk-full':
    "The lead store's disk is full: new leads are refused (visitors are given the phone number) until there is room; they are taken again by themselves then.",
  'read-only':
    "The lead store cannot be written (its folder's permissions, or a volume mounted read-only): new leads are refused (visitors are given the phone number) until it can.",
  'store-down':
    'The lead store cannot be reached: new leads are refused (visitors are given the phone number) until it answers.',
};

/**
 * Tells the owner of a store failure at once: at most once an hour for each kind, across
 * processes (alerts.ts). An error that is not the store's is not told of here (`orUnknown`:
 * an accepted lead the store refused is, as the store out of reach).
 */
export async function alertStoreFailure(
  alert: Alert,
  where: string,
  err: unknown,
  orUnknown = false,
): Promise<void> {
  const condition = storeConditionOf(err) ?? (orUnknown ? 'store-down' : null);
  if (!condition) return;
  const detail =
    err instanceof StoreHarmedError
      ? err.message
      : `${where}: ${String((err as Error | null)?.message ?? err)}`;
  await alert(condition, `${TEXTS[condition]} ${detail}`);
}
