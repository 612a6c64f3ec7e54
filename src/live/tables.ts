import { ownValue, setOwn } from '../util/json.ts';
import type { Estimate } from '../stats/bootstrap.ts';
import { wilsonInterval } from '../stats/wilson.ts';
import type { Table } from '../table/table.ts';
import type { LiveTaskOutcome } from './agent-loop.ts';
import type { CostEstimate } from './cost-estimate.ts';
import type { ModelPrice } from './prices.ts';
import { isHostSearch } from '../pipelines/host-search/entries.ts';

export interface LiveMethod {
  id: string;
  label: string;
  outcomes: LiveTaskOutcome[];
  /** Projected success of the same tasks (src/sim/projection), with its bootstrap interval. */
  projected: Estimate;
  estimate: CostEstimate;
}

export interface LiveRunInfo {
  provider: string;
  model: string;
  baseUrl: string;
  price: ModelPrice;
  priceFrom: string;
  tasks: string;
  stopped?: string;
}

const pct = (x: number) => 100 * x;
const ci = (low: number, high: number) => (Number.isFinite(low) ? `${(100 * low).toFixed(1)}–${(100 * high).toFixed(1)}` : '—');

/** Live success next to the projected success of the same tasks, and what the model did. */
export function liveVsProjectedTable(methods: readonly LiveMethod[], info: LiveRunInfo): Table {
  return {
    id: 'live-vs-projected',
    title: `Live run (${info.provider} ${info.model}) beside the projection of the same tasks`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'tasks', header: 'tasks run', kind: 'measured' },
      { key: 'live', header: 'live success %', kind: 'measured', digits: 1 },
      { key: 'liveCi', header: '95% CI (Wilson)', kind: 'measured' },
      { key: 'projected', header: 'projected success %', kind: 'projected', digits: 1 },
      { key: 'projectedCi', header: '95% CI', kind: 'projected' },
      { key: 'diff', header: 'live − projected pp', kind: 'difference', digits: 1 },
      { key: 'turns', header: 'turns completed %', kind: 'measured', digits: 1 },
      { key: 'wrong', header: 'turns with a wrong tool %', kind: 'measured', digits: 1 },
      { key: 'invalid', header: 'tool calls with invalid args %', kind: 'measured', digits: 1 },
      { key: 'malformed', header: 'malformed calls', kind: 'measured' },
      { key: 'gated', header: 'gate rejections', kind: 'measured' },
      { key: 'calls', header: 'model calls/task', kind: 'measured', digits: 2 },
      { key: 'cost', header: '$ spent', kind: 'measured', digits: 4 },
      { key: 'latency', header: 's per model call', kind: 'measured', digits: 2 },
    ],
    rows: methods.map((m) => {
      const n = m.outcomes.length;
      const wins = m.outcomes.filter((o) => o.success).length;
      const w = wilsonInterval(wins, n);
      const turns = m.outcomes.flatMap((o) => o.turns);
      const taskTurns = m.outcomes.reduce((s, o) => s + o.taskTurns, 0);
      const calls = turns.flatMap((t) => t.calls);
      const toolCalls = calls.filter((c) => c.kind === 'tool' && !c.gated);
      const modelCalls = turns.reduce((s, t) => s + t.modelCalls, 0);
      return {
        method: m.label,
        tasks: n,
        live: pct(w.p),
        liveCi: ci(w.low, w.high),
        projected: pct(m.projected.mean),
        projectedCi: ci(m.projected.low, m.projected.high),
        diff: n ? pct(w.p - m.projected.mean) : undefined,
        turns: taskTurns ? (100 * m.outcomes.reduce((s, o) => s + o.turnsCompleted, 0)) / taskTurns : undefined,
        wrong: turns.length ? (100 * turns.filter((t) => t.wrongTool).length) / turns.length : undefined,
        invalid: toolCalls.length ? (100 * toolCalls.filter((c) => c.argsValid === false).length) / toolCalls.length : undefined,
        malformed: calls.filter((c) => c.malformed).length,
        gated: calls.filter((c) => c.gated).length,
        calls: n ? modelCalls / n : undefined,
        cost: m.outcomes.reduce((s, o) => s + o.costUsd, 0),
        latency: modelCalls ? turns.reduce((s, t) => s + t.latencyMs, 0) / 1000 / modelCalls : undefined,
      };
    }),
    notes: [
      `${info.tasks}. Endpoint ${info.baseUrl}; price ${info.price.inputPerMTok}/${info.price.outputPerMTok} USD per M input/output tokens (${info.priceFrom}).`,
      'A turn succeeds when the model calls every tool the turn needs with arguments valid against its inputSchema (ajv) before answering in text (a turn needing no tool: no tool call); a task succeeds when every turn does; the run stops a task at its first failed turn ("turns completed": turns that succeeded out of all turns of the tasks).',
      "Each turn sends the pipeline's exact prompt: tool definitions in the provider's tool parameter where the prompt carries tools/list definitions, all other sections as text; B4 gets a shell tool answered with the real --list/--help text. Tool calls are answered with the catalog's sample responses; the hallucination gate rejects calls to tools not offered when the pipeline declares it. The history carried between turns is the harness's shared transcript, so live and projected runs see the same prompts.",
      "Projected: src/sim/projection with its default parameters, on the same tasks' measured turns (3 simulation seeds; bootstrap over tasks). Live success: Wilson 95% interval over tasks.",
      ...(methods.some((m) => isHostSearch(m.id))
        ? [
            "Host tool searches send every tool deferred with the provider's tool search (docs/live.md#host-tool-search): the model runs its own searches, a client search is answered with the pipeline's own, and the searches of earlier turns are sent again so what they loaded stays loaded.",
          ]
        : []),
      ...ownCountNote(methods),
      ...(info.stopped ? [`Stopped early: ${info.stopped}`] : []),
    ],
  };
}

