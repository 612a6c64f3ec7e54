import {
  codeFor,
  placeholderArguments,
  textReply,
  toolCallReply,
  words,
  type Script,
  type ScriptStep,
  type StandInRequest,
} from './scripted-llm-server.ts';

/**
 * TEST STAND-IN — not a model. A crude agent for the code pipelines over chat completions, for
 * the scripted server (./scripted-llm-server.ts). It uses only what a request offers and what
 * earlier tool results said, never the catalog:
 *
 * - `search` + `execute` (search-execute): searches with the request, then runs an async arrow
 *   function calling the best method of the types the search returned;
 * - `code_execution` + `shell` (code-mode-files; with `search_tools`, its search variant): lists
 *   the files with `find servers -name "*.ts"` (or calls `search_tools`), reads the best file with
 *   `cat`, then runs a script that imports the function the file exports and prints its result;
 * - `code_execution` beside function tools (programmatic-calls): a script calling the best tool
 *   as the sandbox names it (`<server>_<tool>`);
 * - `codemode`: Code Mode's async arrow function; other tools: a direct call of the best one.
 *
 * After the code ran (or a direct call), it answers in text. "Best" shares the most words with
 * the last `User:` line.
 */
export function codePipelineAgent(): Script {
  return (r) => {
    const messages = r.body.messages ?? [];
    const userText = String([...messages].reverse().find((m) => m.role === 'user')?.content ?? '');
    const ask = words(
      userText
        .split('\n')
        .filter((l) => l.startsWith('User: '))
        .at(-1) ?? '',
    );
    const score = (text: string) => [...words(text)].filter((w) => ask.has(w)).length;
    const tools = r.body.tools ?? [];
    const has = (name: string) => tools.find((t) => t.function.name === name);
    const results = toolResults(r);
    const resultOf = (name: string) => results.filter((x) => x.name === name).map((x) => x.content);
    const codeTool = ['execute', 'code_execution', 'codemode'].find((n) => has(n));
    if (codeTool && resultOf(codeTool).length) return textReply(r);
    const call = (name: string, args: unknown) => toolCallReply(r, [{ name, arguments: JSON.stringify(args) }]);
    const query = [...ask].join(' ');

    if (has('search') && has('execute')) {
      const found = resultOf('search').at(-1);
      if (!found) return call('search', { query });
      return call('execute', { code: codeFor(`${found}\n`, score) });
    }
    if (has('code_execution') && has('shell')) {
      const shell = resultOf('shell');
      const file = shell.find((t) => t.startsWith('// servers/'));
      if (!file) {
        const listing = has('search_tools') ? resultOf('search_tools').at(-1) : shell.find((t) => t.startsWith('servers/'));
        if (!listing)
          return has('search_tools')
            ? call('search_tools', { query, detail_level: 'name_and_description' })
            : call('shell', { command: 'find servers -name "*.ts"' });
        const paths = listing.split('\n').map((l) => l.split(' ')[0]!);
        const best = paths.reduce((a, b) => (score(b) > score(a) ? b : a));
        return call('shell', { command: `cat ${best}` });
      }
      const fn = /export async function (\w+)\(input: (\w+)\)/.exec(file);
      const path = /^\/\/ (\S+)/.exec(file)?.[1];
      if (!fn || !path) return textReply(r, 'no function in the file');
      const args = codeFor(`${file}\n/** */ ${fn[1]}: (input: ${fn[2]})`, () => 0).match(/\((\{.*\})\)/)?.[1] ?? '{}';
      return call('code_execution', {
        code: `import { ${fn[1]} } from "./${path}";\nconsole.log(JSON.stringify(await ${fn[1]}(${args})));`,
      });
    }
    if (results.length) return textReply(r);
    if (has('codemode')) return call('codemode', { code: codeFor(has('codemode')!.function.description ?? '', score) });
    const functions = tools.filter((t) => !['code_execution', 'shell'].includes(t.function.name));
    if (!functions.length) return textReply(r);
    const best = functions.reduce((a, b) =>
      score(`${b.function.name} ${b.function.description ?? ''}`) > score(`${a.function.name} ${a.function.description ?? ''}`) ? b : a,
    );
    const args = placeholderArguments(best.function.parameters);
    if (has('code_execution'))
      return call('code_execution', {
        code: `console.log(JSON.stringify(await ${best.function.name.replace('__', '_')}(${JSON.stringify(args)})));`,
      });
    return call(best.function.name, args);
  };
}

