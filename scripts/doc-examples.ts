/**
 * The commands the docs show, read from their Markdown, so that each one is known to run as
 * shown (scripts/check-doc-examples.ts; the static parts in test/docs/doc-examples.test.ts).
 *
 * Every shell block (```sh, bash, shell, console) carries a marker after its language:
 *   ```sh example   the doc check runs each line in a scratch copy of the repository
 *   ```sh ci        each line is a step .ci/run runs (there with extra arguments, such as --quick)
 *   ```sh usage     not run (it needs a scheduler, a key, or the time of a full run): checked only
 * and optionally `needs=chromium` (skipped, saying so, where no Chromium is found).
 *
 * A line holding a <placeholder> (or an ellipsis) is a usage form wherever it stands. A usage
 * form's npm script, script file, subcommand and options must exist; so must those of every
 * command in inline code (`npm run …`, `npx tsx …`). A trailing comment "# exits N" gives the
 * status a line must end with (default 0); a trailing backslash continues a line.
 */

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const SHELL_LANGUAGES = ['sh', 'bash', 'shell', 'console', 'zsh'] as const;
const MARKERS = ['example', 'ci', 'usage'] as const;
export type Marker = (typeof MARKERS)[number];

export interface DocCommand {
  file: string;
  /** 1-based line of the Markdown file where the command starts. */
  line: number;
  /** The command without its trailing comment, continuations joined. */
  text: string;
  /** Holds a <placeholder>, or stands in a `usage` block: checked but not run. */
  usage: boolean;
  expectedExit: number;
}

export interface ShellBlock {
  file: string;
  line: number;
  /** undefined: the block has no marker (a problem). */
  marker: Marker | undefined;
  needs: string[];
  commands: DocCommand[];
}

/** README.md and every Markdown file under docs/, in a fixed order (paths relative to the root). */
export function docFiles(root: string): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? under(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []))
      .sort();
  return ['README.md', ...under('docs')];
}

/** A <placeholder>, or an ellipsis standing for the rest. */
const PLACEHOLDER = /<[A-Za-z][^<>]*>|…|\.\.\./;

/** Every fenced shell block of a Markdown file, with its commands. */
export function shellBlocks(file: string, markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, , fence, language, rest] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence!)) end++;
    if ((SHELL_LANGUAGES as readonly string[]).includes(language!)) {
      const words = rest!.split(/\s+/).filter(Boolean);
      const marker = MARKERS.find((m) => words.includes(m));
      const needs = words.filter((w) => w.startsWith('needs=')).flatMap((w) => w.slice('needs='.length).split(','));
      const commands = commandsOf(file, i + 2, lines.slice(i + 1, end)).map((c) => (marker === 'usage' ? { ...c, usage: true } : c));
      blocks.push({ file, line: i + 1, marker, needs, commands });
    }
    i = end;
  }
  return blocks;
}

/** The commands in a block's lines (first line number given), comments and blank lines left out. */
function commandsOf(file: string, firstLine: number, lines: string[]): DocCommand[] {
  const out: DocCommand[] = [];
  let pending: { line: number; parts: string[]; comment: string } | undefined;
  lines.forEach((raw, k) => {
    const { code, comment } = splitComment(raw.replace(/^\$ /, ''));
    const continued = /\\\s*$/.test(code);
    const part = code.replace(/\\\s*$/, '').trim();
    if (!pending) {
      if (!part) return;
      pending = { line: firstLine + k, parts: [], comment: '' };
    }
    if (part) pending.parts.push(part);
    if (comment) pending.comment = comment;
    if (continued) return;
    out.push(command(file, pending.line, pending.parts.join(' '), pending.comment));
    pending = undefined;
  });
  if (pending) out.push(command(file, pending.line, pending.parts.join(' '), pending.comment));
  return out;
}

function command(file: string, line: number, text: string, comment: string): DocCommand {
  const exit = /\bexits (\d+)\b/.exec(comment);
  return { file, line, text, usage: PLACEHOLDER.test(text), expectedExit: exit ? Number(exit[1]) : 0 };
}

/** A line's code and its trailing comment: a # at the start or after a space, outside quotes. */
export function splitComment(line: string): { code: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!)))
      return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() };
  }
  return { code: line.trimEnd(), comment: '' };
}

