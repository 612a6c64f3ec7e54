/**
 * The optional dependencies (package.json `optionalDependencies`): an install made with
 * `--omit=optional` has none of them, and `budget`, `lint` and `catalog` do not need them.
 * A module that uses one imports it through `importOptional` so every command still starts
 * there; the code that needs the package then calls `requireOptional` and the user reads
 * which package to add, in one line, instead of a stack trace.
 */
export class MissingOptionalPackageError extends Error {
  override name = 'MissingOptionalPackageError';
  constructor(
    readonly packageName: string,
    purpose: string,
  ) {
    super(`${purpose} needs the optional package ${packageName}, which this install omits: add it with npm i ${packageName}`);
  }
}

/** The module, or undefined when its package is not installed (any other failure to load it is thrown). */
export async function importOptional<T>(specifier: string): Promise<T | undefined> {
  try {
    return (await import(specifier)) as T;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw err;
  }
}

/** The module loaded by importOptional, or the one-line error that names its package. */
export function requireOptional<T>(mod: T | undefined, packageName: string, purpose: string): T {
  if (mod === undefined) throw new MissingOptionalPackageError(packageName, purpose);
  return mod;
}