/** A host profile counted beside the provider (its id, and how it is labelled and counted). */
export interface LiveHost {
  id: string;
  label: string;
  tokenizerNote: string;
}

/** Provider-reported prompt tokens next to our tokenizer's count of the same prompt, and each host profile's count of it. */
export function liveTokensTable(
  methods: readonly LiveMethod[],
  tokenizer: string,
  hosts: readonly LiveHost[] = [],
  hostNotes: readonly string[] = [],
): Table {
  return {
    id: 'live-tokens',
    title: `Live run: provider-reported tokens beside our ${tokenizer} count of the same prompts`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'turns', header: 'turns sent', kind: 'measured' },
      { key: 'measured', header: 'prompt tokens/turn (bench measure)', kind: 'measured' },
      { key: 'sent', header: 'request as sent (ours)', kind: 'measured' },
      { key: 'provider', header: 'provider input tokens (first call of turn)', kind: 'measured' },
      { key: 'ratio', header: 'provider / request as sent', kind: 'measured', digits: 3 },
      ...hosts.flatMap((h) => [
        { key: `host:${h.id}`, header: `${h.id} count`, kind: 'measured' as const },
        { key: `hostError:${h.id}`, header: `${h.id} error % (vs provider)`, kind: 'difference' as const, digits: 1 },
      ]),
      { key: 'cached', header: 'cached input tokens/call', kind: 'measured' },
      { key: 'output', header: 'output tokens/call', kind: 'measured' },
    ],
    rows: methods.map((m) => {
      const turns = m.outcomes.flatMap((o) => o.turns).filter((t) => t.modelCalls > 0);
      const calls = turns.reduce((s, t) => s + t.modelCalls, 0);
      const mean = (f: (t: (typeof turns)[number]) => number) =>
        turns.length ? turns.reduce((s, t) => s + f(t), 0) / turns.length : undefined;
      // The ratio compares the turns whose first call's usage the provider reported plausibly.
      const reported = turns.filter((t) => t.providerPromptTokens !== null);
      const reportedSent = reported.reduce((s, t) => s + t.sentPromptTokens, 0);
      const provider = reported.length ? reported.reduce((s, t) => s + t.providerPromptTokens!, 0) / reported.length : undefined;
      const byHost: Record<string, number | undefined> = {};
      for (const h of hosts) {
        // The error over the same turns (those with a plausible provider count): (profile − provider) / provider, of the sums.
        const count = (t: (typeof reported)[number]) => (t.hostPromptTokens ? ownValue(t.hostPromptTokens, h.id) : undefined);
        const counted = reported.filter((t) => count(t) !== undefined);
        const mine = counted.reduce((n, t) => n + count(t)!, 0);
        const theirs = counted.reduce((n, t) => n + t.providerPromptTokens!, 0);
        setOwn(byHost, `host:${h.id}`, counted.length ? mine / counted.length : undefined);
        setOwn(byHost, `hostError:${h.id}`, counted.length && theirs ? (100 * (mine - theirs)) / theirs : undefined);
      }
      return {
        method: m.label,
        turns: turns.length,
        measured: mean((t) => t.measuredPromptTokens),
        sent: mean((t) => t.sentPromptTokens),
        provider,
        ratio: reportedSent && provider !== undefined ? (provider * reported.length) / reportedSent : undefined,
        ...byHost,
        cached: calls ? turns.reduce((s, t) => s + t.cachedInputTokens, 0) / calls : undefined,
        output: calls ? turns.reduce((s, t) => s + t.outputTokens, 0) / calls : undefined,
      };
    }),
    notes: [
      '"bench measure": the sections of the pipeline\'s prompt as the bench counts them (Table 3). "request as sent": system text, user text and the tool parameter\'s JSON as we send them. The provider counts with its own tokenizer and adds its tool-format framing, hence the ratio.',
      "Tool definitions sent as the provider's tool parameter carry name, description and inputSchema only (a tools/list entry's title, annotations and outputSchema are not sent), so a schema-injecting method's request is smaller than its bench measure. B4's bench measure holds the simulated --list/--help outputs; live, the model runs its own, so they show up in later calls of the turn, not in the first request.",
      ...ownCountNote(methods),
      ...(hosts.length
        ? [
            `Host profiles (docs/hosts.md) count the same first request of each turn: its text, the message framing their source publishes, and the tool list as they render it. Error % = (profile count − provider count) / provider count over the turns sent; only the profile of the provider called can be right. ${hosts.map((h) => `${h.label}: ${h.tokenizerNote}.`).join(' ')}`,
            ...hostNotes,
          ]
        : []),
    ],
  };
}

