import type { Table } from '../../table/table.ts';
import { DRAFT_BENCHMARK_HOPS } from '../../protocols/aacp/messages.ts';
import type { AacpStudyResult } from './run.ts';
import { ownValue } from '../../util/json.ts';

/** The AACP study as report tables: our measurements, the draft's figures beside them. */
export function aacpTables(r: AacpStudyResult): Table[] {
  return [payrollHopsTable(r), packetsTable(r), workflowsTable(r), streamTable(r)];
}

/** The message text alone, without a provider's per-message framing. */
const bareHops = (r: AacpStudyResult) => r.hopRows.filter((x) => x.framing === 'bare');

/** Each payroll hop, English against the packet, in both tokenizers, the draft's §10.2 figures beside. */
function payrollHopsTable(r: AacpStudyResult): Table {
  const bare = bareHops(r);
  const find = (hop: string, tok: string) => bare.find((x) => x.workflow === 'payroll' && x.hop === hop && x.tokenizer === tok);
  return {
    id: 'aacp-payroll-hops',
    title: 'AACP v1.1: payroll coordination tokens per hop, English vs packet (bare message text)',
    columns: [
      { key: 'hop', header: 'payroll hop', kind: 'label' },
      { key: 'englishTokens', header: 'English cl100k', kind: 'measured' },
      { key: 'aacpTokens', header: 'AACP cl100k', kind: 'measured' },
      { key: 'changeCl', header: 'Δ % cl100k', kind: 'difference', digits: 1 },
      { key: 'englishO', header: 'English o200k', kind: 'measured' },
      { key: 'aacpO', header: 'AACP o200k', kind: 'measured' },
      { key: 'changeO', header: 'Δ % o200k', kind: 'difference', digits: 1 },
      { key: 'pubEnglish', header: 'English (published, Claude)', kind: 'published' },
      { key: 'pubAacp', header: 'AACP (published, Claude)', kind: 'published' },
      { key: 'pubClaude', header: 'Δ % (published, Claude)', kind: 'published', digits: 1 },
      { key: 'pubGpt', header: 'Δ % (published, GPT-4o)', kind: 'published', digits: 1 },
    ],
    rows: [...DRAFT_BENCHMARK_HOPS, 'log-run', 'send-report'].flatMap((hop) => {
      const c = find(hop, 'cl100k_base');
      const o = find(hop, 'o200k_base');
      if (!c) return [];
      return [
        {
          hop,
          englishTokens: c.englishTokens,
          aacpTokens: c.aacpTokens,
          changeCl: c.changePct,
          englishO: o?.englishTokens,
          aacpO: o?.aacpTokens,
          changeO: o?.changePct,
          pubEnglish: c.publishedEnglish,
          pubAacp: c.publishedAacp,
          pubClaude: c.publishedClaudePct,
          pubGpt: c.publishedGpt4oPct,
        },
      ];
    }),
    notes: [
      "Measured: js-tiktoken counts of the harness's own English instructions and of the rule-based packets. Published: the AACP draft's §10.2 (Claude live API counts; GPT-4o as percentages) — another tokenizer and other English text, for comparison only.",
      'log-run and send-report are hops of our payroll workflow the draft does not benchmark.',
    ],
  };
}

/** Every packet the rule-based encoders made, with its English instruction's size. */
function packetsTable(r: AacpStudyResult): Table {
  return {
    id: 'aacp-packets',
    title: 'AACP packets measured (rule-based encoders on the draft’s example inputs)',
    columns: [
      { key: 'workflow', header: 'workflow', kind: 'label' },
      { key: 'hop', header: 'hop', kind: 'label' },
      { key: 'packet', header: 'AACP packet', kind: 'label' },
      { key: 'english', header: 'English cl100k', kind: 'measured' },
      { key: 'aacp', header: 'AACP cl100k', kind: 'measured' },
    ],
    rows: bareHops(r)
      .filter((x) => x.tokenizer === 'cl100k_base')
      .map((x) => ({
        workflow: x.workflow,
        hop: x.hop,
        packet: ownValue(r.packets, `${x.workflow}/${x.hop}`) ?? null,
        english: x.englishTokens,
        aacp: x.aacpTokens,
      })),
  };
}

