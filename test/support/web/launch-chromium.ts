import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`, as .ci/run does); playwright-core downloads no browser. */
export const CHROMIUM_PATH = process.env.FLOTILLA_CHROMIUM ?? '/usr/bin/chromium';

/**
 * A headless Chromium for the web dashboard's browser tests and bench. Its own sandbox is off: the tests run
 * as root in a container (Chromium refuses its sandbox there), and the page it opens is ours on 127.0.0.1.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install chromium) or set FLOTILLA_CHROMIUM`,
    );
  }
  return await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}
