import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { describeValue, InputError, jsonParseReason } from '../util/input-error.ts';
import { isObject, ownValue } from '../util/json.ts';
import { misspeltKeyHint, quoteKey } from '../util/known-keys.ts';
import { didYouMean } from '../util/nearest.ts';
import { checkJsonLimits, DEFAULT_LIMITS, readInputFile, type InputLimits } from '../util/limits.ts';
import { collectSecrets, type ServerSpec, type TransportKind } from './spec.ts';

/**
 * Splits a command line the way a POSIX shell would split words, without running a shell:
 * whitespace separates words, '...' is literal, "..." allows \" \\ \$ escapes, a backslash
 * outside quotes escapes the next character. Leading `NAME=value` words are environment
 * assignments (as in `GITHUB_TOKEN=x npx server`). No globbing, no $VAR expansion.
 */
export function splitCommandLine(line: string): { env: Record<string, string>; command: string; args: string[] } {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in ${JSON.stringify(line)}`);
      cur += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && '"\\$`'.includes(line[j + 1] ?? '')) j++;
        cur += line[j];
      }
      if (j >= line.length) throw new Error(`unterminated " in ${JSON.stringify(line)}`);
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  const env: [string, string][] = [];
  while (words.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
    const w = words.shift()!;
    const eq = w.indexOf('=');
    env.push([w.slice(0, eq), w.slice(eq + 1)]);
  }
  if (words.length === 0 || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) throw new Error(`no command in ${JSON.stringify(line)}`);
  return { env: Object.fromEntries(env), command: words[0]!, args: words.slice(1) };
}

/** A spec for `--from-server "<command and args>"`, started in `cwd` (the folder the user typed the command in). */
export function specFromCommandLine(line: string, index: number, cwd?: string): ServerSpec {
  const origin = `--from-server #${index + 1}`;
  try {
    const { env, command, args } = splitCommandLine(line);
    const spec: ServerSpec = { name: null, origin, transport: 'stdio', command, args, env, secrets: [], ...(cwd ? { cwd } : {}) };
    spec.secrets = collectSecrets(spec);
    return spec;
  } catch (err) {
    return { name: null, origin, transport: 'stdio', secrets: [], problem: (err as Error).message };
  }
}

/** A spec for `--from-url <url>` (Streamable HTTP). */
export function specFromUrl(url: string, index: number): ServerSpec {
  const spec: ServerSpec = { name: null, origin: `--from-url #${index + 1}`, transport: 'http', url, secrets: [] };
  spec.secrets = collectSecrets(spec);
  return spec;
}

/**
 * The servers of an MCP client config:
 * - Claude Desktop (`claude_desktop_config.json`), Claude Code (`.mcp.json`, `~/.claude.json`),
 *   Cursor (`.cursor/mcp.json`), Windsurf, Cline: `{ "mcpServers": { name: entry } }`;
 * - VS Code (`.vscode/mcp.json`): `{ "servers": { name: entry }, "inputs": [...] }`, or its
 *   `settings.json` with `"mcp": { "servers": ... }`.
 * An entry is `{ command, args?, env?, cwd? }` (stdio) or `{ url, headers? }` with `type`
 * `http`/`streamable-http`/`streamableHttp` (Streamable HTTP) or `sse`.
 * Variables: `${env:NAME}` (Cursor, VS Code), `${NAME}` and `${NAME:-default}` (Claude Code),
 * `${workspaceFolder}` (VS Code: the folder holding `.vscode/`, else the config's folder) and
 * `${userHome}`. A value expanded from the environment is a secret (never printed). An entry
 * using `${input:...}` (VS Code prompts for it) or an unset variable without default is not
 * run; its problem is reported and the others still run. Entries with `"disabled": true` are skipped.
 * Errors about the file as a whole are InputErrors (exit 2).
 */
export function readClientConfig(file: string, env: NodeJS.ProcessEnv = process.env, limits: InputLimits = DEFAULT_LIMITS): ServerSpec[] {
  if (!existsSync(file))
    throw new InputError(file, '', 'an MCP client config file (JSON with "mcpServers" or "servers")', `nothing at ${resolve(file)}`);
  const text = readInputFile(file, limits);
  let data: unknown;
  try {
    data = JSON.parse(stripJsonComments(text));
  } catch (err) {
    throw new InputError(file, '', 'valid JSON (comments allowed)', jsonParseReason(err));
  }
  checkJsonLimits(file, '$', data, limits);
  if (!isObject(data)) throw new InputError(file, '$', 'an object with "mcpServers" or "servers"', describeValue(data));
  let block: unknown;
  let path: string;
  if (data.mcpServers !== undefined) [block, path] = [data.mcpServers, 'mcpServers'];
  else if (data.servers !== undefined) [block, path] = [data.servers, 'servers'];
  else if (isObject(data.mcp) && data.mcp.servers !== undefined) [block, path] = [data.mcp.servers, 'mcp.servers'];
  else
    throw new InputError(
      file,
      '$',
      'an "mcpServers" block (Claude Desktop, Claude Code, Cursor) or a "servers" block (VS Code mcp.json)',
      `${describeValue(data)}, none of them one of these${misspeltKeyHint(data, 'mcpServers') || misspeltKeyHint(data, 'servers')}`,
    );
  if (!isObject(block)) throw new InputError(file, `$.${path}`, 'an object keyed by server name', describeValue(block));
  const dir = dirname(resolve(file));
  const vars = { workspaceFolder: basename(dir) === '.vscode' ? dirname(dir) : dir, userHome: env.HOME ?? '' };
  const specs: ServerSpec[] = [];
  for (const [name, entry] of Object.entries(block)) {
    const origin = `${file}: ${path}.${name}`;
    if (!isObject(entry)) throw new InputError(file, `$.${path}.${name}`, 'a server entry object', describeValue(entry));
    if (entry.disabled === true) continue;
    specs.push(specFromEntry(name, origin, entry, vars, env));
  }
  if (specs.length === 0) throw new InputError(file, `$.${path}`, 'at least one enabled server', 'none');
  return specs;
}

