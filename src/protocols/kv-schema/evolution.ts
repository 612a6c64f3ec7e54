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
  const { script, encoder } = opts;
  const p: EvolutionParams = opts.params ?? structuredClone(EVOLUTION_PARAMS as unknown as EvolutionParams);
  const inducer = opts.inducer ?? new RuleBasedKeyInducer();
  const start = opts.start ?? new Date('2026-05-01T00:00:00Z');
  const rng = new Rng(opts.seed, `kv-evolution:${script.name}`);
  const judge = new Rng(opts.seed, `kv-judge:${script.name}`);

  const texts = allFragmentTexts(script);
  const vectors = await encoder.embed(texts);
  const vectorOf = new Map(texts.map((t, i) => [t, vectors[i]!]));

  const pool = new DifferentialSemanticPool(p);
  const base = script.template;
  const baseKeys = new Map(base.keys.map((k) => [k.key_name, { ...k }]));
  const keys = new Map<string, LiveKey>();
  const queue: Cluster[] = [];
  const patches: SchemaPatch[] = [];
  const timeline: TimelineRow[] = [];
  const daily: DailyKeyRow[] = [];
  const sourceOf = new Map<string, string>(); // fragment text -> need id (ground truth, for the simulation only)
  for (const need of script.needs)
    for (const t of allFragmentTexts({ ...script, needs: [need], noise: { share: 0, phrases: [] } })) sourceOf.set(t, need.id);

  const clients = Array.from({ length: script.clients }, (_, i) => `client-${String(i + 1).padStart(2, '0')}`);
  const legacy = new Set(clients.slice(0, Math.round(script.legacyShare * script.clients)));
  const received = new Map<string, Set<string>>(clients.map((c) => [c, new Set()]));
  const adopted = new Map<string, Set<string>>(clients.map((c) => [c, new Set()]));
  const retriggerDays = new Set<string>();

  const s = {
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
  const usesToday = new Map<string, number>();
  let payloadsToday = 0;

  const experimentalCount = () => [...keys.values()].filter((k) => k.state === 'experimental').length;
  const dayOf = (tH: number) => Math.floor(tH / 24);

  function row(
    tH: number,
    key: string,
    event: TimelineEvent,
    k: LiveKey | undefined,
    cluster: Cluster | undefined,
    note: string,
    m?: MetricSnapshot,
  ): void {
    const c = cluster ?? (k ? pool.clusters[k.clusterId] : undefined);
    timeline.push({
      day: dayOf(tH),
      hour: Math.round((tH % 24) * 10) / 10,
      scenario: base.scenario,
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
      clusterHeat: c ? Math.round(pool.heat(c, tH) * 10) / 10 : 0,
      patchId: k?.patchId ?? null,
      note,
    });
  }

  function majoritySource(c: Cluster): string | undefined {
    const counts = new Map<string, number>();
    for (const f of c.fragments) {
      const src = sourceOf.get(f.text);
      if (src) counts.set(src, (counts.get(src) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  }

  function patchCluster(c: Cluster, tH: number): void {
    const candidate = inducer.induce(c.fragments.map((f) => f.text));
    c.state = 'patched';
    c.keyName = candidate.key_name;
    const prior = keys.get(candidate.key_name);
    if (prior && !isAdvertised(prior)) {
      // A key that failed once is not re-proposed from the same demand: no add/withdraw churn.
      s.suppressed++;
      row(tH, candidate.key_name, 'suppressed', prior, c, `name collides with a ${prior.state} key`);
      return;
    }
    const patchKeys = new Map([...keys.values()].filter(isAdvertised).map((k) => [k.def.key_name, k.def]));
    const packaged = packagePatch(candidate, {
      parentSchemaId: base.schema_id,
      baseKeys,
      patchKeys,
      patchId: `${base.schema_id}-patch-${patches.length + 1}`,
      timestamp: new Date(start.getTime() + tH * 3_600_000),
      observationWindowDays: p.observationWindowDays,
    });
    patches.push(packaged.patch);
    if (packaged.conflict !== 'none') {
      const refined = packaged.patch.modified_keys![0]!;
      if (packaged.conflict === 'base-key') baseKeys.set(refined.key_name, refined);
      else keys.get(refined.key_name)!.def.semantic_description = refined.semantic_description;
      s.merged++;
      row(
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
      needId: majoritySource(c),
      patchId: packaged.patch.patch_id,
    };
    keys.set(k.def.key_name, k);
    s.newKeys++;
    s.maxExp = Math.max(s.maxExp, experimentalCount());
    row(tH, k.def.key_name, 'patched', k, c, `new ${k.def.key_type} key, experimental`);
  }

  function onMature(c: Cluster, tH: number): void {
    s.triggers++;
    if (experimentalCount() >= p.maxExperimentalKeys) {
      c.state = 'queued';
      queue.push(c);
      s.queued++;
      row(
        tH,
        inducer.induce(c.fragments.map((f) => f.text)).key_name,
        'queued',
        undefined,
        c,
        `convergence guard: ${experimentalCount()} experimental keys`,
      );
    } else patchCluster(c, tH);
  }

  function endOfDay(day: number): void {
    const tH = (day + 1) * 24;
    for (const k of keys.values()) {
      const m = snapshot(k.metrics);
      if (k.state === 'experimental' && tH >= k.trialStartH + p.trialDays * 24) {
        const d = decide(m, p);
        if (d === 'promote') {
          k.state = 'stable';
          k.sinceH = tH;
          delete k.def.experimental;
          row(tH, k.def.key_name, 'promoted', k, undefined, 'stable', m);
        } else if (d === 'deprecate') {
          k.state = 'deprecated';
          k.sinceH = tH;
          delete k.def.experimental;
          k.def.deprecated = true;
          row(tH, k.def.key_name, 'deprecated', k, undefined, 'below a deprecation bar', m);
        } else {
          k.trialStartH = tH;
          k.trials++;
          k.metrics = { ...emptyMetrics(), clientsReceived: k.metrics.clientsReceived };
          row(tH, k.def.key_name, 'extended', k, undefined, `neither bar met: trial ${k.trials}`, m);
        }
      } else if (k.state === 'deprecated' && tH >= k.sinceH + p.deprecationGraceDays * 24) {
        k.state = 'withdrawn';
        k.sinceH = tH;
        row(tH, k.def.key_name, 'withdrawn', k, undefined, 'removed from active patches; still accepted with a warning', m);
      } else if (k.state === 'withdrawn' && tH >= k.sinceH + p.withdrawalWindowDays * 24) {
        k.state = 'retired';
        k.sinceH = tH;
        row(tH, k.def.key_name, 'retired', k, undefined, 'backward-compatibility window over: refused from now on', m);
      }
    }
    while (queue.length > 0 && experimentalCount() < p.maxExperimentalKeys) patchCluster(queue.shift()!, tH);
    for (const k of keys.values()) {
      daily.push({ day, key_name: k.def.key_name, state: k.state, payloads: payloadsToday, uses: usesToday.get(k.def.key_name) ?? 0 });
    }
    usesToday.clear();
    payloadsToday = 0;
  }

  function keyFor(need: Need, client: string): LiveKey | undefined {
    for (const k of keys.values()) {
      if (k.needId !== need.id || !adopted.get(client)!.has(k.def.key_name)) continue;
      if (legacy.has(client) || k.state === 'experimental' || k.state === 'stable') return k;
    }
    return undefined;
  }

  function valueFor(k: LiveKey, need: Need, text: string, n: number | undefined): unknown {
    const ok = rng.chance(need.typeCorrect);
    const num = n ?? rng.int(1, 9);
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

  for (let day = 0; day < script.days; day++) {
    const times = Array.from({ length: script.requestsPerDay }, () => day * 24 + rng.next() * 24).sort((a, b) => a - b);
    for (const tH of times) {
      s.requests++;
      const client = rng.pick(clients);
      // The response to this client's previous request carried the advertised keys (§6.2.2 Online Update Delivery).
      for (const k of keys.values()) {
        if (!isAdvertised(k) || k.state === 'deprecated' || received.get(client)!.has(k.def.key_name)) continue;
        received.get(client)!.add(k.def.key_name);
        k.metrics.clientsReceived.add(client);
        const need = script.needs.find((x) => x.id === k.needId);
        if (need && rng.chance(need.adoption)) adopted.get(client)!.add(k.def.key_name);
      }

      const payload = script.basePayload(rng);
      const other: string[] = [];
      const judged: { key: LiveKey; need: Need }[] = [];
      for (const need of script.needs) {
        if (!rng.chance(shareOn(need, day))) continue;
        const { text, n } = renderPhrase(need, rng);
        const k = keyFor(need, client);
        if (k) {
          setOwn(payload, k.def.key_name, valueFor(k, need, text, n));
          judged.push({ key: k, need });
        } else other.push(text);
      }
      if (rng.chance(script.noise.share)) other.push(rng.pick(script.noise.phrases));
      if (other.length > 0) payload.other = other.length === 1 ? other[0] : other;

      const advertised = [...keys.values()].filter(isAdvertised);
      const schema: SchemaTemplate = { ...base, keys: [...baseKeys.values(), ...advertised.map((k) => k.def)] };
      const v = validatePayload(
        schema,
        { schema_id: base.schema_id, payload },
        {
          legacyKeys: new Set([...keys.values()].filter((k) => k.state === 'withdrawn').map((k) => k.def.key_name)),
          provisionalKeys: new Set(advertised.filter((k) => k.state !== 'stable').map((k) => k.def.key_name)),
        },
      );
      if (!v.valid) {
        s.rejected++;
        continue;
      }
      s.accepted++;
      if (v.warnings.length > 0) s.warned++;
      payloadsToday++;
      for (const k of keys.values()) if (k.state === 'experimental') k.metrics.payloads++;
      for (const { key, need } of judged) {
        usesToday.set(key.def.key_name, (usesToday.get(key.def.key_name) ?? 0) + 1);
        if (key.state !== 'experimental') continue;
        key.metrics.uses++;
        key.metrics.clientsUsed.add(client);
        if (judge.chance(need.alignment)) key.metrics.aligned++;
        if (conformsTo(ownValue(payload, key.def.key_name), key.def.key_type)) key.metrics.typeOk++;
      }
      for (const text of other) {
        s.fragments++;
        const { cluster } = pool.add({ text, clientId: client, timeH: tH }, vectorOf.get(text)!);
        if (!pool.isMature(cluster, tH)) continue;
        if (cluster.state === 'open') onMature(cluster, tH);
        else if (cluster.state === 'patched' && !retriggerDays.has(`${cluster.id}:${day}`)) {
          retriggerDays.add(`${cluster.id}:${day}`);
          s.retriggers++;
        }
      }
    }
    endOfDay(day);
  }

  const advertised = [...keys.values()].filter(isAdvertised);
  const finalSchema: SchemaTemplate = {
    ...base,
    keys: [
      ...[...baseKeys.values()].filter((k) => k.key_name !== 'other'),
      ...advertised.map((k) => k.def),
      ...[...baseKeys.values()].filter((k) => k.key_name === 'other'),
    ],
  };
  return {
    timeline,
    daily,
    patches,
    finalSchema,
    summary: {
      script: script.name,
      encoder: encoder.name,
      days: script.days,
      requests: s.requests,
      accepted: s.accepted,
      acceptedWithWarnings: s.warned,
      rejected: s.rejected,
      otherFragments: s.fragments,
      clusters: pool.clusters.length,
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
