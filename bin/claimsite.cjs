#!/usr/bin/env node
// Thin entry: the CLI is compiled to lib/ by `npm run build` (run on install by `prepare`).
// CommonJS, like the CLI it loads: an ES module entry starts Node's ES module loader, a cost
// of every run here, and nothing on this path needs it.
// React's development build is many times slower and adds nothing to static output, so the
// production build is chosen before React loads (an explicit NODE_ENV still wins).
'use strict';
const path = require('node:path');
const { requireWithCodeCache } = require('../lib/code-cache.cjs');

process.env.NODE_ENV ??= 'production';
const argv = process.argv.slice(2);
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
const cli = requireWithCodeCache(path.join(__dirname, '..', 'lib', 'cli.cjs'));
cli.exports.main(argv).then((code) => {
  process.exitCode = code;
  // A build compiles most of the code: the cache is kept from one.
  if (argv[0] === 'generate' && code === 0) cli.save();
});
