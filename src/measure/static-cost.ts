import type { Catalog } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import type { Pipeline, PipelineContext, PipelineEntry, TurnResult } from '../pipelines/types.ts';
import { sharedParts } from '../prompt/shared-parts.ts';
import type { Task, TaskTurn } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { Table } from '../table/table.ts';
import type { HostMeasure } from '../hosts/measure.ts';

/** The message of the neutral first turn: asks for nothing a tool would do. */
const NEUTRAL_MESSAGE = 'Hi! What can you help me with today?';

export interface StaticCostOptions {
  encoder?: Encoder;
  seed?: number;
  workDir?: string;
  /** Count the prompts as this host sends them (default: their text, mcp-json); counts with `tokens`. */
  host?: HostMeasure;
}

/**
 * For a catalog without tasks: what each pipeline costs before any query, measured on the
 * prompts the pipelines themselves return, never by knowing which pipeline is which.
 *
 * Each pipeline is prepared on the catalog (no calibration or history tasks: a user's
 * catalog has none) and asked for two single-turn tasks with an empty history and every auth
 * scope the catalog's preconditions mention:
 *   1. neutral — the message above, no tool needed. Its sections marked `stable` are the
 *      static part (system text + stable tool parts, the cacheable prefix when they lead).
 *   2. probe — a turn that needs the catalog's first tool, the message being that tool's
 *      summary. Tool sections not marked stable on either turn are per-turn parts: their
 *      size depends on the query (and, for lazy pipelines, on what the model asks for), so
 *      the table gives the probe's figure only as an example.
 */
export async function staticCostTable(
  catalog: Catalog,
  tokens: TokenCounter,
  pipelines: readonly (Pipeline | PipelineEntry)[],
  options: StaticCostOptions = {},
): Promise<Table> {
  const scopes = [
    ...new Set(catalog.tools.flatMap((t) => t.preconditions.flatMap((p) => (p.kind === 'requires_auth' ? [p.scope] : [])))),
  ].sort();
  const probeTool = catalog.tools[0];
  const neutral = syntheticTask('static-neutral', { user: NEUTRAL_MESSAGE, tools: [] }, scopes, []);
  const probe = probeTool
    ? syntheticTask('static-probe', { user: probeTool.summary, tools: [probeTool.id] }, scopes, [probeTool.server])
    : undefined;
  const host = options.host && !options.host.profile.keepsPromptText ? options.host : undefined;
  const count = (r: TurnResult, keep: (s: TurnResult['prompt']['sections'][number]) => boolean) => {
    const counts = host ? host.sectionCounts(r.prompt.sections) : r.prompt.sections.map((s) => tokens.count(s.text));
    return r.prompt.sections.reduce((n, s, i) => (keep(s) ? n + counts[i]! : n), 0);
  };

  const rows = [];
  for (const p of pipelines) {
    const pipeline = 'create' in p ? p.create() : p;
    const ctx: PipelineContext = {
      catalog,
      tokens,
      encoder: options.encoder,
      seed: options.seed ?? 42,
      workDir: options.workDir ?? '',
      calibrationTasks: [],
      historyTasks: [],
    };
    await pipeline.prepare?.(ctx);
    const first = await firstTurn(pipeline, neutral);
    const probed = probe ? await firstTurn(pipeline, probe) : undefined;
    const stableTools = count(first, (s) => s.stable && s.role === 'tools');
    const perTurnNeutral = count(first, (s) => !s.stable && s.role === 'tools');
    const perTurnProbe = probed ? count(probed, (s) => !s.stable && s.role === 'tools') : 0;
    const stableDiffers = probed !== undefined && count(probed, (s) => s.stable && s.role === 'tools') !== stableTools;
    const notes: string[] = [];
    if (perTurnNeutral > 0 || perTurnProbe > 0) notes.push('has per-turn tool parts: their size depends on the query');
    else notes.push('static only');
    if (stableDiffers) notes.push('stable tool parts differ between the two turns');
    rows.push({
      method: pipeline.label,
      staticTools: stableTools,
      stable: count(first, (s) => s.stable),
      system: count(first, (s) => s.role === 'system'),
      listed: first.exposure.listedTools.length,
      schemas: new Set(first.exposure.fullSchemaTools).size,
      perTurnNeutral,
      perTurnProbe: probed ? perTurnProbe : undefined,
      note: notes.join('; '),
    });
  }
  return {
    id: 'static-cost',
    title: `Static tool cost per pipeline (catalog ${catalog.name}, ${catalog.tools.length} tools, no tasks)`,
    columns: [
      { key: 'method', header: 'method', kind: 'label' },
      { key: 'staticTools', header: 'static tool tokens', kind: 'measured' },
      { key: 'stable', header: 'stable tokens (incl. system)', kind: 'measured' },
      { key: 'system', header: 'system tokens', kind: 'measured' },
      { key: 'listed', header: 'tools listed', kind: 'measured' },
      { key: 'schemas', header: 'full schemas', kind: 'measured' },
      { key: 'perTurnNeutral', header: 'per-turn tool tokens, neutral turn', kind: 'measured' },
      { key: 'perTurnProbe', header: `per-turn tool tokens, probe turn${probeTool ? ` (${probeTool.id})` : ''}`, kind: 'measured' },
      { key: 'note', header: 'note', kind: 'label' },
    ],
    rows,
    notes: [
      `Static part: the sections a pipeline marks stable, on a first turn with an empty history and the neutral message "${NEUTRAL_MESSAGE}". Pipelines are prepared without calibration or history tasks.`,
      "Per-turn tool parts (sections not marked stable) depend on the query; the probe turn needs the catalog's first tool and uses its summary as the message, so its figure is one example, not a mean.",
    ],
  };
}

function syntheticTask(id: string, turn: TaskTurn, scopes: string[], servers: string[]): Task {
  return {
    id,
    kind: 'single',
    turns: [turn],
    groundTruthTools: [...turn.tools].sort(),
    initialState: { authScopes: scopes },
    flags: { ambiguous: false },
    servers,
  };
}

async function firstTurn(pipeline: Pipeline, task: Task): Promise<TurnResult> {
  pipeline.startTask?.(task);
  const turn = task.turns[0]!;
  return pipeline.turn({
    task,
    turnIndex: 0,
    turn,
    state: { authScopes: new Set(task.initialState.authScopes), toolOutputs: [] },
    shared: sharedParts([], turn.user),
  });
}
