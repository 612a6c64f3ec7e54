import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * TEST STAND-IN — not a model. A local OpenAI-compatible chat-completions server on 127.0.0.1
 * that answers each request with a scripted step: a reply (tool calls or text), an HTTP error
 * (429 with Retry-After, 5xx, 401), a delay (for timeouts), a non-JSON body or a redirect. It
 * also takes Anthropic's `/messages` path and OpenAI's Responses `/responses` path (the script
 * then writes that format's replies: ./tool-search-stand-in.ts). The
 * live mode's tests and `scripts/live-smoke.ts` start it; nothing here needs a network or a key.
 */

export interface StandInRequest {
  index: number;
  /** The request path: `/v1/chat/completions`, `/v1/messages`, `/v1/responses`. */
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    messages?: { role: string; content?: string | null; tool_calls?: unknown[] }[];
    tools?: { type: string; function: { name: string; description?: string; parameters?: Record<string, unknown> } }[];
    max_tokens?: number;
  };
}

export type ScriptStep =
  | { kind: 'reply'; body: Record<string, unknown> }
  | { kind: 'status'; status: number; retryAfterS?: number; text?: string }
  | { kind: 'delay'; ms: number; then: ScriptStep }
  | { kind: 'raw'; text: string }
  | { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; location: string };

export type Script = (request: StandInRequest) => ScriptStep;

export interface StandInServer {
  /** Base URL to pass as --base-url (ends in /v1). */
  url: string;
  /** Every request received, in order. */
  requests: StandInRequest[];
  close(): Promise<void>;
}

export async function startScriptedLlmServer(script: Script): Promise<StandInServer> {
  const requests: StandInRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method !== 'POST' || !(path.endsWith('/chat/completions') || path.endsWith('/messages') || path.endsWith('/responses'))) {
        res.writeHead(404).end('{"error":"not found"}');
        return;
      }
      const request: StandInRequest = { index: requests.length, path, headers: req.headers, body: JSON.parse(data || '{}') };
      requests.push(request);
      const answer = (step: ScriptStep): void => {
        if (res.destroyed) return;
        if (step.kind === 'delay') {
          const t = setTimeout(() => {
            pending.delete(t);
            answer(step.then);
          }, step.ms);
          pending.add(t);
        } else if (step.kind === 'status') {
          res.writeHead(step.status, {
            'content-type': 'application/json',
            ...(step.retryAfterS !== undefined ? { 'retry-after': String(step.retryAfterS) } : {}),
          });
          res.end(step.text ?? JSON.stringify({ error: { message: `scripted ${step.status}` } }));
        } else if (step.kind === 'redirect') {
          res.writeHead(step.status, { location: step.location }).end();
        } else if (step.kind === 'raw') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end(step.text);
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(step.body));
        }
      };
      answer(script(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of pending) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The stand-in's own token count of a request (characters / 4): a placeholder, not a tokenizer. */
function standInPromptTokens(r: StandInRequest): number {
  return Math.ceil(JSON.stringify([r.body.messages ?? [], r.body.tools ?? []]).length / 4);
}

/** A chat-completions body with these tool calls (arguments as raw JSON text, possibly malformed). */
export function toolCallReply(r: StandInRequest, calls: { name: string; arguments: string }[]): ScriptStep {
  return {
    kind: 'reply',
    body: {
      id: `standin-${r.index}`,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: calls.map((c, i) => ({
              id: `call_${r.index}_${i}`,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          },
        },
      ],
      usage: { prompt_tokens: standInPromptTokens(r), completion_tokens: 20 * calls.length, prompt_tokens_details: { cached_tokens: 0 } },
    },
  };
}

export function textReply(r: StandInRequest, text = 'Done.'): ScriptStep {
  return {
    kind: 'reply',
    body: {
      id: `standin-${r.index}`,
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
      usage: { prompt_tokens: standInPromptTokens(r), completion_tokens: 5 },
    },
  };
}

/** True when the request's last message is a tool result (the stand-in then answers in text). */
export function afterToolResult(r: StandInRequest): boolean {
  return r.body.messages?.at(-1)?.role === 'tool';
}

export const words = (s: string) =>
  new Set(
    s
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2),
  );

/** Required arguments filled with placeholders of the right JSON type (string, number, boolean, array, object). */
export function placeholderArguments(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const props = (schema?.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const required = Array.isArray(schema?.required) ? (schema!.required as string[]) : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const p = props[name] ?? {};
    if (p.enum?.length) args[name] = p.enum[0];
    else if (p.type === 'integer' || p.type === 'number') args[name] = 1;
    else if (p.type === 'boolean') args[name] = true;
    else if (p.type === 'array') args[name] = [];
    else if (p.type === 'object') args[name] = {};
    else args[name] = 'x';
  }
  return args;
}