/** The keys of a server entry tooltax reads. */
const ENTRY_KEYS = ['command', 'args', 'env', 'cwd', 'envFile', 'url', 'headers', 'type', 'disabled'];

function specFromEntry(
  name: string,
  origin: string,
  entry: Record<string, unknown>,
  vars: Record<string, string>,
  env: NodeJS.ProcessEnv,
): ServerSpec {
  const expanded: string[] = [];
  const problems: string[] = [];
  const expand = (v: unknown, where: string): string => {
    if (typeof v !== 'string') {
      problems.push(`${where} is ${describeValue(v)}, expected a string`);
      return '';
    }
    return v.replace(/\$\{([^}]+)\}/g, (whole, inner: string) => {
      if (inner.startsWith('input:')) {
        problems.push(`${where} uses ${whole}, which VS Code prompts for; put the value in the environment and use \${env:NAME}`);
        return '';
      }
      if (Object.hasOwn(vars, inner)) return vars[inner]!;
      const m = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/.exec(inner);
      if (!m) {
        problems.push(`${where} uses the unsupported variable ${whole}`);
        return '';
      }
      const value = ownValue(env, m[1]!) ?? m[2];
      if (value === undefined) {
        problems.push(`${where} uses ${whole} but ${m[1]} is not set`);
        return '';
      }
      if (value) expanded.push(value);
      return value;
    });
  };
  const record = (v: unknown, where: string): Record<string, string> | undefined => {
    if (v === undefined) return undefined;
    if (!isObject(v)) {
      problems.push(`${where} is ${describeValue(v)}, expected an object of strings`);
      return undefined;
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x, `${where}.${k}`)]));
  };
  const type = typeof entry.type === 'string' ? entry.type : undefined;
  let transport: TransportKind;
  if (type === 'sse') transport = 'sse';
  else if (
    type === 'http' ||
    type === 'streamable-http' ||
    type === 'streamableHttp' ||
    (type === undefined && entry.url !== undefined && entry.command === undefined)
  )
    transport = 'http';
  else if (type === undefined || type === 'stdio') transport = 'stdio';
  else {
    transport = 'stdio';
    problems.push(`type "${type}" is not one of stdio, http, streamable-http, sse`);
  }
  // Clients add keys of their own (autoApprove, timeout...): only a near miss of one of ours is a mistake.
  for (const key of Object.keys(entry)) {
    const near = ENTRY_KEYS.includes(key) ? '' : didYouMean(key, ENTRY_KEYS, 1, (k) => `"${k}"`);
    if (near) problems.push(`${quoteKey(key)} is not a key of a server entry${near}`);
  }
  const spec: ServerSpec = { name, origin, transport, secrets: [] };
  if (transport === 'stdio') {
    if (typeof entry.command !== 'string' || !entry.command) problems.push('a stdio server needs "command" (a string)');
    else spec.command = expand(entry.command, 'command');
    if (entry.args !== undefined) {
      if (!Array.isArray(entry.args)) problems.push(`args is ${describeValue(entry.args)}, expected an array of strings`);
      else spec.args = entry.args.map((a, i) => expand(a, `args[${i}]`));
    }
    spec.env = record(entry.env, 'env');
    if (entry.cwd !== undefined) spec.cwd = expand(entry.cwd, 'cwd');
    if (entry.envFile !== undefined) problems.push('envFile is not supported; put the variables in "env"');
  } else {
    if (typeof entry.url !== 'string' || !entry.url) problems.push(`a ${transport} server needs "url" (a string)`);
    else spec.url = expand(entry.url, 'url');
    spec.headers = record(entry.headers, 'headers');
  }
  spec.secrets = [...new Set([...collectSecrets(spec), ...expanded])];
  if (problems.length) spec.problem = problems.join('; ');
  return spec;
}

/**
 * Blanks // and /* *\/ comments outside strings (VS Code's JSONC), then trailing commas. Each is
 * replaced by as many spaces (newlines kept), so a parse error's position is the one in the file.
 */
export function stripJsonComments(text: string): string {
  const blank = (t: string, i: number, skip: number) => ({ skip, insert: t.slice(i, i + skip).replace(/[^\n]/g, ' ') });
  const noComments = scanOutsideStrings(text, (t, i) => {
    if (t.startsWith('//', i)) {
      const end = t.indexOf('\n', i);
      return blank(t, i, (end < 0 ? t.length : end) - i);
    }
    if (t.startsWith('/*', i)) {
      const end = t.indexOf('*/', i + 2);
      return blank(t, i, (end < 0 ? t.length : end + 2) - i);
    }
    return undefined;
  });
  const trailingComma = /,\s*[}\]]/y;
  return scanOutsideStrings(noComments, (t, i) => {
    if (t[i] !== ',') return undefined;
    trailingComma.lastIndex = i;
    return trailingComma.test(t) ? { skip: 1, insert: ' ' } : undefined;
  });
}

/** Copies a JSON text, letting `at` replace text outside string literals. */
function scanOutsideStrings(text: string, at: (text: string, i: number) => { skip: number; insert: string } | undefined): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    if (text[i] === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) if (text[j] === '\\') j++;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const hit = at(text, i);
    if (hit) {
      out += hit.insert;
      i += Math.max(1, hit.skip);
    } else out += text[i++];
  }
  return out;
}
