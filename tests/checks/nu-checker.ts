import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import vnu from 'vnu-jar';

interface VnuMessage {
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** The Nu HTML Checker's errors on built files, each as "file:line message [extract]". */
export async function nuErrors(files: readonly string[], root: string): Promise<string[]> {
  // vnu exits 1 when it reports errors; its JSON report is on stderr either way.
  const run = await promisify(execFile)(
    'java',
    ['-jar', String(vnu), '--format', 'json', '--errors-only', ...files],
    { maxBuffer: 16 * 1024 * 1024 },
  ).catch((e: { stderr?: string; message: string }) => {
    if (e.stderr === undefined) throw new Error(`could not run java -jar vnu.jar: ${e.message}`);
    return { stderr: e.stderr };
  });
  const { messages } = JSON.parse(run.stderr) as { messages: VnuMessage[] };
  return messages.map(
    (m) =>
      `${path.relative(root, m.url.replace('file:', ''))}:${m.lastLine ?? '?'} ${m.message} [${(m.extract ?? '').trim().slice(0, 80)}]`,
  );
}