/**
 * A crude agent for end-to-end runs (still a stand-in, not a model): on a user turn it calls the
 * offered tool whose name and description share the most words with the last `User:` line, with
 * placeholder arguments; given only a shell tool it runs `<cli> --list`, then calls the listed
 * tool that overlaps most, with placeholder flags for its required options (read from the
 * `--help` it runs first); after a tool result it answers in text.
 */
export function keywordAgent(cli = 'tooltax'): Script {
  return (r) => {
    const messages = r.body.messages ?? [];
    const userText = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const ask = words(
      String(userText)
        .split('\n')
        .filter((l) => l.startsWith('User: '))
        .at(-1) ?? '',
    );
    const score = (text: string) => [...words(text)].filter((w) => ask.has(w)).length;
    const tools = r.body.tools ?? [];
    const last = messages.at(-1);
    const shellOnly = tools.length === 1 && tools[0]!.function.name === 'shell';
    if (shellOnly) {
      const results = messages.filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));
      const list = results.find((t) => t.startsWith('Available tools:'));
      if (!list) return toolCallReply(r, [{ name: 'shell', arguments: JSON.stringify({ command: `${cli} --list` }) }]);
      const lines = list
        .split('\n')
        .slice(1)
        .map((l) => l.trim());
      const best = lines.reduce((a, b) => (score(b) > score(a) ? b : a), lines[0] ?? '');
      const id = best.split(/\s+/)[0] ?? '';
      const help = results.find((t) => t.startsWith(`usage: ${cli} ${id}`));
      if (!help) return toolCallReply(r, [{ name: 'shell', arguments: JSON.stringify({ command: `${cli} --help ${id}` }) }]);
      if (last?.role === 'tool' && !last.content?.startsWith('usage:')) return textReply(r);
      return toolCallReply(r, [{ name: 'shell', arguments: JSON.stringify({ command: `${cli} ${id}` }) }]);
    }
    if (afterToolResult(r) || tools.length === 0) return textReply(r);
    const codemode = tools.find((t) => t.function.name === 'codemode');
    if (codemode)
      return toolCallReply(r, [
        { name: 'codemode', arguments: JSON.stringify({ code: codeFor(codemode.function.description ?? '', score) }) },
      ]);
    const best = tools.reduce((a, b) =>
      score(`${b.function.name} ${b.function.description ?? ''}`) > score(`${a.function.name} ${a.function.description ?? ''}`) ? b : a,
    );
    return toolCallReply(r, [{ name: best.function.name, arguments: JSON.stringify(placeholderArguments(best.function.parameters)) }]);
  };
}

/**
 * The same script, answering by the request's content alone: the ids it writes (response and
 * tool-call ids) come from a hash of the request body, not from the request's place in the
 * server's order. A run resumed, or split into shards, then gets the same replies to the same
 * requests as a run in one go.
 */
export function byContent(script: Script): Script {
  return (r) => script({ ...r, index: parseInt(createHash('sha256').update(JSON.stringify(r.body)).digest('hex').slice(0, 12), 16) });
}

/**
 * The stand-in's code for Code Mode: from the `codemode` tool's TypeScript API, the method whose
 * doc comment and name share the most words with the request, called with a placeholder for each
 * required field of its input type, its result returned.
 */
export function codeFor(api: string, score: (text: string) => number): string {
  const methods = [...api.matchAll(/\/\*\*([\s\S]*?)\*\/\s*(\w+): \(input: (\w+)\)/g)].map((m) => ({
    doc: m[1]!,
    name: m[2]!,
    input: m[3]!,
  }));
  if (!methods.length) return 'async () => null';
  const best = methods.reduce((a, b) => (score(`${b.name} ${b.doc}`) > score(`${a.name} ${a.doc}`) ? b : a));
  const body = new RegExp(`type ${best.input} = \\{([\\s\\S]*?)\\n\\}`).exec(api)?.[1] ?? '';
  const args: Record<string, unknown> = {};
  for (const m of body.matchAll(/^ {4}(\w+): (.+);$/gm)) {
    const type = m[2]!;
    const literal = /^"([^"]*)"/.exec(type);
    args[m[1]!] = literal
      ? literal[1]
      : type.startsWith('number')
        ? 1
        : type.startsWith('boolean')
          ? true
          : type.endsWith('[]')
            ? []
            : type.startsWith('string')
              ? 'x'
              : {};
  }
  return `async () => { const r = await codemode.${best.name}(${JSON.stringify(args)}); return r; }`;
}
