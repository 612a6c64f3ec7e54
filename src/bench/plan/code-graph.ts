import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ownSourceFile } from '../../util/own-source.ts';

/**
 * The harness's modules and what each imports, from esbuild's metafile (nothing is written):
 * the code a unit runs is the modules reachable from its entry's module. Type-only imports are
 * no edges (they do not run); a worker thread's module (`new URL('./x.ts', import.meta.url)`)
 * is one. Packages are outside the graph: the lockfile stands for them.
 */
export class CodeGraph {
  private constructor(
    private readonly root: string,
    private readonly imports: ReadonlyMap<string, readonly string[]>,
    private readonly read: (path: string) => Buffer | string,
  ) {}

  /** The graph of every module reachable from `modules` (file: URLs or paths), read with `read` (default: the file's bytes). */
  static async of(root: string, modules: readonly string[], read: (path: string) => Buffer | string = readFileSync): Promise<CodeGraph> {
    const imports = new Map<string, string[]>();
    let entries = [...new Set(modules.map((m) => toPath(m)))];
    // Each round adds the worker modules the last one found (a worker's own imports need a build from it).
    while (entries.length) {
      // One bundle importing every entry: esbuild writes one output instead of one per entry (nothing is written to disk).
      const result = await build({
        absWorkingDir: root,
        stdin: { contents: entries.map((e) => `import ${JSON.stringify(e)};`).join('\n'), resolveDir: root, loader: 'ts' },
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        write: false,
        metafile: true,
        outfile: join(root, '.cache', 'code-graph.js'),
        logLevel: 'silent',
      });
      for (const [key, input] of Object.entries(result.metafile.inputs)) {
        const path = join(root, key);
        if (imports.has(path)) continue;
        const found = input.imports.filter((i) => !i.external).map((i) => join(root, i.path));
        imports.set(path, [...found, ...workerModules(path, read)]);
      }
      entries = [...new Set([...imports.values()].flat())].filter((p) => !imports.has(p) && existsSync(p));
    }
    return new CodeGraph(root, imports, read);
  }

  /** The modules reachable from `module`, not going through `boundaries` (which are left out), sorted. */
  reachable(module: string, boundaries: ReadonlySet<string> = new Set()): string[] {
    const seen = new Set<string>();
    const todo = [toPath(module)];
    while (todo.length) {
      const path = todo.pop()!;
      if (seen.has(path) || boundaries.has(path)) continue;
      seen.add(path);
      todo.push(...(this.imports.get(path) ?? []));
    }
    return [...seen].sort();
  }

  /** SHA-256 of the modules reachable from `module` (each path, relative to the root, and its content's SHA-256). */
  hash(module: string, boundaries: ReadonlySet<string> = new Set()): string {
    const hash = createHash('sha256');
    for (const path of this.reachable(module, boundaries))
      hash.update(`${relative(this.root, path).split(sep).join('/')}\u0000${this.fileHash(path)}\u0000`);
    return hash.digest('hex');
  }

  /** Each file is read and hashed once per graph (a graph lives for one run). */
  private readonly fileHashes = new Map<string, string>();

  private fileHash(path: string): string {
    let h = this.fileHashes.get(path);
    if (h === undefined) {
      h = existsSync(path) ? createHash('sha256').update(this.read(path)).digest('hex') : '(missing)';
      this.fileHashes.set(path, h);
    }
    return h;
  }
}

/** A module given as a file: URL or a path, as an absolute path. */
export function toPath(module: string): string {
  const path = module.startsWith('file:') ? fileURLToPath(module) : module;
  if (!isAbsolute(path)) throw new Error(`code graph: expected a file: URL or an absolute path, got ${JSON.stringify(module)}`);
  // The installed package runs dist/, where a module named by its TypeScript URL is `x.js`.
  return fileURLToPath(ownSourceFile(pathToFileURL(path)));
}

const WORKER_URL = /new URL\(\s*['"](\.{1,2}\/[^'"]+\.[cm]?[jt]s)['"]\s*,\s*import\.meta\.url\s*\)/g;

/** The modules `path` starts as worker threads (`new URL('./x.ts', import.meta.url)`). */
function workerModules(path: string, read: (path: string) => Buffer | string): string[] {
  if (!/\.[cm]?[jt]s$/.test(path) || !existsSync(path)) return [];
  const text = read(path).toString();
  return [...text.matchAll(WORKER_URL)].map((m) => fileURLToPath(new URL(m[1]!, pathToFileURL(path))));
}
