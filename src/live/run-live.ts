import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import { runPipeline, type TurnRecord } from '../measure/run-pipeline.ts';
import type { Pipeline, PipelineEntry, PipelineSettings } from '../pipelines/types.ts';
import { writeTableResult } from '../results/write.ts';
import { PROJECTION_PARAMS } from '../sim/projection/params.ts';
import { preconditionViolations } from '../sim/projection/preconditions.ts';
import { projectPipeline } from '../sim/projection/project.ts';
import type { Table } from '../table/table.ts';
import type { Task } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { redactJson, redactText, redactUrl } from '../mcp/redact.ts';
import { runLiveTask, type AgentLoopOptions, type EndpointState, type LiveTaskOutcome } from './agent-loop.ts';
import { BudgetExceededError, BudgetGuard } from './budget.ts';
import { estimateLiveCost } from './cost-estimate.ts';
import { EndpointError } from './http.ts';
import type { ModelPrice } from './prices.ts';
import { ExchangeRecorder, REQUESTS_DIR } from './recorder.ts';
import { liveCostTable, liveTokensTable, liveVsProjectedTable, type LiveMethod, type LiveRunInfo } from './tables.ts';
import type { ChatClient } from './types.ts';
import { HostMeasure } from '../hosts/measure.ts';
import { liveProfiles } from '../hosts/registry.ts';
import type { ShardSpec } from '../results/shard-part.ts';
import { InputError } from '../util/input-error.ts';
import { JOURNAL_FILE, type RecordedCalls } from './journal.ts';
import { JournaledClient } from './journaled-client.ts';
import { liveInputsFingerprint, type LiveRunIdentity } from './run-identity.ts';
import { LIVE_RUN_FILE, OUTCOMES_FILE, takeOverLiveFolder } from './run-folder.ts';

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
  /** Start over: forget the journal in the folder (and the exchanges it recorded) instead of resuming it. */
  fresh?: boolean;
  /** Run one shard of the run's units (`live --shard i/n`). */
  shard?: LiveShard;
  /** Merge: the calls the shards recorded. Every call is replayed from them; none is sent. */
  shards?: RecordedCalls;
}

/** One pipeline on one task: what a shard of a live run is made of. */
export interface LiveUnit {
  /** `<pipeline>/<task id>` (liveUnitKey). */
  key: string;
  /** Model calls the unit makes if every turn succeeds, from its measured turns (1 per turn, 1 more per needed tool and per discovery call). */
  estimatedCalls: number;
}

export interface LiveShard {
  spec: ShardSpec;
  /** This shard's units, given every unit of the run, in run order (the command's plan). */
  select(units: readonly LiveUnit[]): ReadonlySet<string>;
}

function liveUnitKey(pipeline: string, taskId: string): string {
  return `${pipeline}/${taskId}`;
}

export interface LiveRunResult {
  tables: Table[];
  spentUsd: number;
  /** Why the run stopped before the end (budget cap, provider error), if it did. */
  stopped?: string;
  /** What decides the run's results (as its journal records it). */
  identity: LiveRunIdentity;
  /** Every file the run wrote, relative to its folder: saved exchanges, outcomes, tables, live-run.json and (unless dry) the journal. */
  files: string[];
  /** Model calls replayed from a journal, and sent to the endpoint. */
  replayed: number;
  sent: number;
}

/**
 * The live-agent mode: for each pipeline, measure its turns on the sampled tasks and project them
 * (the projection the live run is compared with), then, unless dry, run every task against the
 * model (src/live/agent-loop.ts) within the budget, saving every exchange under `out/requests/`,
 * every task outcome to `out/live-outcomes.jsonl` and the run's settings to `out/live-run.json`.
 * Every call is checkpointed in the folder's journal as it completes: a run started again with
 * the same settings replays what was recorded and sends only the rest (src/live/journal.ts).
 * Everything printed or written has the run's secrets redacted, the base URL shown without its
 * credentials or query values. An endpoint that cannot be used (nothing answers the first
 * connection, a redirect elsewhere) or that answered no request at all throws an EndpointError
 * once what was done is written.
 */
