// Debian's Chromium, headless, for the scripts that look at built pages (screenshots, contact
// sheets): the flags the tests' harness launches it with (tests/e2e/harness.ts).
import { chromium } from 'playwright-core';

export const launchChromium = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
