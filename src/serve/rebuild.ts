import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BuildReply, BuildRequest } from './build-server.js';
import type { RebuildResult } from './watch.js';

interface SiteInputs {
  dataDir: string;
  outDir: string;
  publicDir: string | null;
  baseUrl?: string;
}

/**
 * Builds for `serve --watch`. The builds run in a child process that stays up between them, so
 * an edit's rebuild runs warm; a change to the code (src/, templates/) is compiled first
 * (scripts/build-cli.mjs, which leaves the last good lib/ when it fails) and starts a new child,
 * since the old one holds the old code. A failed build leaves the served folder as it was.
 */
export class Rebuilder {
  private child: ChildProcess | null = null;
  private nextId = 1;
  /** Builds sent to each child and not yet answered. */
  private readonly waiting = new WeakMap<ChildProcess, Map<number, (reply: BuildReply) => void>>();

  constructor(
    private readonly root: string,
    private readonly inputs: SiteInputs,
  ) {}

  /** The folders whose changes call for a rebuild, and which of them hold code. */
  folders(): Array<{ dir: string; code: boolean }> {
    const code = existsSync(this.compiler)
      ? ['src', 'templates'].map((f) => ({ dir: path.join(this.root, f), code: true }))
      : [];
    return [
      { dir: path.resolve(this.inputs.dataDir), code: false },
      ...(this.inputs.publicDir ? [{ dir: path.resolve(this.inputs.publicDir), code: false }] : []),
      ...code,
    ];
  }

  /** One rebuild after `changed` files changed. */
  async rebuild(changed: readonly string[]): Promise<RebuildResult> {
    const code = this.folders().filter((f) => f.code);
    if (changed.some((file) => code.some((f) => file.startsWith(f.dir + path.sep)))) {
      const error = await this.compile();
      if (error) return { error, changed: 0 };
      this.stopChild();
    }
    return this.build();
  }

  /** Compiles the CLI when its sources changed since lib/ was made (a no-op otherwise). */
  compile(): Promise<string | null> {
    if (!existsSync(this.compiler)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [this.compiler], {
        cwd: this.root,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
      });
      child.on('close', (code) =>
        resolve(code === 0 ? null : err.trim() || `the CLI did not compile (exit code ${code})`),
      );
    });
  }

  build(): Promise<RebuildResult> {
    const child = this.ensureChild();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting
        .get(child)
        ?.set(id, (reply) =>
          resolve(
            reply.ok ? { error: null, changed: reply.changed } : { error: reply.error, changed: 0 },
          ),
        );
      child.send({ id, ...this.inputs } satisfies BuildRequest);
    });
  }

  close(): void {
    this.stopChild();
  }

  private get compiler(): string {
    return path.join(this.root, 'scripts', 'build-cli.mjs');
  }

  private ensureChild(): ChildProcess {
    if (this.child) return this.child;
    const child = spawn(
      process.execPath,
      [path.join(this.root, 'bin', 'claimsite.cjs'), 'build-server'],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    const waiting = new Map<number, (reply: BuildReply) => void>();
    this.waiting.set(child, waiting);
    child.on('message', (reply: BuildReply) => {
      waiting.get(reply.id)?.(reply);
      waiting.delete(reply.id);
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      // A build it had not answered: say so rather than wait for ever.
      for (const [id, answer] of waiting)
        answer({
          id,
          ok: false,
          error: `the build process stopped (${signal ?? `exit code ${code}`})`,
        });
      waiting.clear();
    });
    this.child = child;
    return child;
  }

  private stopChild(): void {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) child.kill();
  }
}
