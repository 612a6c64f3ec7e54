import { ownValue, setOwn } from '../util/json.ts';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Catalog, CatalogTool, JsonSchema } from '../catalog/types.ts';
import { renderHelp, renderList, toKebab } from '../pipelines/b4-cli-lazy/render.ts';
import { providerToolName, SHELL_TOOL } from './prompt-bridge.ts';
import { runInSandbox, type SandboxLimits, type SandboxTool } from './sandbox.ts';
import { fileTreeCommand } from './file-tree-shell.ts';
import { resolveWrapperImports } from './wrapper-imports.ts';
import { codeName } from '../pipelines/code-mode/render.ts';
import { toolResult } from '../catalog/tool-results.ts';
import type { LiveToolCall } from './types.ts';

/** What one tool call of the live model was, as graded. */
export interface LiveCallRecord {
  /** The name the model called (provider tool name, or `shell`). */
  name: string;
  /** `tool`: a catalog tool (also one called from code); `discovery`: `--list`/`--help`; `code`: code run in the sandbox; `invalid`: unknown tool or command. */
  kind: 'tool' | 'discovery' | 'code' | 'invalid';
  /** The catalog tool called, when there is one. */
  toolId?: string;
  /** The arguments were not JSON (or not an object). */
  malformed: boolean;
  /** Arguments valid against the tool's inputSchema (ajv); null when not a tool call. */
  argsValid: boolean | null;
  /** Rejected by the hallucination gate (tool not offered this turn). */
  gated: boolean;
  error?: string;
}

export interface ExecutorContext {
  catalog: Catalog;
  /** Catalog tools passed as provider tools this turn, by provider name. */
  toolByName: ReadonlyMap<string, CatalogTool>;
  /** The pipeline declares a hallucination gate: calls to tools not offered are rejected. */
  gate: boolean;
  /** Tools whose full definition the prompt carries this turn (the gate's active set). */
  offered: readonly string[];
  /** The CLI's program name, when the pipeline fronts tools with a CLI. */
  cli?: string;
  /** What the shell runs: the CLI (default), or the wrapper file tree of code-mode-files (./file-tree-shell.ts). */
  shell?: 'cli' | 'files';
}

/**
 * Answers the live model's tool calls the way the harness's world would: a catalog tool returns
 * its result (src/catalog/tool-results.ts, the one the transcript shows), code runs in the
 * sandbox (answerCode), B4's CLI prints the real `--list` /
 * `--help` text and runs a tool from `<cli> <server/tool> --option value`, the hallucination
 * gate rejects calls to tools not offered, and every argument object is validated with ajv
 * against the tool's inputSchema (invalid or malformed arguments get a structured error back).
 */
export class ToolExecutor {
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly byId: Map<string, CatalogTool>;
  private readonly byProviderName: Map<string, CatalogTool>;

  constructor(private readonly catalog: Catalog) {
    this.byId = new Map(catalog.tools.map((t) => [t.id, t]));
    this.byProviderName = new Map(catalog.tools.map((t) => [providerToolName(t), t]));
  }

  answer(call: LiveToolCall, ctx: ExecutorContext): { content: string; record: LiveCallRecord } {
    const base = { name: call.name, malformed: false, argsValid: null, gated: false };
    const tool = ctx.toolByName.get(call.name) ?? this.byProviderName.get(call.name) ?? this.byId.get(call.name);
    // Arguments over a size or nesting limit were not kept (src/live/tool-arguments.ts): a tool error, graded as invalid.
    if (call.argumentsOverLimit)
      return fail(
        tool
          ? { ...base, kind: 'tool', toolId: tool.id, malformed: true, argsValid: false }
          : { ...base, kind: 'invalid', malformed: true },
        'arguments_over_limit',
        call.argumentsOverLimit,
      );
    const parsed = parseObject(call.argumentsText);
    if (ctx.cli && call.name === SHELL_TOOL.name) {
      if (!parsed || typeof parsed.command !== 'string') {
        return fail({ ...base, kind: 'invalid', malformed: !parsed }, 'invalid_arguments', 'expected {"command": "<command line>"}');
      }
      return ctx.shell === 'files' ? this.fileShell(parsed.command, base) : this.shell(parsed.command, ctx, base);
    }
    // A tool the prompt did not offer may still be called by name (a summary or list line shows
    // it): the host forwards it to the server unless the pipeline's hallucination gate rejects it.
    if (!tool) return fail({ ...base, kind: 'invalid' }, 'unknown_tool', `no tool named ${JSON.stringify(call.name)}`);
    if (!parsed)
      return fail(
        { ...base, kind: 'tool', toolId: tool.id, malformed: true, argsValid: false },
        'invalid_arguments',
        'arguments are not a JSON object',
      );
    return this.callTool(tool, parsed, ctx, { ...base, kind: 'tool', toolId: tool.id });
  }

