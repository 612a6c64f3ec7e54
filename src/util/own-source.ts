import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A source file of this package by its TypeScript URL (`new URL('./x.ts', import.meta.url)`):
 * itself when it exists (the repository, run through tsx), else the JavaScript file the build
 * wrote for it (the installed package runs dist/, where `x.ts` is `x.js`).
 */
export function ownSourceFile(url: URL): URL {
  if (!url.pathname.endsWith('.ts') || existsSync(fileURLToPath(url))) return url;
  const js = new URL(url.href.replace(/\.ts$/, '.js'));
  return existsSync(fileURLToPath(js)) ? js : url;
}