/** The tool results of a chat-completions request, with the name of the tool each answers. */
function toolResults(r: StandInRequest): { name: string; content: string }[] {
  const names = new Map<string, string>();
  const out: { name: string; content: string }[] = [];
  for (const m of (r.body.messages ?? []) as { role: string; content?: string | null; tool_calls?: unknown[]; tool_call_id?: string }[]) {
    for (const c of (m.tool_calls ?? []) as { id: string; function: { name: string } }[]) names.set(c.id, c.function.name);
    if (m.role === 'tool') out.push({ name: names.get(m.tool_call_id ?? '') ?? '', content: String(m.content ?? '') });
  }
  return out;
}

/**
 * Anthropic Messages, programmatic tool calling (TEST STAND-IN, the documented shapes of
 * docs/reference/request-shapes.md): to a request offering the code execution tool it answers as
 * the API does when code calls a tool: a `server_tool_use` of `code_execution`, a `tool_use` of
 * the best tool with its `caller`, the container, `stop_reason: "tool_use"`; after the tool
 * result, the code's `code_execution_tool_result` and a text. Without the code execution tool: a
 * direct `tool_use` of the best tool, then a text.
 */
export function anthropicCodeAgent(): Script {
  return (r) => {
    const body = r.body as unknown as {
      messages: { role: string; content: { type: string; text?: string; content?: unknown }[] }[];
      tools?: { type?: string; name: string; description?: string; input_schema?: Record<string, unknown> }[];
    };
    const last = body.messages.at(-1)!;
    const answered = last.content.some((b) => b.type === 'tool_result');
    const usage = { input_tokens: Math.ceil(JSON.stringify(body).length / 4), output_tokens: 20 };
    const reply = (content: unknown[], stop: string, more: Record<string, unknown> = {}): ScriptStep => ({
      kind: 'reply',
      body: { id: `msg_${r.index}`, type: 'message', role: 'assistant', content, stop_reason: stop, usage, ...more },
    });
    const programmatic = body.tools?.some((t) => t.type === 'code_execution_20250825');
    if (answered)
      return reply(
        [
          ...(programmatic
            ? [
                {
                  type: 'code_execution_tool_result',
                  tool_use_id: 'srvtoolu_1',
                  content: { type: 'code_execution_result', stdout: '{}', stderr: '', return_code: 0 },
                },
              ]
            : []),
          { type: 'text', text: 'Done.' },
        ],
        'end_turn',
      );
    const text = body.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'text' ? [b.text ?? ''] : []))).join('\n');
    const ask = words(
      text
        .split('\n')
        .filter((l) => l.startsWith('User: '))
        .at(-1) ?? '',
    );
    const score = (s: string) => [...words(s)].filter((w) => ask.has(w)).length;
    const functions = (body.tools ?? []).filter((t) => t.type === undefined);
    const best = functions.reduce((a, b) =>
      score(`${b.name} ${b.description ?? ''}`) > score(`${a.name} ${a.description ?? ''}`) ? b : a,
    );
    const input = placeholderArguments(best.input_schema);
    if (!programmatic) return reply([{ type: 'tool_use', id: 'toolu_1', name: best.name, input }], 'tool_use');
    return reply(
      [
        { type: 'text', text: 'Running code.' },
        {
          type: 'server_tool_use',
          id: 'srvtoolu_1',
          name: 'code_execution',
          input: { code: `print(await ${best.name}(${JSON.stringify(input)}))` },
        },
        { type: 'tool_use', id: 'toolu_1', name: best.name, input, caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' } },
      ],
      'tool_use',
      { container: { id: 'container_1', expires_at: '2030-01-01T00:00:00Z' } },
    );
  };
}
