import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import { runPipeline, type TurnRecord } from '../measure/run-pipeline.ts';
import type { PipelineEntry, PipelineSettings } from '../pipelines/types.ts';
import { writeTableResult } from '../results/write.ts';
import { PROJECTION_PARAMS } from '../sim/projection/params.ts';
import { preconditionViolations } from '../sim/projection/preconditions.ts';
import { projectPipeline } from '../sim/projection/project.ts';
import type { Table } from '../table/table.ts';
import type { Task } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { redactJson, redactText, redactUrl } from '../mcp/redact.ts';
import { runLiveTask, type EndpointState, type LiveTaskOutcome } from './agent-loop.ts';
import { BudgetExceededError, BudgetGuard } from './budget.ts';
import { estimateLiveCost } from './cost-estimate.ts';
import { EndpointError } from './http.ts';
import type { ModelPrice } from './prices.ts';
import { ExchangeRecorder } from './recorder.ts';
import { liveCostTable, liveTokensTable, liveVsProjectedTable, type LiveMethod, type LiveRunInfo } from './tables.ts';
import type { ChatClient } from './types.ts';
import { HostMeasure } from '../hosts/measure.ts';
import { liveProfiles } from '../hosts/registry.ts';

export interface LiveRunInputs {
  catalog: Catalog;
  /** The sampled tasks, in order. */
  tasks: Task[];
  /** How they were chosen (printed under the tables). */
  taskNote: string;
  calibrationTasks: Task[];
  historyTasks: Task[];
  pipelines: PipelineEntry[];
  tokens: TokenCounter;
  tokenizer: string;
  encoder?: Encoder;
  seed: number;
  /** Where requests, responses, outcomes and tables go. */
  out: string;
  log: (line: string) => void;
}

export interface LiveRunSettings {
  /** Null for `--dry-run`: estimate only, nothing sent. */
  client: ChatClient | null;
  provider: string;
  model: string;
  baseUrl: string;
  /** Values never printed or written: the API key, credentials and query values of the base URL. */
  secrets: readonly string[];
  price: ModelPrice;
  priceFrom: string;
  maxUsd: number;
  maxTokens: number;
  maxSteps: number;
}

export interface LiveRunResult {
  tables: Table[];
  spentUsd: number;
  /** Why the run stopped before the end (budget cap, provider error), if it did. */
  stopped?: string;
}

/**
 * The live-agent mode: for each pipeline, measure its turns on the sampled tasks and project them
 * (the projection the live run is compared with), then, unless dry, run every task against the
 * model (src/live/agent-loop.ts) within the budget, saving every exchange under `out/requests/`,
 * every task outcome to `out/live-outcomes.jsonl` and the run's settings to `out/live-run.json`.
 * Everything printed or written has the run's secrets redacted, the base URL shown without its
 * credentials or query values. An endpoint that cannot be used (nothing answers the first
 * connection, a redirect elsewhere) or that answered no request at all throws an EndpointError
 * once what was done is written.
 */
