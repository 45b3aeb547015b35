import type { IncomingMessage, ServerResponse } from 'node:http';
import chokidar from 'chokidar';

export const EVENTS_PATH = '/__claimsite/events';

export const RELOAD_SCRIPT_PATH = '/__claimsite/reload.js';

/**
 * Added to HTML answers in watch mode only (never written to dist/), as a script file of the
 * site's own origin, so the pages' Content-Security-Policy allows it: reloads on a new build,
 * and shows a build error over the page until the next good build.
 */
export const RELOAD_SCRIPT = `<script src="${RELOAD_SCRIPT_PATH}"></script>`;

export const RELOAD_JS = `(()=>{const s=new EventSource(${JSON.stringify(EVENTS_PATH)});let box;s.addEventListener('reload',()=>location.reload());s.addEventListener('built',()=>{box&&box.remove();box=null});s.addEventListener('error-report',(e)=>{box=box||document.body.appendChild(Object.assign(document.createElement('pre'),{id:'claimsite-build-error'}));box.style.cssText='position:fixed;inset:auto 0 0 0;z-index:9999;margin:0;max-height:50vh;overflow:auto;padding:1rem;background:#7a1a14;color:#fff;font:14px/1.4 monospace;white-space:pre-wrap';box.textContent='Build failed: the last good site is shown.\\n\\n'+JSON.parse(e.data)})})()`;

export interface Watcher {
  /** Serves the event stream. */
  events(req: IncomingMessage, res: ServerResponse): void;
  /** Resolves once the folders are being watched: an edit from then on is seen. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** What one rebuild did: its error, or how many files it changed. */
export interface RebuildResult {
  error: string | null;
  changed: number;
}

interface WatchOptions {
  /** Absolute folders whose changes trigger a rebuild. */
  folders: string[];
  rebuild: (changed: readonly string[]) => Promise<RebuildResult>;
  onResult?: (result: RebuildResult, changed: readonly string[]) => void;
  debounceMs?: number;
}

/** Editors' swap, backup and lock files, and file managers' litter: never a reason to rebuild. */
const IGNORED = /(^|[/\\])(\.#[^/\\]*|#[^/\\]*#|[^/\\]*~|[^/\\]*\.sw[a-p]|4913|\.DS_Store)$/;

/**
 * Watches the sources, rebuilds one build at a time, and tells open pages what happened: a
 * reload when files changed, the error while the last good site is served. chokidar watches the
 * folders, not the files, so an atomic save (a temporary file renamed over the old one, as
 * editors, `sed -i` and `git checkout` do) is seen every time, and so are new files.
 */
export function startWatcher(options: WatchOptions): Watcher {
  const clients = new Set<ServerResponse>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let lastError: string | null = null;

  const send = (res: ServerResponse, event: string, data: string) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const run = async () => {
    if (running) return;
    running = true;
    const changed = [...pending];
    pending = new Set();
    const result = await options.rebuild(changed);
    running = false;
    options.onResult?.(result, changed);
    lastError = result.error;
    for (const res of clients) {
      if (result.error) send(res, 'error-report', result.error);
      // A rebuild that changed nothing (a temporary file come and gone) reloads nothing.
      else if (result.changed > 0) send(res, 'reload', '');
      else send(res, 'built', '');
    }
    if (pending.size) schedule();
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(), options.debounceMs ?? 30);
  };
  const watcher = chokidar.watch(options.folders, {
    ignoreInitial: true,
    ignored: (file: string) => IGNORED.test(file),
  });
  watcher.on('all', (_event, file) => {
    pending.add(file);
    schedule();
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    events(req, res) {
      // The channel is quiet between builds: the server's idle timeout is not for it.
      req.socket.setTimeout(0);
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      // A page opened after a failed build shows its error too.
      if (lastError) send(res, 'error-report', lastError);
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    async close() {
      if (timer) clearTimeout(timer);
      for (const res of clients) res.end();
      clients.clear();
      await watcher.close();
    },
  };
}
