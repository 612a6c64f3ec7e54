/**
 * Model code for code-mode-files imports the functions it calls from their wrapper files
 * (`import { github_get_me } from "./servers/github/get_me.ts"`), as the pipeline's note tells
 * it to. The sandbox has no module loader: each such import becomes a binding of the same tool
 * functions the sandbox holds (`const { github_get_me } = codemode;`, on the same line, so the
 * line numbers of errors stay). The wrapper files export the sandbox's names (codeName), so an
 * import of a function that is not there fails as the code runs. Any other import is left for
 * the sandbox to refuse.
 */
const WRAPPER_IMPORT = /^([ \t]*)import\s*\{([^}]*)\}\s*from\s*(['"])((?:\.{1,2}\/)*servers\/[^'"]+)\3[ \t]*;?[ \t]*$/gm;

export function resolveWrapperImports(code: string): string {
  return code.replace(WRAPPER_IMPORT, (_line, indent: string, names: string) => {
    const bindings = names
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)
      .map((n) => n.replace(/\s+as\s+/, ': '));
    return `${indent}const { ${bindings.join(', ')} } = codemode;`;
  });
}
