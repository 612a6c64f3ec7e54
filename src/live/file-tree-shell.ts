import type { CatalogTool } from '../catalog/types.ts';
import { filePath, wrapperFile } from '../pipelines/code-mode/render.ts';

/**
 * The wrapper file tree of code-mode-files (`servers/<server>/<tool>.ts`, the layout of
 * Anthropic's "code execution with MCP") as a shell the live model explores, with the two
 * commands the pipeline's model runs: `find [path…] [-name|-iname glob] [-type f|d]
 * [-maxdepth n]` and `cat file…`. `find servers -name "*.ts"` prints exactly the listing the
 * bench measures, and `cat` exactly the wrapper file (../pipelines/code-mode/render.ts).
 */
export type FileTreeAnswer = { ok: true; output: string } | { ok: false; error: string; detail: string };

export function fileTreeCommand(words: readonly string[], tools: readonly CatalogTool[]): FileTreeAnswer {
  const tree = fileTree(tools);
  if (words[0] === 'find') return find(words.slice(1), tree);
  if (words[0] === 'cat') return cat(words.slice(1), tree);
  return { ok: false, error: 'unknown_command', detail: 'only `find …` and `cat …` are available' };
}

interface FileTree {
  /** Every path under `.`, a folder before what it holds, the files in catalog order. */
  paths: string[];
  files: Map<string, CatalogTool>;
}

function fileTree(tools: readonly CatalogTool[]): FileTree {
  const paths = ['servers'];
  const files = new Map<string, CatalogTool>();
  for (const t of tools) {
    const path = filePath(t);
    const dir = path.slice(0, path.lastIndexOf('/'));
    if (!paths.includes(dir)) paths.push(dir);
    if (!files.has(path)) paths.push(path);
    files.set(path, t);
  }
  return { paths, files };
}

/** `./servers/x/` → `servers/x`; `.` and `./` → `` (the root). */
const normal = (p: string) =>
  p
    .replace(/^(\.\/)+/, '')
    .replace(/^\.$/, '')
    .replace(/\/+$/, '');

function find(args: readonly string[], tree: FileTree): FileTreeAnswer {
  const starts: string[] = [];
  let i = 0;
  for (; i < args.length && !args[i]!.startsWith('-'); i++) starts.push(args[i]!);
  let name: RegExp | undefined;
  let type: 'f' | 'd' | undefined;
  let maxDepth = Infinity;
  for (; i < args.length; i++) {
    const option = args[i]!;
    const value = args[i + 1];
    if (value === undefined) return findError(`missing argument to \`${option}\``);
    if (option === '-name' || option === '-iname') name = globRegExp(value, option === '-iname');
    else if (option === '-type' && (value === 'f' || value === 'd')) type = value;
    else if (option === '-maxdepth' && /^\d+$/.test(value)) maxDepth = Number(value);
    else return findError(option.startsWith('-') ? `unknown predicate \`${option}\`` : `paths must precede expression: \`${option}\``);
    i++;
  }
  const lines: string[] = [];
  for (const start of starts.length ? starts : ['.']) {
    const root = normal(start);
    const all = ['', ...tree.paths];
    if (!all.includes(root)) return findError(`'${start}': No such file or directory`);
    for (const path of all) {
      if (root && path !== root && !path.startsWith(`${root}/`)) continue;
      const rest = root ? path.slice(root.length) : path ? `/${path}` : '';
      const depth = rest.split('/').length - 1;
      if (depth > maxDepth) continue;
      const isFile = tree.files.has(path);
      if (type && (type === 'f') !== isFile) continue;
      const shown = `${start.replace(/\/+$/, '') || '/'}${rest}`;
      if (name && !name.test(shown.slice(shown.lastIndexOf('/') + 1))) continue;
      lines.push(shown);
    }
  }
  return { ok: true, output: lines.join('\n') };
}

const findError = (detail: string): FileTreeAnswer => ({ ok: false, error: 'invalid_command', detail: `find: ${detail}` });

function cat(args: readonly string[], tree: FileTree): FileTreeAnswer {
  if (!args.length) return { ok: false, error: 'invalid_command', detail: 'cat: expected a file, e.g. `cat servers/<server>/<tool>.ts`' };
  const out: string[] = [];
  for (const arg of args) {
    const path = normal(arg);
    const tool = tree.files.get(path);
    if (tool) out.push(wrapperFile(tool));
    else
      return {
        ok: false,
        error: 'no_such_file',
        detail: `cat: ${arg}: ${tree.paths.includes(path) || path === '' ? 'Is a directory' : 'No such file or directory'}`,
      };
  }
  return { ok: true, output: out.join('\n') };
}

/** A shell glob (`*`, `?`, `[…]`) as a whole-name regular expression. */
function globRegExp(glob: string, ignoreCase: boolean): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[' && glob.indexOf(']', i + 1) > i + 1) {
      const end = glob.indexOf(']', i + 1);
      re += `[${glob
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, ignoreCase ? 'i' : '');
}
