import type { Table } from '../../table/table.ts';
import type { KvSchemaStudyResult } from './run.ts';

/** The key-value schema study as report tables. */
export function kvSchemaTables(r: KvSchemaStudyResult): Table[] {
  const never = (x: number | null) => (x === null ? 'never' : x);
  const tokens: Table = {
    id: 'kv-schema-tokens',
    title: 'Structured key-value schema: natural-language request vs structured payload, and break-even',
    columns: [
      { key: 'scenario', header: 'scenario', kind: 'label' },
      { key: 'tokenizer', header: 'tokenizer', kind: 'label' },
      { key: 'requests', header: 'NL requests', kind: 'measured' },
      { key: 'nl', header: 'NL mean', kind: 'measured', digits: 1 },
      { key: 'payload', header: 'payload mean', kind: 'measured', digits: 1 },
      { key: 'negotiation', header: 'negotiation (request + template)', kind: 'measured' },
      { key: 'saved', header: 'saved / message', kind: 'measured', digits: 1 },
      { key: 'breakEven', header: 'break-even (messages)', kind: 'measured' },
      { key: 'breakEvenSchema', header: 'break-even, template re-read per message', kind: 'measured' },
      { key: 'breakEvenServer', header: 'break-even, server NLU modelled', kind: 'parameter' },
    ],
    rows: r.tokenRows
      .filter((x) => x.layout === 'compact')
      .map((x) => ({
        scenario: x.scenario,
        tokenizer: x.tokenizer,
        requests: x.requests,
        nl: x.nlTokensMean,
        payload: x.payloadTokensMean,
        negotiation: `${x.negotiationTokens} (${x.negotiationRequestTokens} + ${x.negotiationResponseTokens})`,
        saved: x.savedPerMessage,
        breakEven: never(x.breakEvenMessages),
        breakEvenSchema: never(x.breakEvenWithSchemaInPrompt),
        breakEvenServer: never(x.breakEvenWithServerParse),
      })),
    notes: [
      "Measured: js-tiktoken counts of the harness's NL requests and of their payloads as compact JSON, and of the negotiation request and template (draft Appendix A.1 shape). Break-even: the smallest number of messages after which negotiation + payloads cost no more than NL requests; 'never' when a payload is not smaller than its NL request.",
      "The last column is a model, not a measurement: it charges the NL path for a server-side parse with the template in the server's prompt.",
    ],
  };
  const s = r.evolution.summary;
  const p = r.params;
  const summary: Table = {
    id: 'kv-schema-evolution',
    title: `Schema self-evolution (${s.script}, ${s.days} days, seed ${r.seed}, encoder ${r.encoder.name})`,
    columns: [
      { key: 'measure', header: 'measure', kind: 'label' },
      { key: 'value', header: 'value', kind: 'measured' },
    ],
    rows: (
      [
        ['requests', s.requests],
        ['payloads accepted', s.accepted],
        ['accepted with warnings (withdrawn or mistyped provisional key)', s.acceptedWithWarnings],
        ['rejected (retired key from a legacy client)', s.rejected],
        ['"other" fragments', s.otherFragments],
        ['clusters', s.clusters],
        ['triggers (dual gate passed)', s.triggers],
        ['patches adding a key', s.newKeyPatches],
        ['patches merged into an existing key (conflict)', s.mergedPatches],
        ['suppressed (name of a withdrawn/retired key)', s.suppressed],
        ['queued by the convergence guard', s.queuedTotal],
        ['max experimental keys at once', s.maxExperimentalAtOnce],
        ['re-triggers of already patched clusters (ignored)', s.retriggersSuppressed],
      ] as const
    ).map(([measure, value]) => ({ measure, value })),
    notes: [
      `Parameters (${r.paramsSource}): cosine ≥ ${p.clusterSimilarity}, heat half-life ${p.heatHalfLifeHours} h, +${p.heatIncrement} heat per fragment (harness choice), trigger at heat ≥ ${p.heatThreshold} and (≥ ${p.minDistinctClients} clients or ≥ ${p.minOccurrencesInWindow} occurrences in ${p.occurrenceWindowDays} days), ≤ ${p.maxExperimentalKeys} experimental keys, ${p.trialDays}-day trial, promote at usage ≥ ${p.promote.usage * 100}% / alignment ≥ ${p.promote.alignment * 100}% / type ≥ ${p.promote.typeCorrectness * 100}%, deprecate below ${p.deprecate.usage * 100}% / ${p.deprecate.alignment * 100}% / ${p.deprecate.typeCorrectness * 100}%, ${p.deprecationGraceDays}-day grace, ${p.withdrawalWindowDays}-day withdrawal window.`,
      `Encoder: ${r.encoder.description}. Final keys: ${
        Object.entries(s.finalKeys)
          .map(([k, v]) => `${k} = ${v}`)
          .join(', ') || 'none'
      }.`,
    ],
  };
  const pct = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 10);
  const timeline: Table = {
    id: 'kv-schema-timeline',
    title: "Timeline of the schema's keys",
    columns: [
      { key: 'day', header: 'day', kind: 'measured' },
      { key: 'key', header: 'key', kind: 'label' },
      { key: 'event', header: 'event', kind: 'label' },
      { key: 'state', header: 'state', kind: 'label' },
      { key: 'usage', header: 'usage %', kind: 'measured', digits: 1 },
      { key: 'alignment', header: 'alignment %', kind: 'measured', digits: 1 },
      { key: 'typeOk', header: 'type ok %', kind: 'measured', digits: 1 },
      { key: 'adoption', header: 'adoption %', kind: 'measured', digits: 1 },
      { key: 'fragments', header: 'cluster fragments', kind: 'measured' },
      { key: 'clients', header: 'cluster clients', kind: 'measured' },
      { key: 'note', header: 'note', kind: 'label' },
    ],
    rows: r.evolution.timeline
      .filter((t) => t.event !== 'extended')
      .map((t) => ({
        day: t.day,
        key: t.key_name,
        event: t.event,
        state: t.state,
        usage: pct(t.usage),
        alignment: pct(t.alignment),
        typeOk: pct(t.typeCorrectness),
        adoption: pct(t.adoption),
        fragments: t.clusterFragments,
        clients: t.clusterClients,
        note: t.note,
      })),
    notes: [
      `Trials extended because neither bar was met (the draft does not say what happens then): ${r.evolution.timeline.filter((t) => t.event === 'extended').length}.`,
    ],
  };
  return [tokens, summary, timeline];
}
