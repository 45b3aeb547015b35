// One Chromium for a whole test run (tests/global-setup.ts): launched as a browser server in a
// process of its own, so that the pages' traffic of every browser test does not pass through
// Vitest's busy main process. Prints its WebSocket endpoint on a line, and closes the browser
// when its standard input closes (the run's end, or the run killed) or on SIGTERM.
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
process.stdout.write(`${server.wsEndpoint()}\n`);
const stop = () => server.close().finally(() => process.exit(0));
process.stdin.on('end', stop).resume();
process.on('SIGTERM', stop);
