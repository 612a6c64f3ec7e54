import type { Encoder } from '../../embed/types.ts';
import { Rng } from '../../util/rng.ts';
import { RuleBasedKeyInducer, type KeyInducer } from './key-inducer.ts';
import { decide, emptyMetrics, isAdvertised, snapshot, type KeyState, type MetricSnapshot, type PatchKey } from './lifecycle.ts';
import { EVOLUTION_PARAMS, type EvolutionParams } from './params.ts';
import { packagePatch } from './patch.ts';
import { validatePayload } from './payload-validator.ts';
import { DifferentialSemanticPool, type Cluster } from './semantic-pool.ts';
import { renderPhrase, shareOn, allFragmentTexts, type Need, type TrafficScript } from './traffic.ts';
import type { SchemaPatch, SchemaTemplate } from './types.ts';
import { conformsTo } from './value-type.ts';
import { ownValue, setOwn } from '../../util/json.ts';

/**
 * Schema self-evolution over simulated days of traffic (§6.2): clients send payloads, "other"
 * fragments feed the Differential Semantic Pool, mature clusters become patches (or queue
 * behind the convergence guard), patch keys go through the experimental → stable /
 * deprecated → withdrawn → retired lifecycle, and every state change is a timeline row.
 */

export type TimelineEvent =
  'queued' | 'patched' | 'merged' | 'suppressed' | 'promoted' | 'deprecated' | 'extended' | 'withdrawn' | 'retired';

export interface TimelineRow {
  day: number;
  hour: number;
  scenario: string;
  key_name: string;
  event: TimelineEvent;
  state: KeyState | null;
  usage: number | null;
  alignment: number | null;
  typeCorrectness: number | null;
  adoption: number | null;
  clusterId: number;
  clusterFragments: number;
  clusterClients: number;
  clusterHeat: number;
  patchId: string | null;
  note: string;
}

export interface DailyKeyRow {
  day: number;
  key_name: string;
  state: KeyState;
  payloads: number;
  uses: number;
}

export interface EvolutionSummary {
  script: string;
  encoder: string;
  days: number;
  requests: number;
  accepted: number;
  acceptedWithWarnings: number;
  rejected: number;
  otherFragments: number;
  clusters: number;
  triggers: number;
  newKeyPatches: number;
  mergedPatches: number;
  suppressed: number;
  queuedTotal: number;
  maxExperimentalAtOnce: number;
  retriggersSuppressed: number;
  finalKeys: Record<string, KeyState>;
}

export interface EvolutionResult {
  summary: EvolutionSummary;
  timeline: TimelineRow[];
  daily: DailyKeyRow[];
  patches: SchemaPatch[];
  /** Base template with the advertised patch keys and refined descriptions at the end. */
  finalSchema: SchemaTemplate;
}

export interface EvolutionOptions {
  script: TrafficScript;
  encoder: Encoder;
  seed: number;
  params?: EvolutionParams;
  inducer?: KeyInducer;
  /** Wall-clock date of simulation hour 0 (patch timestamps). */
  start?: Date;
}

interface LiveKey extends PatchKey {
  needId: string | undefined;
  patchId: string;
}

const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

export async function simulateEvolution(opts: EvolutionOptions): Promise<EvolutionResult> {
  const texts = allFragmentTexts(opts.script);
  const vectors = await opts.encoder.embed(texts);
  const run = new EvolutionRun(opts, new Map(texts.map((t, i) => [t, vectors[i]!])));
  for (let day = 0; day < opts.script.days; day++) run.simulateDay(day);
  return run.result(opts.encoder.name);
}

/** The simulation's counters (the summary's figures). */
interface Counters {
  requests: number;
  accepted: number;
  warned: number;
  rejected: number;
  fragments: number;
  triggers: number;
  newKeys: number;
  merged: number;
  suppressed: number;
  queued: number;
  maxExp: number;
  retriggers: number;
}

/** What a payload carries beyond the base schema: the phrases no key holds yet, and the patch keys it used. */
interface Composed {
  payload: Record<string, unknown>;
  other: string[];
  judged: { key: LiveKey; need: Need }[];
}

