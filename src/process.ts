/**
 * Whether a process is running. EPERM means it runs as another user: alive, and its lock or
 * staging folder is not ours to take.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