export async function runLive(inputs: LiveRunInputs, settings: LiveRunSettings): Promise<LiveRunResult> {
  const identity = liveRunIdentity(inputs, settings);
  const journal = takeOverLiveFolder(inputs.out, {
    identity,
    shard: settings.shard?.spec ?? null,
    secrets: settings.secrets,
    fresh: settings.fresh === true,
    dryRun: settings.client === null,
  });
  const endpoint: EndpointState = { answered: false };
  const client =
    settings.client && journal
      ? new JournaledClient(settings.client, journal, { endpoint, secrets: settings.secrets, shards: settings.shards })
      : null;
  if (journal?.recorded.size)
    inputs.log(`live: resuming: ${journal.recorded.size} calls recorded in ${journal.path} are replayed, not sent`);
  try {
    return await runLiveWith(inputs, settings, identity, client, endpoint);
  } finally {
    journal?.close();
  }
}

/** What decides the run's results (src/live/run-identity.ts). */
function liveRunIdentity(inputs: LiveRunInputs, settings: LiveRunSettings): LiveRunIdentity {
  return {
    provider: settings.provider,
    model: settings.model,
    baseUrl: redactUrl(settings.baseUrl),
    price: settings.price,
    priceFrom: settings.priceFrom,
    maxTokens: settings.maxTokens,
    maxSteps: settings.maxSteps,
    tasks: { note: inputs.taskNote, ids: inputs.tasks.map((t) => t.id) },
    pipelines: inputs.pipelines.map((p) => p.id),
    seed: inputs.seed,
    tokenizer: inputs.tokenizer,
    encoder: inputs.encoder?.name ?? null,
    inputs: liveInputsFingerprint(inputs.catalog, inputs.tasks, inputs.calibrationTasks, inputs.historyTasks),
  };
}

interface MeasuredPipeline {
  pipeline: Pipeline;
  loop: PipelineLoopOptions;
  method: LiveMethod;
  /** Model calls per task if every turn succeeds, by task id. */
  estimatedCalls: Map<string, number>;
}

/** What a pipeline's agent loop needs from the pipeline itself, read from its settings (the same for every task). */
export type PipelineLoopOptions = Pick<
  AgentLoopOptions,
  'gate' | 'cli' | 'shell' | 'toolSearch' | 'search' | 'answerTool' | 'programmatic'
>;

export function pipelineLoopOptions(pipeline: Pipeline): PipelineLoopOptions {
  const s: PipelineSettings = pipeline.describe?.() ?? { details: {} };
  return {
    gate: s.gates?.hallucination === true,
    ...(s.discovery ? { cli: s.discovery.cli, shell: s.discovery.shell ?? 'cli' } : {}),
    ...(s.toolSearch ? { toolSearch: s.toolSearch, search: pipeline.search?.bind(pipeline) } : {}),
    ...(pipeline.answerTool ? { answerTool: pipeline.answerTool.bind(pipeline) } : {}),
    programmatic: s.codeExecution?.programmatic === true,
  };
}