/**
 * One simulation's state: the server's schema (base keys, patch keys and their lifecycle), the
 * pool of "other" fragments, the clients' view of the advertised keys, and the records.
 */
class EvolutionRun {
  private readonly script: TrafficScript;
  private readonly p: EvolutionParams;
  private readonly inducer: KeyInducer;
  private readonly start: Date;
  private readonly rng: Rng;
  private readonly judge: Rng;
  private readonly pool: DifferentialSemanticPool;
  private readonly base: SchemaTemplate;
  private readonly baseKeys: Map<string, SchemaTemplate['keys'][number]>;
  private readonly keys = new Map<string, LiveKey>();
  private readonly queue: Cluster[] = [];
  private readonly patches: SchemaPatch[] = [];
  private readonly timeline: TimelineRow[] = [];
  private readonly daily: DailyKeyRow[] = [];
  /** Fragment text -> need id (ground truth, for the simulation only). */
  private readonly sourceOf = new Map<string, string>();
  private readonly clients: string[];
  private readonly legacy: Set<string>;
  private readonly received: Map<string, Set<string>>;
  private readonly adopted: Map<string, Set<string>>;
  private readonly retriggerDays = new Set<string>();
  private readonly s: Counters = {
    requests: 0,
    accepted: 0,
    warned: 0,
    rejected: 0,
    fragments: 0,
    triggers: 0,
    newKeys: 0,
    merged: 0,
    suppressed: 0,
    queued: 0,
    maxExp: 0,
    retriggers: 0,
  };
  private readonly usesToday = new Map<string, number>();
  private payloadsToday = 0;

  constructor(
    opts: EvolutionOptions,
    private readonly vectorOf: ReadonlyMap<string, Float32Array>,
  ) {
    const { script } = opts;
    this.script = script;
    this.p = opts.params ?? structuredClone(EVOLUTION_PARAMS as unknown as EvolutionParams);
    this.inducer = opts.inducer ?? new RuleBasedKeyInducer();
    this.start = opts.start ?? new Date('2026-05-01T00:00:00Z');
    this.rng = new Rng(opts.seed, `kv-evolution:${script.name}`);
    this.judge = new Rng(opts.seed, `kv-judge:${script.name}`);
    this.pool = new DifferentialSemanticPool(this.p);
    this.base = script.template;
    this.baseKeys = new Map(this.base.keys.map((k) => [k.key_name, { ...k }]));
    for (const need of script.needs)
      for (const t of allFragmentTexts({ ...script, needs: [need], noise: { share: 0, phrases: [] } })) this.sourceOf.set(t, need.id);
    this.clients = Array.from({ length: script.clients }, (_, i) => `client-${String(i + 1).padStart(2, '0')}`);
    this.legacy = new Set(this.clients.slice(0, Math.round(script.legacyShare * script.clients)));
    this.received = new Map(this.clients.map((c) => [c, new Set()]));
    this.adopted = new Map(this.clients.map((c) => [c, new Set()]));
  }

  private experimentalCount(): number {
    return [...this.keys.values()].filter((k) => k.state === 'experimental').length;
  }

  private row(
    tH: number,
    key: string,
    event: TimelineEvent,
    k: LiveKey | undefined,
    cluster: Cluster | undefined,
    note: string,
    m?: MetricSnapshot,
  ): void {
    const c = cluster ?? (k ? this.pool.clusters[k.clusterId] : undefined);
    this.timeline.push({
      day: Math.floor(tH / 24),
      hour: Math.round((tH % 24) * 10) / 10,
      scenario: this.base.scenario,
      key_name: key,
      event,
      state: k?.state ?? null,
      usage: round3(m?.usage ?? null),
      alignment: round3(m?.alignment ?? null),
      typeCorrectness: round3(m?.typeCorrectness ?? null),
      adoption: round3(m?.adoption ?? null),
      clusterId: c?.id ?? k?.clusterId ?? -1,
      clusterFragments: c?.fragments.length ?? 0,
      clusterClients: c?.clients.size ?? 0,
      clusterHeat: c ? Math.round(this.pool.heat(c, tH) * 10) / 10 : 0,
      patchId: k?.patchId ?? null,
      note,
    });
  }