export async function runLive(inputs: LiveRunInputs, settings: LiveRunSettings): Promise<LiveRunResult> {
  const budget = new BudgetGuard(settings.price, settings.maxUsd);
  const recorder = new ExchangeRecorder(join(inputs.out, 'requests'), settings.secrets);
  const log = (line: string) => inputs.log(redactText(line, settings.secrets));
  const endpoint: EndpointState = { answered: false };
  const methods: LiveMethod[] = [];
  const outcomes: LiveTaskOutcome[] = [];
  let stopped: string | undefined;
  let unusable: EndpointError | undefined;
  const scopes = new Map(inputs.tasks.map((t) => [t.id, t.initialState.authScopes]));
  // Every built-in host profile counts each turn's first request beside the provider.
  const live = liveProfiles(settings.model, inputs.tokens.tokenizer);
  const hosts = live.profiles.map((p) => new HostMeasure(p));

  for (const entry of inputs.pipelines) {
    const pipeline = entry.create();
    await pipeline.prepare?.({
      catalog: inputs.catalog,
      tokens: inputs.tokens,
      seed: inputs.seed,
      workDir: inputs.out,
      calibrationTasks: inputs.calibrationTasks,
      historyTasks: inputs.historyTasks,
      encoder: inputs.encoder,
    });
    const settingsOf: PipelineSettings = pipeline.describe?.() ?? { details: {} };
    const gate = settingsOf.gates?.hallucination === true;
    const records: TurnRecord[] = await runPipeline(pipeline, inputs.tasks, {
      catalog: inputs.catalog,
      tokens: inputs.tokens,
      seed: inputs.seed,
    });
    const violations = preconditionViolations(records, inputs.catalog, (_seed, id) => scopes.get(id));
    const projection = projectPipeline(records, PROJECTION_PARAMS, inputs.seed, {
      hallucinationGate: gate,
      violations: (t) => violations.get(t as TurnRecord) ?? 0,
    });
    const method: LiveMethod = {
      id: pipeline.id,
      label: pipeline.label,
      outcomes: [],
      projected: projection.successRate,
      estimate: estimateLiveCost(records, settings.price),
    };
    methods.push(method);
    if (!settings.client || stopped) continue;
    const cli = settingsOf.discovery?.cli;
    for (const task of inputs.tasks) {
      try {
        const outcome = await runLiveTask(pipeline, task, {
          client: settings.client,
          model: settings.model,
          catalog: inputs.catalog,
          tokens: inputs.tokens,
          budget,
          recorder,
          maxTokens: settings.maxTokens,
          maxSteps: settings.maxSteps,
          gate,
          cli,
          endpoint,
          hosts,
        });
        method.outcomes.push(outcome);
        outcomes.push(outcome);
      } catch (err) {
        if (err instanceof EndpointError) unusable = err;
        stopped =
          err instanceof BudgetExceededError || err instanceof EndpointError ? err.message : `provider error: ${(err as Error).message}`;
        break;
      }
    }
    // An endpoint that cannot be used says nothing about the model: no success line for it.
    if (unusable) continue;
    const wins = method.outcomes.filter((o) => o.success).length;
    log(
      `live ${pipeline.label.padEnd(24)} ${wins}/${method.outcomes.length} tasks succeeded; projected ${(100 * projection.successRate.mean).toFixed(1)}%; spent $${budget.spentUsd.toFixed(4)}`,
    );
  }

  // Requests were sent and not one got an HTTP response: the endpoint, not the model, failed.
  if (!unusable && !endpoint.answered && endpoint.lastNoResponse)
    unusable = new EndpointError(`no request got a response from the endpoint: ${endpoint.lastNoResponse}`);
  if (unusable) stopped = unusable.message;
  const baseUrl = redactUrl(settings.baseUrl);
  const info: LiveRunInfo = {
    provider: settings.provider,
    model: settings.model,
    baseUrl,
    price: settings.price,
    priceFrom: settings.priceFrom,
    tasks: inputs.taskNote,
    stopped,
  };
  const redacted = <T>(value: T) => redactJson(value, settings.secrets);
  const tables = (
    settings.client
      ? [
          liveVsProjectedTable(methods, info),
          liveTokensTable(
            methods,
            inputs.tokenizer,
            live.profiles.map((p) => ({ id: p.id, label: p.label, tokenizerNote: p.tokenizerNote })),
            live.notes,
          ),
          liveCostTable(methods, info),
        ]
      : [liveCostTable(methods, info)]
  ).map(redacted);
  mkdirSync(inputs.out, { recursive: true });
  writeFileSync(
    join(inputs.out, 'live-outcomes.jsonl'),
    outcomes.map((o) => JSON.stringify(redacted(o))).join('\n') + (outcomes.length ? '\n' : ''),
  );
  for (const t of tables) writeTableResult(inputs.out, t);
  const turns = outcomes.flatMap((o) => o.turns);
  // How the run was made (never the key: it is only ever in the client's request headers).
  const manifest = redacted({
    provider: settings.provider,
    model: settings.model,
    baseUrl,
    price: settings.price,
    priceFrom: settings.priceFrom,
    maxUsd: settings.maxUsd,
    maxTokens: settings.maxTokens,
    maxSteps: settings.maxSteps,
    dryRun: settings.client === null,
    tasks: { note: inputs.taskNote, ids: inputs.tasks.map((t) => t.id) },
    pipelines: inputs.pipelines.map((p) => p.id),
    tokenizer: inputs.tokenizer,
    seed: inputs.seed,
    spentUsd: budget.spentUsd,
    // Which count each model call was charged on (src/live/budget.ts).
    chargedOn: {
      provider: turns.reduce((s, t) => s + t.modelCalls - t.ownCountCalls, 0),
      ownCount: turns.reduce((s, t) => s + t.ownCountCalls, 0),
    },
    stopped: stopped ?? null,
    finishedAt: new Date().toISOString(),
  });
  writeFileSync(join(inputs.out, 'live-run.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  if (unusable) throw unusable;
  return { tables, spentUsd: budget.spentUsd, ...(stopped ? { stopped: redactText(stopped, settings.secrets) } : {}) };
}
