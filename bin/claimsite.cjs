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
const cli = requireWithCodeCache(path.join(__dirname, '..', 'lib', 'cli.cjs'));
const argv = process.argv.slice(2);
cli.exports.main(argv).then((code) => {
  process.exitCode = code;
  // A build compiles most of the code: the cache is kept from one.
  if (argv[0] === 'generate' && code === 0) cli.save();
});