  private majoritySource(c: Cluster): string | undefined {
    const counts = new Map<string, number>();
    for (const f of c.fragments) {
      const src = this.sourceOf.get(f.text);
      if (src) counts.set(src, (counts.get(src) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  }

  private patchCluster(c: Cluster, tH: number): void {
    const { keys, s, base } = this;
    const candidate = this.inducer.induce(c.fragments.map((f) => f.text));
    c.state = 'patched';
    c.keyName = candidate.key_name;
    const prior = keys.get(candidate.key_name);
    if (prior && !isAdvertised(prior)) {
      // A key that failed once is not re-proposed from the same demand: no add/withdraw churn.
      s.suppressed++;
      this.row(tH, candidate.key_name, 'suppressed', prior, c, `name collides with a ${prior.state} key`);
      return;
    }
    const patchKeys = new Map([...keys.values()].filter(isAdvertised).map((k) => [k.def.key_name, k.def]));
    const packaged = packagePatch(candidate, {
      parentSchemaId: base.schema_id,
      baseKeys: this.baseKeys,
      patchKeys,
      patchId: `${base.schema_id}-patch-${this.patches.length + 1}`,
      timestamp: new Date(this.start.getTime() + tH * 3_600_000),
      observationWindowDays: this.p.observationWindowDays,
    });
    this.patches.push(packaged.patch);
    if (packaged.conflict !== 'none') {
      const refined = packaged.patch.modified_keys![0]!;
      if (packaged.conflict === 'base-key') this.baseKeys.set(refined.key_name, refined);
      else keys.get(refined.key_name)!.def.semantic_description = refined.semantic_description;
      s.merged++;
      this.row(
        tH,
        candidate.key_name,
        'merged',
        keys.get(candidate.key_name),
        c,
        `conflict with ${packaged.conflict}: description refined, no new key`,
      );
      return;
    }
    const k: LiveKey = {
      def: packaged.patch.new_keys![0]!,
      state: 'experimental',
      sinceH: tH,
      trialStartH: tH,
      metrics: emptyMetrics(),
      clusterId: c.id,
      trials: 1,
      needId: this.majoritySource(c),
      patchId: packaged.patch.patch_id,
    };
    keys.set(k.def.key_name, k);
    s.newKeys++;
    s.maxExp = Math.max(s.maxExp, this.experimentalCount());
    this.row(tH, k.def.key_name, 'patched', k, c, `new ${k.def.key_type} key, experimental`);
  }

  private onMature(c: Cluster, tH: number): void {
    this.s.triggers++;
    if (this.experimentalCount() >= this.p.maxExperimentalKeys) {
      c.state = 'queued';
      this.queue.push(c);
      this.s.queued++;
      this.row(
        tH,
        this.inducer.induce(c.fragments.map((f) => f.text)).key_name,
        'queued',
        undefined,
        c,
        `convergence guard: ${this.experimentalCount()} experimental keys`,
      );
    } else this.patchCluster(c, tH);
  }

  /** The day's lifecycle decisions, queued clusters patched while the guard allows, and the daily rows. */
  private endOfDay(day: number): void {
    const tH = (day + 1) * 24;
    for (const k of this.keys.values()) this.advanceLifecycle(k, tH);
    while (this.queue.length > 0 && this.experimentalCount() < this.p.maxExperimentalKeys) this.patchCluster(this.queue.shift()!, tH);
    for (const k of this.keys.values()) {
      this.daily.push({
        day,
        key_name: k.def.key_name,
        state: k.state,
        payloads: this.payloadsToday,
        uses: this.usesToday.get(k.def.key_name) ?? 0,
      });
    }
    this.usesToday.clear();
    this.payloadsToday = 0;
  }

  /** experimental → stable / deprecated (or another trial) → withdrawn → retired, each after its window. */
  private advanceLifecycle(k: LiveKey, tH: number): void {
    const p = this.p;
    const m = snapshot(k.metrics);
    if (k.state === 'experimental' && tH >= k.trialStartH + p.trialDays * 24) {
      const d = decide(m, p);
      if (d === 'promote') {
        k.state = 'stable';
        k.sinceH = tH;
        delete k.def.experimental;
        this.row(tH, k.def.key_name, 'promoted', k, undefined, 'stable', m);
      } else if (d === 'deprecate') {
        k.state = 'deprecated';
        k.sinceH = tH;
        delete k.def.experimental;
        k.def.deprecated = true;
        this.row(tH, k.def.key_name, 'deprecated', k, undefined, 'below a deprecation bar', m);
      } else {
        k.trialStartH = tH;
        k.trials++;
        k.metrics = { ...emptyMetrics(), clientsReceived: k.metrics.clientsReceived };
        this.row(tH, k.def.key_name, 'extended', k, undefined, `neither bar met: trial ${k.trials}`, m);
      }
    } else if (k.state === 'deprecated' && tH >= k.sinceH + p.deprecationGraceDays * 24) {
      k.state = 'withdrawn';
      k.sinceH = tH;
      this.row(tH, k.def.key_name, 'withdrawn', k, undefined, 'removed from active patches; still accepted with a warning', m);
    } else if (k.state === 'withdrawn' && tH >= k.sinceH + p.withdrawalWindowDays * 24) {
      k.state = 'retired';
      k.sinceH = tH;
      this.row(tH, k.def.key_name, 'retired', k, undefined, 'backward-compatibility window over: refused from now on', m);
    }
  }

  private keyFor(need: Need, client: string): LiveKey | undefined {
    for (const k of this.keys.values()) {
      if (k.needId !== need.id || !this.adopted.get(client)!.has(k.def.key_name)) continue;
      if (this.legacy.has(client) || k.state === 'experimental' || k.state === 'stable') return k;
    }
    return undefined;
  }

  private valueFor(k: LiveKey, need: Need, text: string, n: number | undefined): unknown {
    const ok = this.rng.chance(need.typeCorrect);
    const num = n ?? this.rng.int(1, 9);
    switch (k.def.key_type) {
      case 'boolean':
        return ok ? true : 'yes';
      case 'integer':
      case 'number':
        return ok ? num : `${num} kg`;
      default:
        return ok ? text : 1;
    }
  }

  /** One day of requests at seeded times, then the day's end. */
  simulateDay(day: number): void {
    const { rng } = this;
    const times = Array.from({ length: this.script.requestsPerDay }, () => day * 24 + rng.next() * 24).sort((a, b) => a - b);
    for (const tH of times) this.request(day, tH);
    this.endOfDay(day);
  }

  private request(day: number, tH: number): void {
    const { s } = this;
    s.requests++;
    const client = this.rng.pick(this.clients);
    this.deliverAdvertised(client);
    const composed = this.compose(client, day);
    const v = this.validate(composed.payload);
    if (!v.valid) {
      s.rejected++;
      return;
    }
    s.accepted++;
    if (v.warnings.length > 0) s.warned++;
    this.payloadsToday++;
    for (const k of this.keys.values()) if (k.state === 'experimental') k.metrics.payloads++;
    this.judgeUses(composed, client);
    this.poolFragments(composed.other, client, day, tH);
  }

  /** The response to this client's previous request carried the advertised keys (§6.2.2 Online Update Delivery). */
  private deliverAdvertised(client: string): void {
    for (const k of this.keys.values()) {
      if (!isAdvertised(k) || k.state === 'deprecated' || this.received.get(client)!.has(k.def.key_name)) continue;
      this.received.get(client)!.add(k.def.key_name);
      k.metrics.clientsReceived.add(client);
      const need = this.script.needs.find((x) => x.id === k.needId);
      if (need && this.rng.chance(need.adoption)) this.adopted.get(client)!.add(k.def.key_name);
    }
  }

  /** The client's payload: each need of the day in an adopted key, else as an "other" phrase, plus noise. */
  private compose(client: string, day: number): Composed {
    const { rng, script } = this;
    const payload = script.basePayload(rng);
    const other: string[] = [];
    const judged: Composed['judged'] = [];
    for (const need of script.needs) {
      if (!rng.chance(shareOn(need, day))) continue;
      const { text, n } = renderPhrase(need, rng);
      const k = this.keyFor(need, client);
      if (k) {
        setOwn(payload, k.def.key_name, this.valueFor(k, need, text, n));
        judged.push({ key: k, need });
      } else other.push(text);
    }
    if (rng.chance(script.noise.share)) other.push(rng.pick(script.noise.phrases));
    if (other.length > 0) payload.other = other.length === 1 ? other[0] : other;
    return { payload, other, judged };
  }

  /** The payload against the schema as served now: withdrawn keys are legacy, unstable patch keys provisional. */
  private validate(payload: Record<string, unknown>): ReturnType<typeof validatePayload> {
    const { base } = this;
    const advertised = [...this.keys.values()].filter(isAdvertised);
    const schema: SchemaTemplate = { ...base, keys: [...this.baseKeys.values(), ...advertised.map((k) => k.def)] };
    return validatePayload(
      schema,
      { schema_id: base.schema_id, payload },
      {
        legacyKeys: new Set([...this.keys.values()].filter((k) => k.state === 'withdrawn').map((k) => k.def.key_name)),
        provisionalKeys: new Set(advertised.filter((k) => k.state !== 'stable').map((k) => k.def.key_name)),
      },
    );
  }

  /** Counts each patch key's use; an experimental key's trial metrics also judge its alignment and type. */
  private judgeUses({ payload, judged }: Composed, client: string): void {
    for (const { key, need } of judged) {
      this.usesToday.set(key.def.key_name, (this.usesToday.get(key.def.key_name) ?? 0) + 1);
      if (key.state !== 'experimental') continue;
      key.metrics.uses++;
      key.metrics.clientsUsed.add(client);
      if (this.judge.chance(need.alignment)) key.metrics.aligned++;
      if (conformsTo(ownValue(payload, key.def.key_name), key.def.key_type)) key.metrics.typeOk++;
    }
  }

  /** Each "other" fragment into the pool; a cluster that matures is patched (or queued), a patched one's re-trigger counted once a day. */
  private poolFragments(other: readonly string[], client: string, day: number, tH: number): void {
    for (const text of other) {
      this.s.fragments++;
      const { cluster } = this.pool.add({ text, clientId: client, timeH: tH }, this.vectorOf.get(text)!);
      if (!this.pool.isMature(cluster, tH)) continue;
      if (cluster.state === 'open') this.onMature(cluster, tH);
      else if (cluster.state === 'patched' && !this.retriggerDays.has(`${cluster.id}:${day}`)) {
        this.retriggerDays.add(`${cluster.id}:${day}`);
        this.s.retriggers++;
      }
    }
  }

  result(encoder: string): EvolutionResult {
    const { keys, baseKeys, s, script } = this;
    const advertised = [...keys.values()].filter(isAdvertised);
    const finalSchema: SchemaTemplate = {
      ...this.base,
      keys: [
        ...[...baseKeys.values()].filter((k) => k.key_name !== 'other'),
        ...advertised.map((k) => k.def),
        ...[...baseKeys.values()].filter((k) => k.key_name === 'other'),
      ],
    };
    return {
      timeline: this.timeline,
      daily: this.daily,
      patches: this.patches,
      finalSchema,
      summary: {
        script: script.name,
        encoder,
        days: script.days,
        requests: s.requests,
        accepted: s.accepted,
        acceptedWithWarnings: s.warned,
        rejected: s.rejected,
        otherFragments: s.fragments,
        clusters: this.pool.clusters.length,
        triggers: s.triggers,
        newKeyPatches: s.newKeys,
        mergedPatches: s.merged,
        suppressed: s.suppressed,
        queuedTotal: s.queued,
        maxExperimentalAtOnce: s.maxExp,
        retriggersSuppressed: s.retriggers,
        finalKeys: Object.fromEntries([...keys.values()].map((k) => [k.def.key_name, k.state])),
      },
    };
  }
}
