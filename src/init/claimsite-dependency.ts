import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What a new site's package.json depends on for claimsite, which is not published to npm: the
 * claimsite this command runs from. From a checkout, its git remote `origin` (so that the site
 * installs, and `npm update` updates, from where the team publishes claimsite), or the checkout's
 * folder when it has none; from an installed claimsite, what the project it is installed in
 * depends on.
 */
export function claimsiteDependency(root: string): string {
  if (path.basename(path.dirname(root)) === 'node_modules') {
    const project = path.dirname(path.dirname(root));
    return projectSpec(project) ?? `file:${root}`;
  }
  const origin = spawnSync('git', ['-C', root, 'config', '--get', 'remote.origin.url'], {
    encoding: 'utf8',
  });
  const url = origin.status === 0 ? origin.stdout.trim() : '';
  return url ? gitSpec(url) : `file:${root}`;
}

/** Whether npm fetches the spec from git, and so runs the package's `prepare` to compile it. */
export const isGitSpec = (spec: string) => /^git(\+[a-z]+)?:/.test(spec);

/** A git remote's URL as npm takes it as a dependency. */
export function gitSpec(url: string): string {
  if (isGitSpec(url)) return url;
  if (/^(https?|ssh|file):\/\//.test(url)) return `git+${url}`;
  // scp-like: git@github.com:team/claimsite.git
  const scp = /^([^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(url);
  if (scp) return `git+ssh://${scp[1] ?? ''}${scp[2]}/${scp[3]}`;
  return `git+file://${path.resolve(url)}`;
}

/** The claimsite a project's package.json names, a relative folder or file made absolute. */
function projectSpec(project: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const spec = pkg.dependencies?.claimsite ?? pkg.devDependencies?.claimsite;
    if (spec?.startsWith('file:')) return `file:${path.resolve(project, spec.slice(5))}`;
    return spec;
  } catch {
    return undefined;
  }
}
