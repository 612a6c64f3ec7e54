import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Debian's Chromium (`apt-get install -y chromium`), or the browser named by $CHROMIUM.
 * Flags: headless and quiet on a machine with no network beyond the package registries.
 */
const CHROMIUM_CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM;
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of CHROMIUM_CANDIDATES) if (isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

export const CHROMIUM_MISSING =
  "chromium not found (install Debian's chromium: apt-get install -y chromium, or set CHROMIUM to a Chromium/Chrome executable)";

export function chromiumArgs(userDataDir: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--disable-dev-shm-usage',
    '--hide-scrollbars',
    '--mute-audio',
    `--user-data-dir=${userDataDir}`,
    'about:blank',
  ];
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