  /**
   * Runs the code of a code tool call (CODE_TOOL_NAMES) in the WebAssembly sandbox
   * (./sandbox.ts): the catalog tools are `codemode.<server>_<tool>` and globals of the same
   * name, each answered as a direct call would be, through the same hallucination gate. A call
   * without an argument passes no arguments (MCP's `arguments` is optional); an argument that
   * is not an object, and a `codemode.<name>` that is no tool, are invalid calls. Returns what
   * the code returned or printed, or its error; the records are the code call's and each tool
   * call the code made.
   */
  async answerCode(
    call: LiveToolCall,
    ctx: ExecutorContext,
    limits?: SandboxLimits,
  ): Promise<{ content: string; records: LiveCallRecord[] }> {
    const base: LiveCallRecord = { name: call.name, kind: 'code', malformed: false, argsValid: null, gated: false };
    const parsed = call.argumentsOverLimit ? null : parseObject(call.argumentsText);
    if (!parsed || typeof parsed.code !== 'string') {
      const { content, record } = fail({ ...base, malformed: true }, 'invalid_arguments', 'expected {"code": "<JavaScript>"}');
      return { content, records: [record] };
    }
    const records: LiveCallRecord[] = [];
    // A tool error is thrown inside the code, as the call's JSON error.
    const answered = (r: { content: string; record: LiveCallRecord }): unknown => {
      records.push(r.record);
      if (r.record.error) throw new Error(r.content);
      return JSON.parse(r.content) as unknown;
    };
    const tools = new Map<string, SandboxTool>();
    for (const tool of this.catalog.tools)
      tools.set(codeName(tool), (args) => {
        const record: LiveCallRecord = { ...base, name: tool.name, kind: 'tool', toolId: tool.id };
        if (args !== undefined && !isObjectArgs(args))
          return answered(fail({ ...record, malformed: true, argsValid: false }, 'invalid_arguments', 'the argument is not an object'));
        return answered(this.callTool(tool, args ?? {}, ctx, record));
      });
    const unknownTool = (name: string) =>
      answered(fail({ ...base, name, kind: 'invalid' }, 'unknown_tool', `no tool named ${JSON.stringify(name)}`));
    const outcome = await runInSandbox(resolveWrapperImports(parsed.code), tools, limits, { unknownTool });
    if (!outcome.ok) {
      const { content, record } = fail(base, 'code_error', outcome.error);
      return { content: JSON.stringify({ ...(JSON.parse(content) as object), logs: outcome.logs }), records: [record, ...records] };
    }
    return { content: JSON.stringify({ result: outcome.result, logs: outcome.logs }), records: [base, ...records] };
  }

