import type { ToolResult } from '../../catalog/tool-results.ts';
import type { Catalog, CatalogTool } from '../../catalog/types.ts';
import { exampleArguments } from '../../prompt/example-values.ts';
import { directTranscript, resultLine } from '../../prompt/shared-parts.ts';
import { keptSection, section } from '../../prompt/sections.ts';
import type { TaskTurn } from '../../tasks/types.ts';
import { isObject } from '../../util/json.ts';
import { requestedFields, trimResponse } from '../adol/require-output.ts';
import type { TurnTranscript } from '../types.ts';

/**
 * How a code-executing host writes and runs a turn's calls (modelled, †: the bench has no model
 * to write the code; docs/measurement.md, "Tool results"):
 * - `arrow`: Code Mode's form, `async () => { … return … }` sent to the `codemode` tool;
 * - `script`: a script with top-level await that prints with console.log (Anthropic's code
 *   execution with MCP, programmatic tool calling).
 */
export interface CodeStyle {
  /** The tool the code is sent with: `codemode`, `execute`, `code_execution`. */
  tool: string;
  form: 'arrow' | 'script';
  /** The expression that calls a tool: `codemode.github_list_pull_requests`. */
  callee(tool: CatalogTool): string;
}

/**
 * The transcript of a turn whose calls ran as one piece of code: the code (one awaited call per
 * tool with the transcript's example arguments) and only what it printed, by task shape: a
 * lookup prints its answer (printedAnswer), a chain of calls prints its last step. A turn
 * without a call is the direct transcript.
 */
export function codeTranscript(
  catalog: Catalog,
  results: ReadonlyMap<string, ToolResult>,
  turnIndex: number,
  turn: TaskTurn,
  style: CodeStyle,
): TurnTranscript {
  if (!turn.tools.length) return directTranscript(catalog, turnIndex, turn);
  const tools = turn.tools.map((id) => toolOf(catalog, id));
  const last = tools.length - 1;
  const printed =
    tools.length === 1 ? printedAnswer(resultOf(results, tools[0]!)) : { text: resultOf(results, tools[last]!).text, expr: `r${last + 1}` };
  const calls = tools.map(
    (t, i) => `const r${i + 1} = await ${style.callee(t)}(${JSON.stringify(exampleArguments(t.definition.inputSchema))});`,
  );
  const code =
    style.form === 'arrow'
      ? ['async () => {', ...calls.map((c) => `  ${c}`), `  return ${printed.expr};`, '}'].join('\n')
      : [...calls, `console.log(JSON.stringify(${printed.expr}));`].join('\n');
  const codePart = `${code}\n`;
  const result = resultLine(style.tool, printed.text);
  const text = [
    `User: ${turn.user}`,
    `Assistant → tool call ${style.tool} with code:`,
    code,
    result.slice(0, -1),
    `Assistant: Done — summarised the ${tools.length === 1 ? 'result' : 'results'} above for you.`,
  ].join('\n');
  return {
    section: keptSection(section('history', `turn-${turnIndex + 1}`, text, false)),
    results: [result],
    measuredResults: [],
    code: [codePart],
    roundTrips: 2,
  };
}

function toolOf(catalog: Catalog, id: string): CatalogTool {
  const tool = catalog.tools.find((t) => t.id === id);
  if (!tool) throw new Error(`code transcript: unknown tool ${id}`);
  return tool;
}

/**
 * What a lookup prints: the result trimmed to the fields ADOL's requireOutput rule keeps
 * (identity, status, pagination), with the expression that picks them; the whole result when
 * the result is not a JSON object or array or the rule keeps nothing.
 */
function printedAnswer(result: ToolResult): { text: string; expr: string } {
  const value = result.value;
  if (!isObject(value) && !Array.isArray(value)) return { text: result.text, expr: 'r1' };
  const fields = requestedFields(valuePaths(value));
  if (!fields.length) return { text: result.text, expr: 'r1' };
  const answer = trimResponse(value, fields);
  return { text: JSON.stringify(answer), expr: pickExpression(answer, 'r1', 0) };
}

/** The dotted field paths of a value, to depth 2, arrays transparent (as outputFieldPaths on a schema). */
function valuePaths(value: unknown, prefix = '', depth = 1): string[] {
  const item = Array.isArray(value) ? value[0] : value;
  if (!isObject(item) || depth > 2) return [];
  return Object.entries(item).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return [path, ...valuePaths(v, path, depth + 1)];
  });
}

/** JavaScript that builds `picked` from `source`: `({ id: r1.id, items: r1.items.map((x1) => ({ … })) })`. */
function pickExpression(picked: unknown, source: string, depth: number): string {
  if (Array.isArray(picked)) {
    const v = `x${depth + 1}`;
    return `${source}.map((${v}) => ${pickExpression(picked[0], v, depth + 1)})`;
  }
  if (!isObject(picked)) return source;
  const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
  const member = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `${source}.${k}` : `${source}[${JSON.stringify(k)}]`);
  return `({ ${Object.entries(picked)
    .map(([k, v]) => `${key(k)}: ${pickExpression(v, member(k), depth)}`)
    .join(', ')} })`;
}

/** A tool's result from the map its pipeline built for the run's catalog (src/catalog/tool-results.ts). */
function resultOf(results: ReadonlyMap<string, ToolResult>, tool: CatalogTool): ToolResult {
  const r = results.get(tool.id);
  if (!r) throw new Error(`code transcript: no result for ${tool.id}`);
  return r;
}
