import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN } from '../helpers.js';

export const ORIGIN = 'https://www.claimright.ca';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** What it wrote to stderr: its JSON log lines, and its warnings. */
  stderr(): string;
  /** The node process serving (under unshare, PID 1 of its namespace). */
  nodePid(): number;
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Sends a signal and resolves with the exit code (or signal) once the process has gone. */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/**
 * `claimsite serve` as production runs it: the compiled CLI in a process of its own, configured
 * from the environment. With `pid1`, as a container without an init runs it: PID 1 of a new PID
 * namespace (unshare --pid --fork --mount-proc; root only).
 */
export async function startServe(options: {
  dir: string;
  env: Record<string, string>;
  pid1?: boolean;
  /** A port of its own (a restarted server answers where the last one did); any free one by default. */
  port?: number;
  /** The CLI to run (a script bundled elsewhere names it); the repository's by default. */
  bin?: string;
}): Promise<ServeProcess> {
  const port = String(options.port ?? 0);
  const args = [
    options.bin ?? BIN,
    'serve',
    '--dir',
    options.dir,
    '--port',
    port,
    '--host',
    '127.0.0.1',
  ];
  const [program, ...rest] = options.pid1
    ? ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child', process.execPath, ...args]
    : [process.execPath, ...args];
  const child = spawn(program ?? '', rest, {
    env: { ...process.env, SITE_ORIGIN: ORIGIN, LEAD_RATE_LIMIT: '100000', ...options.env },
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  const started = Date.now();
  while (!/http:\/\/[\d.]+:\d+/.test(out)) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() - started > 20_000)
      throw new Error(`serve did not start: ${out}${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const url = /http:\/\/[\d.]+:\d+/.exec(out)?.[0] ?? '';
  return {
    url,
    child,
    stderr: () => err,
    nodePid: () => {
      if (!options.pid1) return child.pid ?? 0;
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8');
      return Number(children.trim().split(/\s+/)[0]);
    },
    post: (body, headers = {}) =>
      fetch(`${url}/api/lead`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        redirect: 'manual',
      }),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) {
        // Under unshare, the signal goes to node itself, as a container's stop sends it to PID 1.
        if (options.pid1) process.kill(nodePidOf(child), signal);
        else child.kill(signal);
      }
      return exited;
    },
  };
}

function nodePidOf(child: ChildProcess): number {
  const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8');
  return Number(children.trim().split(/\s+/)[0]);
}

/** The store's database read as another process reads it, closed after. */
export async function readStore<T>(
  file: string,
  fn: (store: import('../../src/lead/store.js').LeadStore) => Promise<T>,
): Promise<T> {
  const { openLeadStore } = await import('../../src/lead/open-store.js');
  const store = openLeadStore({ outboxPath: file }, () => {});
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The owner's alert webhook on loopback: every body it was sent, and each body's `text`. */
export async function startWebhook(): Promise<{
  url: string;
  bodies: string[];
  texts: string[];
  close: () => Promise<void>;
}> {
  const bodies: string[] = [];
  const texts: string[] = [];
  const hook = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    bodies.push(body);
    texts.push(String(JSON.parse(body).text));
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
    bodies,
    texts,
    close: () => new Promise<void>((r) => hook.close(() => r())),
  };
}
