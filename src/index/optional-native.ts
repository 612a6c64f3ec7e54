/** An optional native package: loaded, or the reason it cannot be used. */
export type OptionalModule<T> = { ok: true; module: T; version: string } | { ok: false; reason: string };

const loaded = new Map<string, Promise<OptionalModule<unknown>>>();

/**
 * Imports an optional dependency with a native binding once per process (faiss-node,
 * hnswlib-node): it may be absent or unbuilt on a machine, so the reason is returned instead
 * of thrown and callers fall back or skip. `check` looks at the loaded module (and may probe
 * it: a binding built against the wrong library can load yet fail on first use) and returns
 * what is wrong with it, if anything; `hint` follows the reason (how to build it).
 */
export function loadOptionalNative<T>(pkg: string, check: (module: T) => string | undefined, hint = ''): Promise<OptionalModule<T>> {
  let load = loaded.get(pkg) as Promise<OptionalModule<T>> | undefined;
  if (!load) {
    load = (async (): Promise<OptionalModule<T>> => {
      try {
        // A variable specifier keeps tsc from requiring the package (or its types) at compile time.
        const mod = (await import(pkg)) as { default?: T } & Partial<T>;
        const module = (mod.default ?? mod) as T;
        const wrong = check(module);
        if (wrong) return { ok: false, reason: `${pkg} ${wrong}` };
        let version = 'unknown';
        try {
          const { createRequire } = await import('node:module');
          version = (createRequire(import.meta.url)(`${pkg}/package.json`) as { version: string }).version;
        } catch {
          // The version is only for reports.
        }
        return { ok: true, module, version };
      } catch (err) {
        const msg = err instanceof Error ? err.message.split('\n')[0]! : String(err);
        return { ok: false, reason: `${pkg} not usable (${msg})${hint}` };
      }
    })();
    loaded.set(pkg, load);
  }
  return load;
}
