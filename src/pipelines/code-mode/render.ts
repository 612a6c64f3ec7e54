import type * as CodeMode from '@cloudflare/codemode/browser';
import type { CatalogTool, JsonSchema, McpTool } from '../../catalog/types.ts';
import { importOptional, requireOptional } from '../../util/optional-package.ts';

/** Cloudflare's renderer, an optional dependency: a light install still starts every command. */
const codemode = await importOptional<typeof CodeMode>('@cloudflare/codemode/browser');

/**
 * The catalog as Cloudflare Code Mode renders it, by the library itself (`@cloudflare/codemode`,
 * its `browser` entry, which runs in plain Node: its main entry needs the Workers runtime).
 * `createBrowserCodeTool` turns JSON Schema tools into one `codemode` tool whose description is
 * the library's instructions around a TypeScript API: an input and an output type per tool and
 * `declare const codemode: { … }` with each tool's description as a doc comment. Nothing here
 * executes: the tools' functions are stubs, and the executor is never called.
 */
export function codeModeTool(tools: readonly CatalogTool[]): McpTool {
  // From entries: a tool named `constructor` is a tool like any other.
  const descriptors = Object.fromEntries(
    tools.map((t) => [
      codeName(t),
      {
        description: t.definition.description,
        inputSchema: t.definition.inputSchema,
        ...(t.definition.outputSchema ? { outputSchema: t.definition.outputSchema } : {}),
        execute: notRun,
      },
    ]),
  );
  const { createBrowserCodeTool } = requireOptional(codemode, '@cloudflare/codemode', 'the code-mode pipeline');
  const tool = createBrowserCodeTool({ tools: descriptors as never, executor: { execute: notRun } as never });
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema as JsonSchema };
}

/**
 * The description codeModeTool(tools) has, for any set of tools, each tool rendered by the
 * library once. The library renders every tool on its own and joins the parts (each tool's
 * input and output types, then each one's member of `declare const codemode: { … }`), so a
 * set's description is its tools' one-tool parts joined the same way and put in the library's
 * template (test/pipelines checks it against the library on many sets). A tool whose one-tool
 * rendering does not split cleanly at the declaration sends its sets to the library whole.
 */
export class CodeModeDescriptions {
  private readonly parts = new Map<CatalogTool, { types: string; member: string } | null>();
  private template: string | undefined;

  of(tools: readonly CatalogTool[]): string {
    // One entry per method name, as in the library's record: the first one's place, the last one's tool.
    const byName = new Map<string, CatalogTool>();
    for (const t of tools) byName.set(codeName(t), t);
    const parts = [...byName.values()].map((t) => this.partsOf(t));
    if (!tools.length || parts.some((p) => p === null)) return codeModeTool(tools).description ?? '';
    const types = `${parts.map((p) => p!.types).join('\n')}${DECLARATION}${parts.map((p) => p!.member).join('')}}`;
    // String.replace as the library calls it, `$` patterns included.
    return this.templateText().replace(TYPES_SLOT, types);
  }

  private templateText(): string {
    return (this.template ??= (codeModeTool([]).description ?? '').replace(`${DECLARATION.trim()}}`, TYPES_SLOT));
  }

  private partsOf(tool: CatalogTool): { types: string; member: string } | null {
    let known = this.parts.get(tool);
    if (known === undefined) {
      known = null;
      const whole = codeModeTool([tool]).description ?? '';
      const [before, after] = this.templateText().split(TYPES_SLOT) as [string, string];
      const types = whole.startsWith(before) && whole.endsWith(after) ? whole.slice(before.length, whole.length - after.length) : '';
      const at = types.indexOf(DECLARATION);
      if (at > 0 && at === types.lastIndexOf(DECLARATION) && types.endsWith('}') && !types.includes('$'))
        known = { types: types.slice(0, at), member: types.slice(at + DECLARATION.length, -1) };
      this.parts.set(tool, known);
    }
    return known;
  }
}
const DECLARATION = '\n\ndeclare const codemode: {';
const TYPES_SLOT = '{{types}}';

function notRun(): Promise<never> {
  return Promise.reject(new Error('code mode rendering: tools are not run while rendering'));
}

/**
 * A tool's method name on the `codemode` object: `<server>_<tool>` with every other character
 * an underscore, a valid identifier already, so the library's own sanitising keeps it as is and
 * two servers' tools of one name stay apart.
 */
export function codeName(tool: Pick<CatalogTool, 'server' | 'name'>): string {
  const ident = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');
  const name = tool.server ? `${ident(tool.server)}_${ident(tool.name)}` : ident(tool.name);
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/**
 * A tool's wrapper file as Anthropic's "code execution with MCP" lays them out
 * (`servers/<server>/<tool>.ts`): its input and output types (Code Mode's rendering of this one
 * tool), its description as a comment, and an exported function that calls the MCP tool. The
 * function's name is codeName's, the name the code calls it by in the bench's modelled code and
 * in live mode's sandbox.
 */
export function wrapperFile(tool: CatalogTool): string {
  const rendered = codeModeTool([tool]).description ?? '';
  const start = rendered.indexOf('type ');
  const end = rendered.indexOf('\ndeclare const codemode');
  const types = start >= 0 && end > start ? rendered.slice(start, end).trim() : '';
  const typeName = (suffix: string) => new RegExp(`type (\\w+${suffix}) =`).exec(types)?.[1] ?? 'unknown';
  const description = (tool.definition.description ?? '').replace(/\*\//g, '* /').replace(/\s+/g, ' ').trim();
  return [
    `// ${filePath(tool)}`,
    `import { callMCPTool } from "../../client.js";`,
    '',
    types,
    '',
    `/* ${description} */`,
    `export async function ${codeName(tool)}(input: ${typeName('Input')}): Promise<${typeName('Output')}> {`,
    `  return callMCPTool<${typeName('Output')}>(${JSON.stringify(tool.id)}, input);`,
    '}',
  ].join('\n');
}

/** Where a tool's wrapper file is: `servers/<server>/<tool>.ts`, each part a safe path segment. */
export function filePath(tool: Pick<CatalogTool, 'server' | 'name'>): string {
  const seg = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_');
  return `servers/${seg(tool.server)}/${seg(tool.name)}.ts`;
}