/** Whole workflows, bare and framed: the framing is a parameter, so it is named in a note. */
function workflowsTable(r: AacpStudyResult): Table {
  const f = r.params.framing;
  return {
    id: 'aacp-workflows',
    title: 'AACP per workflow, bare and with per-message framing',
    columns: [
      { key: 'workflow', header: 'workflow', kind: 'label' },
      { key: 'hops', header: 'hops', kind: 'measured' },
      { key: 'framing', header: 'framing', kind: 'label' },
      { key: 'englishCl', header: 'English cl100k', kind: 'measured' },
      { key: 'aacpCl', header: 'AACP cl100k', kind: 'measured' },
      { key: 'changeCl', header: 'Δ % cl100k', kind: 'difference', digits: 1 },
      { key: 'englishO', header: 'English o200k', kind: 'measured' },
      { key: 'aacpO', header: 'AACP o200k', kind: 'measured' },
      { key: 'changeO', header: 'Δ % o200k', kind: 'difference', digits: 1 },
      { key: 'pubClaude', header: 'Δ % (published, Claude)', kind: 'published', digits: 1 },
      { key: 'pubGpt', header: 'Δ % (published, GPT-4o)', kind: 'published', digits: 1 },
    ],
    rows: r.workflowRows
      .filter((x) => x.tokenizer === 'cl100k_base')
      .map((c) => {
        const o = r.workflowRows.find((x) => x.workflow === c.workflow && x.framing === c.framing && x.tokenizer === 'o200k_base');
        return {
          workflow: c.workflow,
          hops: c.hops,
          framing: c.framing,
          englishCl: c.englishTokens,
          aacpCl: c.aacpTokens,
          changeCl: c.changePct,
          englishO: o?.englishTokens,
          aacpO: o?.aacpTokens,
          changeO: o?.changePct,
          pubClaude: c.publishedClaudePct,
          pubGpt: c.publishedGpt4oPct,
        };
      }),
    notes: [
      `Parameters, not measurements: framing adds ${f['openai-chat'].tokens} tokens per message for openai-chat (${f['openai-chat'].source}) and ${f['anthropic-messages'].tokens} for anthropic-messages (${f['anthropic-messages'].source}).`,
    ],
  };
}

/** The fallback encoder's tiers on the seeded stream, one column per mode. */
function streamTable(r: AacpStudyResult): Table {
  const keys: [keyof AacpStudyResult['streamRows'][number], string, 'measured' | 'projected'][] = [
    ['runs', 'payroll runs', 'measured'],
    ['instructions', 'instructions encoded', 'measured'],
    ['standardInstructions', 'standard hop instructions', 'measured'],
    ['novelInstructions', 'recurring ad-hoc instructions', 'measured'],
    ['oneOffInstructions', 'one-off instructions', 'measured'],
    ['distinctNovelPatterns', 'distinct recurring patterns seen', 'measured'],
    ['llmCalls', 'LLM encoder calls (tier 3)', 'measured'],
    ['hashHits', 'tier 1 hash hits', 'measured'],
    ['patternRegistryHits', 'tier 2 hits, registry template', 'measured'],
    ['patternBuiltinHits', 'tier 2 hits, built-in rule-based', 'measured'],
    ['maxLlmCallsPerPattern', 'max LLM calls for one pattern', 'measured'],
    ['stalePackets', "stale packets served (period/amount not the instruction's)", 'measured'],
    ['registryEntries', 'registry entries at the end', 'measured'],
    ['llmCostUsd', 'LLM encoder cost, USD †', 'projected'],
    ['allLlmCostUsd', 'cost if every instruction went to the LLM, USD †', 'projected'],
    ['standardHopsAllLlmCostUsd', 'cost if the 4 standard hops went to the LLM, USD † (draft: $1.20)', 'projected'],
  ];
  return {
    id: 'aacp-stream',
    title: `AACP fallback encoder on a seeded stream of payroll runs (seed ${r.seed})`,
    columns: [
      { key: 'measure', header: 'measure', kind: 'label' },
      ...r.streamRows.map((s) => ({ key: s.mode, header: s.mode, kind: 'measured' as const, digits: 0 })),
    ],
    rows: keys.map(([k, label]) =>
      Object.fromEntries([
        ['measure', label],
        ...r.streamRows.map((s) => [s.mode, k.toString().endsWith('Usd') ? Number((s[k] as number).toFixed(4)) : (s[k] as number)]),
      ]),
    ),
    notes: [
      `Costs (†) are projections: $${r.params.llmCostPerCallUsd} per LLM call (draft §6.2) times the measured calls. The tier-3 encoder is ${r.streamRows[0]?.llmEncoder}; its packets are plausible, not a model's.`,
      `"reference-sdk-tier2" replays the same stream with the reference SDK's tier 2, which returns a registry entry's cached packet unchanged. Registry entries at start: ${r.registryEntriesAtStart}.`,
    ],
  };
}