/** Commands in inline code outside fenced blocks: `npm run …`, `npx tsx …`. */
export function inlineCommands(file: string, markdown: string): DocCommand[] {
  const out: DocCommand[] = [];
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    if (fenced) return;
    for (const m of line.matchAll(/`((?:npm run|npx tsx) [^`]+)`/g)) out.push(command(file, i + 1, m[1]!.trim(), ''));
  });
  return out;
}

/** A shell block without a marker, or with a command that is neither run nor a usage form. */
export function markerProblems(blocks: readonly ShellBlock[]): string[] {
  return blocks
    .filter((b) => b.marker === undefined)
    .map(
      (b) =>
        `${b.file}:${b.line}: a shell block needs a marker: \`\`\`sh example (the doc check runs it), \`\`\`sh ci (.ci/run runs it) or \`\`\`sh usage (checked, not run)`,
    );
}

/** Each command of a `ci` block must be a step of .ci/run: a line there that starts with it (after any VAR=value words). */
export function ciProblems(blocks: readonly ShellBlock[], ciScript: string): string[] {
  const steps = ciScript
    .split('\n')
    .map((l) => splitComment(l).code.trim())
    .filter(Boolean)
    .map((l) => l.replace(/^([A-Z_][A-Z0-9_]*=\S*\s+)+/, ''));
  const problems: string[] = [];
  for (const b of blocks.filter((x) => x.marker === 'ci'))
    for (const c of b.commands.filter((x) => !x.usage))
      for (const part of c.text.split(/\s*&&\s*/))
        if (!steps.some((s) => s === part || s.startsWith(`${part} `)))
          problems.push(`${c.file}:${c.line}: \`${part}\` is in a \`\`\`sh ci block but .ci/run has no step that runs it`);
  return problems;
}

/** Words of a command line as a shell splits them (quotes removed), with usage brackets and bars dropped. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out.map((w) => w.replace(/^\[+|\]+$/g, '')).filter((w) => w && w !== '|');
}

/** What the CLI offers: its subcommands and the help text of each (`npm run bench -- <command> --help`). */
export interface CliHelp {
  /** Subcommand → its --help text. */
  commands: ReadonlyMap<string, string>;
  /** The subcommand run when none is named. */
  defaultCommand: string;
}

export interface Repository {
  /** package.json scripts. */
  scripts: Readonly<Record<string, string>>;
  exists(path: string): boolean;
}

/**
 * What a command names that does not exist: an npm script, a script file, and (given the CLI's
 * help) a CLI subcommand or option. Other programs (npx -y, node, export) are not judged.
 */
export function commandProblems(c: DocCommand, repo: Repository, cli?: CliHelp): string[] {
  const problems: string[] = [];
  const at = `${c.file}:${c.line}: \`${c.text}\``;
  for (const part of c.text.split(/\s*&&\s*/)) {
    const w = words(part).filter((x) => !/^[A-Z_][A-Z0-9_]*=/.test(x));
    if (w[0] === 'npm' && w[1] === 'run' && w[2]) {
      const script = w[2];
      if (PLACEHOLDER.test(script)) continue;
      if (!(script in repo.scripts)) {
        problems.push(`${at}: package.json has no script "${script}"`);
        continue;
      }
      const args = w.indexOf('--') >= 0 ? w.slice(w.indexOf('--') + 1) : [];
      if (cli && script === 'bench') problems.push(...cliProblems(at, args, cli));
      else if (cli && script === 'report') problems.push(...cliProblems(at, ['report', ...args], cli));
    } else if (w[0] === 'npx' && w[1] === 'tsx' && w[2] && !PLACEHOLDER.test(w[2]) && !repo.exists(w[2])) {
      problems.push(`${at}: no file ${w[2]}`);
    }
  }
  return problems;
}

function cliProblems(at: string, args: string[], cli: CliHelp): string[] {
  const first = args[0];
  if (first !== undefined && PLACEHOLDER.test(first)) return [];
  const named = first !== undefined && !first.startsWith('-');
  const sub = named ? first : cli.defaultCommand;
  const help = cli.commands.get(sub);
  if (help === undefined)
    return [`${at}: the CLI has no command "${sub}" (npm run bench -- --help lists ${[...cli.commands.keys()].join(', ')})`];
  return args
    .filter((a) => a.startsWith('--') && a !== '--')
    .map((a) => a.split('=')[0]!)
    .filter((name) => name !== '--help' && !new RegExp(`(^|[\\s,])${name.replace(/[-]/g, '\\-')}(?![\\w-])`, 'm').test(help))
    .map((name) => `${at}: "${sub}" has no option ${name} (npm run bench -- ${sub} --help)`);
}
