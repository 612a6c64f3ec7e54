import type { CatalogTool, JsonSchema } from '../../catalog/types.ts';

/**
 * Text a CLI front for MCP tools prints, modelled on mcp2cli (github.com/knowsuchagency/mcp2cli):
 *
 * `--list`: a header line, then one line per tool, `  <name padded to 40>  <first 70 characters
 * of the tool's description>` (mcp2cli's `list_mcp_commands`; it cuts mid-word). Tools are
 * named by their id `server/name`, since one CLI fronts every server of the deployment.
 *
 * `--help <tool>`: the argparse help of the tool's sub-command as mcp2cli builds it from the
 * inputSchema: one `--flag` per top-level property (kebab-case), metavar = the flag in upper
 * case or `{a,b,c}` for an enum, booleans as bare switches, the property's description (or its
 * name) as help, with ` (JSON array)` / ` (JSON object)` appended for structured values, plus
 * `-h/--help` and `--stdin` (arguments as JSON on stdin). Like mcp2cli, the tool's own
 * description is not repeated (it is the sub-parser's `help=`, not its `description=`) and
 * tool parameters are not marked required (mcp2cli leaves them optional so `--stdin` can
 * supply them); defaults are not printed. Layout follows Python's argparse HelpFormatter at an
 * 80-column terminal (width 78): usage wrapped with its continuation indent, options with the
 * help column at ≤ 24 and help text wrapped to the remaining width.
 */

const LIST_NAME_WIDTH = 40;
export const LIST_DESCRIPTION_CHARS = 70;
const WIDTH = 78;
const MAX_HELP_POSITION = 24;
const INDENT = 2;

export function toKebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

export function renderList(tools: readonly CatalogTool[]): string {
  const lines = ['Available tools:'];
  for (const t of tools) {
    const description = (t.definition.description ?? t.definition.title ?? '').replace(/\s+/g, ' ').trim();
    const desc = description ? `  ${description.slice(0, LIST_DESCRIPTION_CHARS)}` : '';
    lines.push(`  ${t.id.padEnd(LIST_NAME_WIDTH)}${desc}`.trimEnd());
  }
  return lines.join('\n');
}

interface Option {
  /** `-h, --help`, `--owner OWNER`, `--state {open,closed}`, `--draft`. */
  invocation: string;
  /** Usage form: `[-h]`, `[--owner OWNER]`. */
  usage: string;
  help: string;
}

function choiceText(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null) return 'None';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function optionsFor(schema: JsonSchema): Option[] {
  const options: Option[] = [
    { invocation: '-h, --help', usage: '[-h]', help: 'show this help message and exit' },
    { invocation: '--stdin', usage: '[--stdin]', help: 'Read JSON body/arguments from stdin' },
  ];
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const seen = new Set(['--stdin', '--help']);
  for (const [prop, p] of Object.entries(props)) {
    const flag = `--${toKebab(prop)}`;
    if (seen.has(flag)) continue;
    seen.add(flag);
    const type = p?.type;
    const suffix = type === 'array' ? ' (JSON array)' : type === 'object' ? ' (JSON object)' : '';
    const help = `${typeof p?.description === 'string' && p.description ? p.description : prop}${suffix}`;
    if (type === 'boolean') {
      options.push({ invocation: flag, usage: `[${flag}]`, help });
      continue;
    }
    const metavar =
      Array.isArray(p?.enum) && p.enum.length ? `{${p.enum.map(choiceText).join(',')}}` : flag.slice(2).replace(/-/g, '_').toUpperCase();
    options.push({ invocation: `${flag} ${metavar}`, usage: `[${flag} ${metavar}]`, help });
  }
  return options;
}

/** textwrap.wrap on whitespace-normalised text (breaks at spaces; over-long words are split). */
export function wrap(text: string, width: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let word of words) {
    while (word.length > width) {
      const room = line ? width - line.length - 1 : width;
      if (room <= 0) {
        lines.push(line);
        line = '';
        continue;
      }
      lines.push(line ? `${line} ${word.slice(0, room)}` : word.slice(0, room));
      line = '';
      word = word.slice(room);
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function usageLines(prog: string, parts: readonly string[]): string[] {
  const prefix = 'usage: ';
  const oneLine = `${prefix}${[prog, ...parts].join(' ')}`;
  if (oneLine.length <= WIDTH) return [oneLine];
  // argparse's get_lines: greedy fill, continuation lines carry `indent`.
  const getLines = (items: readonly string[], indent: string, withPrefix: boolean): string[] => {
    const lines: string[] = [];
    let line: string[] = [];
    let len = withPrefix ? prefix.length - 1 : indent.length - 1;
    for (const part of items) {
      if (len + 1 + part.length > WIDTH && line.length) {
        lines.push(indent + line.join(' '));
        line = [];
        len = indent.length - 1;
      }
      line.push(part);
      len += part.length + 1;
    }
    if (line.length) lines.push(indent + line.join(' '));
    if (withPrefix && lines.length) lines[0] = lines[0]!.slice(indent.length);
    return lines;
  };
  if (prefix.length + prog.length <= 0.75 * WIDTH) {
    const lines = getLines([prog, ...parts], ' '.repeat(prefix.length + prog.length + 1), true);
    return [`${prefix}${lines[0]}`, ...lines.slice(1)];
  }
  return [`${prefix}${prog}`, ...getLines(parts, ' '.repeat(prefix.length), false)];
}

/** The argparse help of `<cli> <tool>`: what `<cli> --help <tool>` prints. */
export function renderHelp(cli: string, tool: CatalogTool): string {
  const options = optionsFor(tool.definition.inputSchema);
  const prog = `${cli} ${tool.id}`;
  const longest = Math.max(...options.map((o) => o.invocation.length + INDENT));
  const helpPosition = Math.min(longest + 2, MAX_HELP_POSITION);
  const helpWidth = Math.max(WIDTH - helpPosition, 11);
  const actionWidth = helpPosition - INDENT - 2;
  const lines = [
    ...usageLines(
      prog,
      options.map((o) => o.usage),
    ),
    '',
    'options:',
  ];
  for (const o of options) {
    const help = wrap(o.help, helpWidth);
    const pad = ' '.repeat(INDENT);
    if (!help.length) lines.push(`${pad}${o.invocation}`);
    else if (o.invocation.length <= actionWidth) {
      lines.push(`${pad}${o.invocation.padEnd(actionWidth)}  ${help[0]}`);
      for (const h of help.slice(1)) lines.push(`${' '.repeat(helpPosition)}${h}`);
    } else {
      lines.push(`${pad}${o.invocation}`);
      for (const h of help) lines.push(`${' '.repeat(helpPosition)}${h}`);
    }
  }
  return lines.join('\n');
}