  private callTool(tool: CatalogTool, args: Record<string, unknown>, ctx: ExecutorContext, base: LiveCallRecord) {
    if (ctx.gate && !ctx.offered.includes(tool.id)) {
      const content = JSON.stringify({ error: 'tool_not_available', tool: tool.id, available: [...ctx.offered] });
      return { content, record: { ...base, gated: true, argsValid: null, error: 'tool_not_available' } };
    }
    const validate = this.validator(tool.id, tool.definition.inputSchema);
    if (!validate(args)) {
      const why = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim()).join('; ');
      return fail({ ...base, argsValid: false }, 'invalid_arguments', why);
    }
    return { content: toolResult(this.catalog, tool.id).text, record: { ...base, argsValid: true } };
  }

  private fileShell(command: string, base: Omit<LiveCallRecord, 'kind'>) {
    const r = fileTreeCommand(splitCommandLine(command), this.catalog.tools);
    return r.ok
      ? { content: r.output, record: { ...base, kind: 'discovery' as const } }
      : fail({ ...base, kind: 'invalid' }, r.error, r.detail);
  }

  private shell(command: string, ctx: ExecutorContext, base: Omit<LiveCallRecord, 'kind'>) {
    const words = splitCommandLine(command);
    if (words[0] !== ctx.cli) return fail({ ...base, kind: 'invalid' }, 'unknown_command', `only \`${ctx.cli}\` is available`);
    if (words[1] === '--list') return { content: renderList(this.catalog.tools), record: { ...base, kind: 'discovery' as const } };
    if (words[1] === '--help' || words[2] === '--help' || words[2] === '-h') {
      const id = words[1] === '--help' ? words[2] : words[1];
      const tool = id ? this.byId.get(id) : undefined;
      if (!tool)
        return fail({ ...base, kind: 'invalid' }, 'unknown_tool', `no tool ${JSON.stringify(id ?? '')}; run \`${ctx.cli} --list\``);
      return { content: renderHelp(ctx.cli, tool), record: { ...base, kind: 'discovery' as const } };
    }
    const tool = words[1] ? this.byId.get(words[1]) : undefined;
    if (!tool)
      return fail({ ...base, kind: 'invalid' }, 'unknown_tool', `no tool ${JSON.stringify(words[1] ?? '')}; run \`${ctx.cli} --list\``);
    const args = flagsToArguments(words.slice(2), tool.definition.inputSchema);
    if (!args)
      return fail(
        { ...base, kind: 'tool', toolId: tool.id, malformed: true, argsValid: false },
        'invalid_arguments',
        'expected --option value pairs',
      );
    // A CLI call passes no schema through the prompt: the gate's active set is every tool (the CLI fronts them all).
    return this.callTool(tool, args, { ...ctx, gate: false }, { ...base, kind: 'tool', toolId: tool.id });
  }

  private validator(id: string, schema: JsonSchema): ValidateFunction {
    let v = this.validators.get(id);
    if (!v) {
      try {
        v = this.ajv.compile(schema);
      } catch {
        // A schema ajv cannot compile validates nothing rather than failing the run.
        v = this.ajv.compile({});
      }
      this.validators.set(id, v);
    }
    return v;
  }
}

function fail(record: LiveCallRecord, error: string, detail: string): { content: string; record: LiveCallRecord } {
  return { content: JSON.stringify({ error, detail }), record: { ...record, error } };
}

function isObjectArgs(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Words of a command line: whitespace-separated, with '…' and "…" quoting (no escapes in single quotes). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** `--flag value` / `--switch` words → an argument object keyed by the schema's property names (mcp2cli's kebab flags). */
function flagsToArguments(words: readonly string[], schema: JsonSchema): Record<string, unknown> | null {
  const props = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const byFlag = new Map(Object.keys(props).map((name) => [`--${toKebab(name)}`, name]));
  const args: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i++) {
    const [flag, inline] = words[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const name = byFlag.get(flag) ?? (flag.startsWith('--') ? flag.slice(2) : null);
    if (!name) return null;
    const type = ownValue(props, name)?.type;
    if (type === 'boolean' && inline === undefined) {
      setOwn(args, name, true);
      continue;
    }
    const raw = inline ?? words[++i];
    if (raw === undefined) return null;
    setOwn(args, name, typed(raw, type));
  }
  return args;
}

function typed(raw: string, type: unknown): unknown {
  if (type === 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
