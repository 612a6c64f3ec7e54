import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, version as esbuildVersion, type BuildOptions } from 'esbuild';
import { writeFileAtomic } from '../util/files.ts';

/**
 * The script that makes the report's charts interactive, offline: vega, vega-lite and
 * vega-embed (with vega-tooltip) from node_modules in one browser file that sets
 * `window.vegaEmbed`. Vega 6 ships no self-contained browser build (vega-core.min.js expects d3
 * globals), so it is bundled here with esbuild, which tsx already installs; the output is the
 * same bytes on every run for the same package versions, so it is kept in `.cache/vega` under
 * a key of those versions and the build options (bundling is a noticeable part of every run otherwise).
 */
export const VEGA_SCRIPT_FILE = 'vendor/vega-embed.js';

const PACKAGES = ['vega', 'vega-lite', 'vega-embed', 'vega-tooltip'] as const;

/** Where built bundles are kept, under the working directory like the embedding cache (gitignored). */
const CACHE_DIR = join('.cache', 'vega');

let cached: { file: string; text: string } | undefined;

export function vegaEmbedScript(cacheDir = CACHE_DIR): string {
  const versions = PACKAGES.map((p) => {
    const pkg = packageJson(p);
    return `${p} ${pkg.version} (${pkg.license})`;
  });
  const options = {
    stdin: {
      contents: "import embed from 'vega-embed';\nglobalThis.vegaEmbed = embed;\n",
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
    banner: {
      js: `/* tooltax report charts: ${versions.join(', ')}; https://vega.github.io. Bundled with esbuild by src/report/vega-bundle.ts. */`,
    },
  } satisfies BuildOptions;
  const { resolveDir: _where, ...keyed } = options.stdin;
  const key = createHash('sha256')
    .update(JSON.stringify({ esbuild: esbuildVersion, options: { ...options, stdin: keyed } }))
    .digest('hex')
    .slice(0, 16);
  const file = join(cacheDir, `vega-embed-${key}.js`);
  if (cached?.file !== file) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : buildSync(options).outputFiles[0]!.text;
    try {
      if (!existsSync(file)) writeFileAtomic(file, text);
    } catch {
      // A read-only working directory: build again next time.
    }
    cached = { file, text };
  }
  return cached.text;
}

/** A package's package.json, found above its entry point (vega's "exports" hides the file itself). */
function packageJson(name: string): { version: string; license: string } {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version: string; license: string };
      if (pkg.name === name) return pkg;
    } catch {
      // no package.json here: keep walking up
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the package.json of ${name}`);
    dir = dirname(dir);
  }
}
