// Runs work in a task of its own right after this one, or at once if the page is left first
// (a visitor following a link within the same few milliseconds still has the work done).
export function soon(work: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    removeEventListener('pagehide', run);
    work();
  };
  addEventListener('pagehide', run);
  setTimeout(run, 0);
}
