import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from '../helpers.js';

/**
 * A PostgreSQL server of Debian's `postgresql` package (.ci/run installs it when it is
 * missing), started for a test file in a folder of its own, listening on a Unix socket in that
 * folder only. As root it runs as the `postgres` user, which the package makes (PostgreSQL
 * refuses to run as root).
 */
export async function startPostgres(): Promise<{ url: (db?: string) => string; stop(): void }> {
  const bin = postgresBin();
  const dir = await tempDir('claimsite-pg-');
  const data = path.join(dir, 'data');
  await mkdir(data);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // The postgres user passes through the test run's folders (0700, root's) to its own.
    for (
      let d = dir;
      d !== path.dirname(d) && d.startsWith(process.env.CLAIMSITE_TEST_TMP ?? dir);
      d = path.dirname(d)
    )
      await chmod(d, 0o711);
    execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  }
  const run = (program: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : path.join(bin, program),
      asRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args,
      { stdio: 'pipe' },
    );
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  const port = 5432;
  run('pg_ctl', [
    '-D',
    data,
    '-w',
    '-l',
    path.join(dir, 'log'),
    '-o',
    `-c listen_addresses='' -k ${dir} -p ${port} -c fsync=on`,
    'start',
  ]);
  return {
    url: (db = 'postgres') =>
      `postgresql://postgres@localhost:${port}/${db}?host=${encodeURIComponent(dir)}`,
    stop: () => {
      spawnSync(
        asRoot ? 'runuser' : path.join(bin, 'pg_ctl'),
        [
          ...(asRoot ? ['-u', 'postgres', '--', path.join(bin, 'pg_ctl')] : []),
          '-D',
          data,
          '-m',
          'fast',
          'stop',
        ],
        { stdio: 'ignore' },
      );
    },
  };
}

/** The folder of Debian's PostgreSQL programs (initdb and pg_ctl are not on PATH there). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error(
      'PostgreSQL is not installed: apt-get install postgresql (.ci/run does it when it is missing)',
    );
  return path.join(root, versions[0], 'bin');
}