/** What a live run of these tasks costs at list price, computed from the measured prompts before any request. */
export function liveCostTable(
  methods: readonly Pick<LiveMethod, 'label' | 'estimate'>[],
  info: Pick<LiveRunInfo, 'model' | 'price' | 'priceFrom'>,
): Table {
  return {
    id: 'live-cost-estimate',
    title: `Live run cost at list price, estimated from the measured prompts (${info.model})`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'tasks', header: 'tasks', kind: 'measured' },
      { key: 'calls', header: 'model calls/task', kind: 'measured', digits: 1 },
      { key: 'input', header: 'input tokens/task', kind: 'measured' },
      { key: 'output', header: 'output tokens/task', kind: 'parameter' },
      { key: 'usd', header: '$ per 100 tasks', kind: 'projected', digits: 2 },
    ],
    rows: methods.map((m) => ({
      method: m.label,
      tasks: m.estimate.tasks,
      calls: m.estimate.modelCallsPerTask,
      input: m.estimate.inputTokensPerTask,
      output: m.estimate.outputTokensPerTask,
      usd: m.estimate.usdPer100Tasks,
    })),
    notes: [
      `Price ${info.price.inputPerMTok}/${info.price.outputPerMTok} USD per M input/output tokens (${info.priceFrom}). Every model call re-sends the turn's measured prompt (1 call per turn + 1 per needed tool + 1 per discovery call), no cache discount: an upper bound for a run where every turn succeeds. Output tokens from the projection's output parameters.`,
    ],
  };
}

/** How many model calls were charged on our own count (the provider's usage missing or implausible), when any were. */
function ownCountNote(methods: readonly LiveMethod[]): string[] {
  const turns = methods.flatMap((m) => m.outcomes.flatMap((o) => o.turns));
  const own = turns.reduce((s, t) => s + t.ownCountCalls, 0);
  if (own === 0) return [];
  const calls = turns.reduce((s, t) => s + t.modelCalls, 0);
  return [
    `${own} of ${calls} model calls were charged on our own token count (1.25 × ours, no cache discount): the endpoint's usage was missing or implausible. Their tokens and cost are our count, not the provider's; the provider input column leaves them out.`,
  ];
}
