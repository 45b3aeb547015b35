import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * What kind of place an npm install spec fetches claimsite from: a registry (a version, a range,
 * a tag, an alias), a tarball's URL, a git repository, or this machine (a file or a folder), which
 * no build host can reach.
 */
type SpecKind = 'registry' | 'tarball' | 'git' | 'local';

export function specKind(spec: string): SpecKind {
  if (/^(file:|git\+file:)/.test(spec)) return 'local';
  if (/^(\.{0,2}\/|~\/|[A-Za-z]:[\\/]|\\\\)/.test(spec) || spec === '.' || spec === '..')
    return 'local';
  if (/^https?:\/\//.test(spec)) return 'tarball';
  if (/^(git(\+[a-z]+)?|github|gitlab|bitbucket|gist):/.test(spec)) return 'git';
  // A name-free file (claimsite-0.1.0.tgz) is a path; owner/repo is GitHub's shorthand.
  if (/\.(tgz|tar\.gz|tar)$/.test(spec)) return 'local';
  if (/^[^@:\s/]+\/[^:\s/]+$/.test(spec)) return 'git';
  return 'registry';
}

/**
 * What a new site's package.json depends on for claimsite when `init` is not told: what the
 * project the running claimsite is installed in depends on (`npx --package=<spec> claimsite init`
 * runs it from npx's own such project), unless that is a path on this machine. A checkout of
 * claimsite is no package at all (`npm pack` makes one), so from a checkout there is none.
 */
export function defaultClaimsiteSpec(root: string): string | undefined {
  const modules = modulesOf(root);
  const spec = modules && projectSpec(root, modules);
  return spec && specKind(spec) !== 'local' ? spec : undefined;
}

/** The node_modules folder a package at root is installed in (node_modules/@team/claimsite too). */
function modulesOf(root: string): string | undefined {
  const parent = path.dirname(root);
  if (path.basename(parent) === 'node_modules') return parent;
  const above = path.dirname(parent);
  return path.basename(parent).startsWith('@') && path.basename(above) === 'node_modules'
    ? above
    : undefined;
}

/** The spec with which the project owning that node_modules depends on the package at root. */
function projectSpec(root: string, modules: string): string | undefined {
  let pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(readFileSync(path.join(path.dirname(modules), 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const real = realpathSync(root);
  for (const [name, spec] of Object.entries({ ...pkg.devDependencies, ...pkg.dependencies })) {
    let installed: string;
    try {
      installed = realpathSync(path.join(modules, name));
    } catch {
      continue;
    }
    if (installed !== real) continue;
    // Installed under another name (a registry's scope): the site keeps it as claimsite.
    if (name === 'claimsite' || specKind(spec) !== 'registry') return spec;
    return spec.startsWith('npm:') ? spec : `npm:${name}@${spec}`;
  }
  return undefined;
}

/** What to tell an owner whose site depends on claimsite at a path on this machine. */
export function localSpecWarning(spec: string): string {
  return `Warning: ${spec} is a path on this machine, which no build host can fetch: the site builds here, but before you deploy it, publish claimsite (README: "Publishing claimsite") and point package.json at it (npm install claimsite@<version or tarball URL>).\n`;
}

/** Why init needs --claimsite, and what to give it. */
export const noDefaultSpec = (
  version: string,
) => `claimsite: init needs --claimsite, where the site's builds get claimsite from: this claimsite is a checkout or a copy on this machine, which no build host can fetch. Give one of
  a version from your team's registry:  --claimsite ${version}
  a packed claimsite at a URL:          --claimsite https://example.org/claimsite-${version}.tgz
  GitHub Packages (a scoped name):      --claimsite npm:@your-team/claimsite@^${version}
(README: "Publishing claimsite"). To try it on this machine only: npm pack in the checkout, then --claimsite file:<path to the .tgz>.`;
