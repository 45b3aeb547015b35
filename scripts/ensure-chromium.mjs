// The browser tests need Chromium. Find it (CHROMIUM_PATH or Debian's /usr/bin/chromium);
// when missing and we may install packages (root with apt-get), install it; otherwise say
// exactly what is missing and stop, rather than failing later inside a test.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const wanted = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(wanted)) {
  const canInstall =
    process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && !process.env.CHROMIUM_PATH;
  if (!canInstall) {
    console.error(
      `The browser tests need Chromium, and none was found at ${wanted}.\n` +
        'Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.',
    );
    process.exit(1);
  }
  console.error('Chromium is missing: installing it with apt-get for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  if (!existsSync(wanted)) {
    console.error(`apt-get finished but ${wanted} is still missing.`);
    process.exit(1);
  }
}
