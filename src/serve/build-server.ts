import { generate } from '../generate/generate.js';
import { DataError } from '../site/errors.js';

/** One build the watching server asks for. */
export interface BuildRequest {
  id: number;
  dataDir: string;
  outDir: string;
  publicDir: string | null;
  baseUrl?: string;
}

export type BuildReply =
  | { id: number; ok: true; ms: number; rendered: number; changed: number }
  | { id: number; ok: false; error: string };

/**
 * The build process that `serve --watch` keeps running: it builds whenever asked, so every build
 * after the first runs warm (code loaded and compiled, the renderer optimised), which is most of
 * an edit's time to reload. The watching server starts a new one when the code changes.
 */
export function runBuildServer(): Promise<void> {
  return new Promise((resolve) => {
    const send = (reply: BuildReply) => process.send?.(reply);
    process.on('message', async (m: BuildRequest) => {
      try {
        const r = await generate({
          dataDir: m.dataDir,
          outDir: m.outDir,
          publicDir: m.publicDir,
          baseUrl: m.baseUrl,
        });
        send({ id: m.id, ok: true, ms: r.ms, rendered: r.rendered, changed: r.changed });
      } catch (err) {
        send({ id: m.id, ok: false, error: describeError(err) });
      }
    });
    // The watching server is gone (stopped, or killed): so is this process's reason to be.
    process.on('disconnect', () => resolve());
  });
}

/** As the CLI prints a failed build: the data's issues, or what failed and where. */
function describeError(err: unknown): string {
  if (err instanceof DataError) return err.message;
  const e = err as Error;
  return e?.message ?? String(err);
}
