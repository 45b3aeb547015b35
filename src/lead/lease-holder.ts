import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds the drain's lease, so that another process can tell when it died: its host, and its
 * process id there. A pid means something only in its own PID namespace (a container's PID 1 is
 * not the host's), so the host is named with the namespace: a holder of another host or
 * namespace is never judged, and its lease runs out as before.
 */
export interface LeaseHolder {
  host: string;
  pid: number;
}

let here: string | undefined;

/** This process, as a lease records it. */
export function holderOf(): LeaseHolder {
  if (here === undefined) {
    let namespace = '';
    try {
      namespace = readlinkSync('/proc/self/ns/pid');
    } catch {
      // No /proc (not Linux): the host name alone.
    }
    here = namespace ? `${hostname()} ${namespace}` : hostname();
  }
  return { host: here, pid: process.pid };
}

/**
 * Whether a lease's holder is known to be gone: of this host and PID namespace, another
 * process than this one, and no such process any more. A process of another user (EPERM) lives.
 */
export function isGone(holder: Partial<LeaseHolder>): boolean {
  const me = holderOf();
  if (!holder.host || holder.host !== me.host || !holder.pid || holder.pid === me.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
