#!/usr/bin/env node
// Thin entry: the CLI is compiled to lib/ by `npm run build` (and by `npm pack`, before packing).
// CommonJS, like the CLI it loads: an ES module entry starts Node's ES module loader, a cost
// of every run here, and nothing on this path needs it.
// React's development build is many times slower and adds nothing to static output, so the
// production build is chosen before React loads (an explicit NODE_ENV still wins).
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

process.env.NODE_ENV ??= 'production';
const argv = process.argv.slice(2);
const root = path.join(__dirname, '..');
// V8 lets its heap grow to two or three times what is live before it collects it: on a site of
// 100,000s of pages, hundreds of megabytes of garbage held. Growing it by 30% at a time keeps a
// build's peak near what it holds (at 100 times the bundled data, from about 560 MB to about
// 410) for a few more collections. Set before anything runs: set later, V8 keeps to its own.
// `generate` also collects once, between the build and its audit (see generate.ts): V8 gives a
// context made after --expose-gc its gc function.
if (argv[0] === 'generate') {
  require('node:v8').setFlagsFromString('--heap-growing-percent=30');
  require('node:v8').setFlagsFromString('--expose-gc');
  globalThis.gc ??= require('node:vm').runInNewContext('gc');
}

// In a checkout of claimsite, a command that runs the site's code first compiles src/ and
// templates/ again if they changed since lib/ was compiled (a few milliseconds when they did
// not): an edit is never ignored. Any command compiles a checkout that has no lib/ yet (nothing
// compiles it as it installs). An installed package has no sources and nothing to check.
const sources = path.join(root, 'scripts', 'cli-sources.cjs');
if (
  (['generate', 'validate', 'audit', 'dev', 'serve', 'init', 'deploy'].includes(argv[0]) ||
    !existsSync(path.join(root, 'lib', 'cli.cjs'))) &&
  existsSync(sources)
) {
  const result = require(sources).compileIfChanged(root);
  const hasLib = existsSync(path.join(root, 'lib', 'cli.cjs'));
  if (result?.compiled && !argv.includes('--quiet'))
    process.stderr.write('Compiled the CLI again: its sources changed since lib/ was made.\n');
  else if (result && argv[0] === 'serve' && !argv.includes('--watch') && hasLib)
    process.stderr.write(
      `${result.report}\nclaimsite: src/ or templates/ do not compile: serving with the last good code.\n`,
    );
  // dev builds with the last good code and shows the error itself until the sources compile.
  else if (result && !((argv[0] === 'dev' || argv[0] === 'serve') && hasLib)) {
    process.stderr.write(
      `${result.report}\nclaimsite: src/ or templates/ changed since the CLI was compiled and do not compile, so nothing was done: the last good code would not have your edit. Fix the error above and run the command again (npm run build compiles alone).\n`,
    );
    process.exit(1);
  }
}
if (!existsSync(path.join(root, 'lib', 'cli.cjs'))) {
  process.stderr.write(
    'claimsite: lib/cli.cjs is missing: claimsite was not compiled. In a checkout, run npm run build. A site folder installs claimsite as npm pack makes it (from your registry, or a tarball\'s URL), never from a git URL of its sources, which holds no compiled code: see "Publishing claimsite" in its README.\n',
  );
  process.exit(1);
}
const { requireWithCodeCache } = require('../lib/code-cache.cjs');
const cli = requireWithCodeCache(path.join(root, 'lib', 'cli.cjs'));
cli.exports.main(argv).then((code) => {
  process.exitCode = code;
  // A build compiles most of the code: the cache is kept from one.
  if (argv[0] === 'generate' && code === 0) cli.save();
});
