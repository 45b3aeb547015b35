import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

export const EVENTS_PATH = '/__claimsite/events';

export const RELOAD_SCRIPT_PATH = '/__claimsite/reload.js';

/**
 * Added to HTML answers in watch mode only (never written to dist/), as a script file of the
 * site's own origin, so the pages' Content-Security-Policy allows it: reloads on a new build,
 * and shows a build error over the page until the next good build.
 */
export const RELOAD_SCRIPT = `<script src="${RELOAD_SCRIPT_PATH}"></script>`;

export const RELOAD_JS = `(()=>{const s=new EventSource(${JSON.stringify(EVENTS_PATH)});let box;s.addEventListener('reload',()=>location.reload());s.addEventListener('error-report',(e)=>{box=box||document.body.appendChild(Object.assign(document.createElement('pre'),{id:'claimsite-build-error'}));box.style.cssText='position:fixed;inset:auto 0 0 0;z-index:9999;margin:0;max-height:50vh;overflow:auto;padding:1rem;background:#7a1a14;color:#fff;font:14px/1.4 monospace;white-space:pre-wrap';box.textContent='Build failed: the last good site is shown.\\n\\n'+JSON.parse(e.data)})})()`;

export interface Watcher {
  /** Serves the event stream. */
  events(req: IncomingMessage, res: ServerResponse): void;
  close(): void;
}

export interface WatchOptions {
  /** Absolute folders whose changes trigger a rebuild. */
  folders: string[];
  /** Runs one build; resolves with null on success or the error text. */
  rebuild: (changed: readonly string[]) => Promise<string | null>;
  onResult?: (error: string | null, changed: readonly string[]) => void;
  debounceMs?: number;
}

/** Watches the sources, rebuilds one build at a time, and tells open pages what happened. */
export function startWatcher(options: WatchOptions): Watcher {
  const clients = new Set<ServerResponse>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  const broadcast = (event: string, data: string) => {
    for (const res of clients) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const run = async () => {
    if (running) return;
    running = true;
    const changed = [...pending];
    pending = new Set();
    const error = await options.rebuild(changed);
    running = false;
    options.onResult?.(error, changed);
    if (error) broadcast('error-report', error);
    else broadcast('reload', '');
    if (pending.size) schedule();
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(), options.debounceMs ?? 120);
  };
  const watchers = options.folders.map((folder) =>
    watch(folder, { recursive: true }, (_, file) => {
      pending.add(path.join(folder, String(file ?? '')));
      schedule();
    }),
  );
  return {
    events(req, res) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
      for (const res of clients) res.end();
    },
  };
}

/**
 * One rebuild as a child process, so edited templates and client code are compiled afresh:
 * the CLI is recompiled first when code changed, then `generate` runs. A failed build leaves
 * the served folder as it was (the build is atomic).
 */
export function childRebuild(root: string, dataDir: string, args: string[]) {
  const run = (argv: string[]) =>
    new Promise<string | null>((resolve) => {
      const child = spawn(process.execPath, argv, {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
      });
      child.on('close', (code) => resolve(code === 0 ? null : err.trim() || `exit code ${code}`));
    });
  return async (changed: readonly string[]) => {
    if (changed.some((f) => !f.startsWith(path.resolve(dataDir) + path.sep))) {
      const compiled = await run([path.join(root, 'scripts/build-cli.mjs')]);
      if (compiled) return compiled;
    }
    return run([
      path.join(root, 'bin/claimsite.cjs'),
      'generate',
      '--quiet',
      '--data',
      dataDir,
      ...args,
    ]);
  };
}