async function runLiveWith(
  inputs: LiveRunInputs,
  settings: LiveRunSettings,
  identity: LiveRunIdentity,
  client: JournaledClient | null,
  endpoint: EndpointState,
): Promise<LiveRunResult> {
  const budget = new BudgetGuard(settings.price, settings.maxUsd);
  const recorder = new ExchangeRecorder(join(inputs.out, REQUESTS_DIR), settings.secrets);
  // Every built-in host profile counts each turn's first request beside the provider.
  const live = liveProfiles(settings.model, inputs.tokens.tokenizer);
  const hosts = live.profiles.map((p) => new HostMeasure(p));

  // Every pipeline is measured and projected before any call: a shard's plan needs every unit's estimate.
  const measured = await measurePipelines(inputs, settings);
  const methods = measured.map((m) => m.method);
  // A shard's units, planned even on a dry run (the command records the plan).
  const mine = settings.shard?.select(
    measured.flatMap((m) =>
      inputs.tasks.map((t) => ({ key: liveUnitKey(m.pipeline.id, t.id), estimatedCalls: m.estimatedCalls.get(t.id) ?? 1 })),
    ),
  );
  const sending: Sending = { inputs, settings, budget, recorder, hosts, endpoint };
  const run = client ? await runLiveUnits(measured, mine, client, sending) : { outcomes: [], stopped: undefined, unusable: undefined };
  let { stopped, unusable } = run;

  // Requests were sent and not one got an HTTP response: the endpoint, not the model, failed.
  if (!unusable && !endpoint.answered && endpoint.lastNoResponse)
    unusable = new EndpointError(`no request got a response from the endpoint: ${endpoint.lastNoResponse}`);
  if (unusable) stopped = unusable.message;
  const info: LiveRunInfo = {
    provider: settings.provider,
    model: settings.model,
    baseUrl: redactUrl(settings.baseUrl),
    price: settings.price,
    priceFrom: settings.priceFrom,
    tasks: inputs.taskNote,
    stopped,
  };
  const tables = liveTables(methods, info, inputs.tokenizer, live, client !== null).map((t) => redactJson(t, settings.secrets));
  const files = writeLiveRun(run.outcomes, tables, recorder, sending, stopped);
  if (unusable) throw unusable;
  return {
    tables,
    spentUsd: budget.spentUsd,
    ...(stopped ? { stopped: redactText(stopped, settings.secrets) } : {}),
    identity,
    files: [...files, LIVE_RUN_FILE, ...(client ? [JOURNAL_FILE] : [])],
    replayed: client?.replayed ?? 0,
    sent: client?.sent ?? 0,
  };
}

/** Each pipeline prepared, its turns measured on the run's tasks and projected: what the live outcomes are compared with. */
async function measurePipelines(inputs: LiveRunInputs, settings: LiveRunSettings): Promise<MeasuredPipeline[]> {
  const scopes = new Map(inputs.tasks.map((t) => [t.id, t.initialState.authScopes]));
  const measured: MeasuredPipeline[] = [];
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
    const loop = pipelineLoopOptions(pipeline);
    const records: TurnRecord[] = await runPipeline(pipeline, inputs.tasks, {
      catalog: inputs.catalog,
      tokens: inputs.tokens,
      seed: inputs.seed,
    });
    const violations = preconditionViolations(records, inputs.catalog, (_seed, id) => scopes.get(id));
    const projection = projectPipeline(records, PROJECTION_PARAMS, inputs.seed, {
      hallucinationGate: loop.gate,
      violations: (t) => violations.get(t as TurnRecord) ?? 0,
    });
    const method: LiveMethod = {
      id: pipeline.id,
      label: pipeline.label,
      outcomes: [],
      projected: projection.successRate,
      estimate: estimateLiveCost(records, settings.price),
    };
    const estimatedCalls = new Map<string, number>();
    for (const r of records) estimatedCalls.set(r.taskId, (estimatedCalls.get(r.taskId) ?? 0) + 1 + r.needed + r.discoveryCalls);
    measured.push({ pipeline, loop, method, estimatedCalls });
  }
  return measured;
}

/** What every model call of the run goes through: the budget, the recorder, the host counts and the endpoint's state. */
interface Sending {
  inputs: LiveRunInputs;
  settings: LiveRunSettings;
  budget: BudgetGuard;
  recorder: ExchangeRecorder;
  hosts: HostMeasure[];
  endpoint: EndpointState;
}

/**
 * Every unit of this shard (`mine`; all without one) against the model, pipeline by pipeline, until the budget,
 * an error that ends the run, or the end; each pipeline's outcomes also go to its method.
 */
