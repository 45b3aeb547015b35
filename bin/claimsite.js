#!/usr/bin/env node
// Thin entry: the CLI is compiled to lib/ by `npm run build` (run on install by `prepare`).
// React's development build is many times slower and adds nothing to static output, so the
// production build is chosen before React loads (an explicit NODE_ENV still wins).
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../lib/code-cache.js';

process.env.NODE_ENV ??= 'production';
const cli = requireWithCodeCache(fileURLToPath(new URL('../lib/cli.cjs', import.meta.url)));
const argv = process.argv.slice(2);
process.exitCode = await cli.exports.main(argv);
// A build compiles most of the code: the cache is kept from one.
if (argv[0] === 'generate' && process.exitCode === 0) cli.save();
