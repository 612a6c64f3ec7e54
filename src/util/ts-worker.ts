import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type WorkerOptions } from 'node:worker_threads';
import { build, type Plugin } from 'esbuild';
import { writeFileAtomic } from './files.ts';
import { ownSourceFile } from './own-source.ts';

/**
 * Starts a worker thread running a TypeScript module, compiled with esbuild into one plain
 * ES module first. Node 20 does not pass the tsx loader that runs this process on to worker
 * threads, and loading the module through tsx's API in the worker (as this did before) started
 * a second thread per worker for tsx's module hooks: the bench's lane thread took 68 MiB of
 * RSS that way against 34 MiB from the compiled file. Works under `tsx`, `node --import tsx`
 * and vitest alike.
 */
export async function startTsWorker(
  module: URL | GeneratedEntry,
  workerData: unknown,
  limits?: ResourceLimits,
  /** `stdout`/`stderr: true`: the thread's output is the caller's to read, not this process's. */
  io?: Pick<WorkerOptions, 'stdout' | 'stderr'>,
): Promise<Worker> {
  const options = { workerData, ...(limits ? { resourceLimits: limits } : {}), ...io };
  if (!(module instanceof URL)) return startGenerated(module, options);
  // The installed package runs the JavaScript the build wrote (dist/): nothing to compile.
  const own = ownSourceFile(module);
  if (own !== module) return new Worker(own, options);
  const compiled = await compiledModule(module);
  if (compiled instanceof URL) return new Worker(compiled, options);
  // Nowhere to write the compiled file (a read-only install): load the source through tsx, as before.
  const api = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(module.href)}, ${JSON.stringify(module.href)}))`;
  return new Worker(bootstrap, { eval: true, ...options });
}

/**
 * A worker's entry module written by code: `text(at)` is its source, an ES module that names
 * each module it imports by `at(url)` (this package's TypeScript URLs included), so the same
 * text serves the repository (bundled, as startTsWorker bundles a module) and the installed
 * package (loaded as it is, importing dist/).
 */
export interface GeneratedEntry {
  /** Names the compiled file. */
  name: string;
  text(at: (url: URL) => string): string;
}

// The installed package runs dist/, where this file is JavaScript.
const INSTALLED = import.meta.url.endsWith('.js');

async function startGenerated(entry: GeneratedEntry, options: WorkerOptions): Promise<Worker> {
  if (INSTALLED) {
    const text = entry.text((url) => JSON.stringify(ownSourceFile(url).href));
    return new Worker(new URL(`data:text/javascript,${encodeURIComponent(text)}`), options);
  }
  const text = entry.text((url) => JSON.stringify(fileURLToPath(url)));
  const compiled = await compiledModule({ name: entry.name, text });
  if (compiled instanceof URL) return new Worker(compiled, options);
  throw new Error(`cannot start a worker thread on ${entry.name}: ${compiled.unwritable}`);
}

/**
 * `started`, marked as handled now: a thread started ahead of its first use fails where it is
 * awaited, not as an unhandled rejection (which ends the process) before anything awaits it.
 */
export function awaitedLater<T>(started: Promise<T>): Promise<T> {
  started.catch(() => undefined);
  return started;
}

/** Ends a thread started ahead of its use; one that failed to start has nothing to end. */
export async function endStarted(started: Promise<Pick<Worker, 'terminate'>> | undefined): Promise<void> {
  await started?.then(
    (w) => w.terminate(),
    () => undefined,
  );
}

// Compiled once per process and entry; the file's name is the hash of its text, so a changed
// source never reuses an older build and parallel runs of the same code share one file.
const compiled = new Map<string, Promise<URL | { unwritable: string }>>();

/**
 * `module` and everything it imports from this package, bundled; packages stay imports, so
 * the file lives in this package (`.cache/workers`) where they resolve. Each source's
 * `import.meta.url` is its own file's URL, so paths relative to it (assets, native addons,
 * the hashed sources of the learned model) mean what they meant.
 */
function compiledModule(module: URL | { name: string; text: string }): Promise<URL | { unwritable: string }> {
  const key = module instanceof URL ? module.href : module.text;
  let url = compiled.get(key);
  if (!url) compiled.set(key, (url = compile(module instanceof URL ? fileURLToPath(module) : module)));
  return url;
}

async function compile(entry: string | { name: string; text: string }): Promise<URL | { unwritable: string }> {
  const { outputFiles } = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.text, resolveDir: PACKAGE_ROOT, sourcefile: `${entry.name}.ts`, loader: 'ts' as const } }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [ownMetaUrl],
  });
  const text = outputFiles[0]!.text;
  const name = typeof entry === 'string' ? basename(entry).replace(/\.[cm]?ts$/, '') : entry.name;
  const file = join(WORKERS_DIR, `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`);
  try {
    if (existsSync(file)) utimesSync(file, new Date(), new Date());
    else writeFileAtomic(file, text);
  } catch (e) {
    const reason = `${WORKERS_DIR} is not writable (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
    process.emitWarning(`worker threads load their TypeScript through tsx (one more thread each, for its module hooks): ${reason}`, {
      code: 'TOOLTAX_WORKER_UNCOMPILED',
    });
    return { unwritable: reason };
  }
  pruneOlderBuilds(name, file);
  return pathToFileURL(file);
}

/** Builds of the same module not used for a day go (each edit of a source makes a new one). */
function pruneOlderBuilds(name: string, kept: string): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const f of readdirSync(WORKERS_DIR)) {
    const path = join(WORKERS_DIR, f);
    if (path === kept || !f.startsWith(`${name}-`) || !/^[0-9a-f]{16}\.mjs$/.test(f.slice(name.length + 1))) continue;
    try {
      if (statSync(path).mtimeMs < dayAgo) rmSync(path);
    } catch {
      // Removed by a parallel run meanwhile.
    }
  }
}

const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORKERS_DIR = join(PACKAGE_ROOT, '.cache', 'workers');

/** Replaces `import.meta.url` in each TypeScript source with that source's own file URL. */
const ownMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};