async function runLiveUnits(
  measured: readonly MeasuredPipeline[],
  mine: ReadonlySet<string> | undefined,
  client: JournaledClient,
  { inputs, settings, budget, recorder, hosts, endpoint }: Sending,
): Promise<{ outcomes: LiveTaskOutcome[]; stopped: string | undefined; unusable: EndpointError | undefined }> {
  const log = (line: string) => inputs.log(redactText(line, settings.secrets));
  const outcomes: LiveTaskOutcome[] = [];
  let stopped: string | undefined;
  let unusable: EndpointError | undefined;
  for (const { pipeline, loop, method } of measured) {
    if (stopped) continue;
    for (const task of inputs.tasks) {
      if (mine && !mine.has(liveUnitKey(pipeline.id, task.id))) continue;
      try {
        const outcome = await runLiveTask(pipeline, task, {
          client,
          model: settings.model,
          catalog: inputs.catalog,
          tokens: inputs.tokens,
          budget,
          recorder,
          maxTokens: settings.maxTokens,
          maxSteps: settings.maxSteps,
          ...loop,
          endpoint,
          hosts,
        });
        method.outcomes.push(outcome);
        outcomes.push(outcome);
      } catch (err) {
        // A journal or part that does not fit this run: nothing of this run is worth writing.
        if (err instanceof InputError) throw err;
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
      `live ${pipeline.label.padEnd(24)} ${wins}/${method.outcomes.length} tasks succeeded; projected ${(100 * method.projected.mean).toFixed(1)}%; spent $${budget.spentUsd.toFixed(4)}`,
    );
  }
  return { outcomes, stopped, unusable };
}

/** The run's tables: live against projected, tokens and cost; a dry run has the cost estimate only. */
function liveTables(
  methods: readonly LiveMethod[],
  info: LiveRunInfo,
  tokenizer: string,
  live: ReturnType<typeof liveProfiles>,
  sent: boolean,
): Table[] {
  if (!sent) return [liveCostTable(methods, info)];
  return [
    liveVsProjectedTable(methods, info),
    liveTokensTable(
      methods,
      tokenizer,
      live.profiles.map((p) => ({ id: p.id, label: p.label, tokenizerNote: p.tokenizerNote })),
      live.notes,
    ),
    liveCostTable(methods, info),
  ];
}

/** Writes the outcomes, the tables and live-run.json (redacted); returns the files live-run.json lists. */
function writeLiveRun(
  outcomes: readonly LiveTaskOutcome[],
  tables: readonly Table[],
  recorder: ExchangeRecorder,
  { inputs, settings, budget }: Sending,
  stopped: string | undefined,
): string[] {
  const redacted = <T>(value: T) => redactJson(value, settings.secrets);
  mkdirSync(inputs.out, { recursive: true });
  writeFileSync(
    join(inputs.out, OUTCOMES_FILE),
    outcomes.map((o) => JSON.stringify(redacted(o))).join('\n') + (outcomes.length ? '\n' : ''),
  );
  for (const t of tables) writeTableResult(inputs.out, t);
  // What live-run.json lists: the next run in this folder removes these and nothing else.
  const files = [...recorder.written.map((name) => `${REQUESTS_DIR}/${name}`), OUTCOMES_FILE, ...tables.map((t) => `tables/${t.id}.json`)];
  const turns = outcomes.flatMap((o) => o.turns);
  // How the run was made (never the key: it is only ever in the client's request headers).
  const manifest = redacted({
    provider: settings.provider,
    model: settings.model,
    baseUrl: redactUrl(settings.baseUrl),
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
    ...(settings.shard ? { shard: settings.shard.spec } : {}),
    spentUsd: budget.spentUsd,
    // Which count each model call was charged on (src/live/budget.ts).
    chargedOn: {
      provider: turns.reduce((s, t) => s + t.modelCalls - t.ownCountCalls, 0),
      ownCount: turns.reduce((s, t) => s + t.ownCountCalls, 0),
    },
    stopped: stopped ?? null,
    files,
    finishedAt: new Date().toISOString(),
  });
  writeFileSync(join(inputs.out, LIVE_RUN_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
  return files;
}
