import type { ChartDef } from './chart.ts';
import { ChartSkip } from './chart.ts';
import { cellText, hasColumns, toLabel, toNumber } from './columns.ts';
import { AUTOSIZE, CHART_CONFIG, CHART_WIDTH, chartTitle, SCHEMA, SOURCE_COLORS } from './spec-base.ts';
import type { Table } from '../../table/table.ts';
import { ownValue } from '../../util/json.ts';

/**
 * Coordination tokens per hop, English versus AACP.
 *
 * Expected: an `aacp-*` table with one row per hop (the AACP study's hop rows):
 *   hop            label     e.g. "fetch-employees"
 *   englishTokens  measured  tokens of the English instruction
 *   aacpTokens     measured  tokens of the AACP packet
 *   workflow       label     optional; hops are labelled "workflow · hop"
 *   tokenizer      label     optional; the run's tokenizer is drawn (else the first)
 *   framing        label     optional; "bare" is drawn (else the first)
 */
export const aacpHopsChart: ChartDef = {
  id: 'aacp-tokens-per-hop',
  title: 'AACP tokens per hop: English vs AACP',
  sources: ['aacp-*'],
  build([tables], info) {
    const t = tables!.find((x) => hasColumns(x, ['hop', 'englishTokens', 'aacpTokens']));
    if (!t) throw new ChartSkip(`no ${tables!.map((x) => x.id).join(', ')} table has the columns hop, englishTokens, aacpTokens`);
    const tokenizer = pick(t, 'tokenizer', info?.tokenizer);
    const framing = pick(t, 'framing', 'bare');
    const rows = t.rows.filter(
      (r) => (tokenizer === undefined || toLabel(r.tokenizer) === tokenizer) && (framing === undefined || toLabel(r.framing) === framing),
    );
    const hopLabel = (r: (typeof rows)[number]) => (toLabel(r.workflow) ? `${toLabel(r.workflow)} · ${toLabel(r.hop)}` : toLabel(r.hop));
    const values = rows
      .flatMap((r) => [
        { hop: hopLabel(r), language: 'English', tokens: toNumber(r.englishTokens), figure: cellText(t, 'englishTokens', r.englishTokens) },
        { hop: hopLabel(r), language: 'AACP', tokens: toNumber(r.aacpTokens), figure: cellText(t, 'aacpTokens', r.aacpTokens) },
      ])
      .filter((v) => v.tokens !== undefined);
    if (values.length === 0) throw new ChartSkip(`table ${t.id} has no numeric hop rows`);
    const subtitle = [`from table ${t.id}`, tokenizer && `tokenizer ${tokenizer}`, framing && `framing ${framing}`]
      .filter(Boolean)
      .join('; ');
    return {
      $schema: SCHEMA,
      title: chartTitle('Coordination tokens per hop: English vs AACP', subtitle),
      width: CHART_WIDTH,
      autosize: AUTOSIZE,
      height: new Set(values.map((v) => v.hop)).size * 32, // fixed, not a step: autosize fit-x needs a continuous height
      config: CHART_CONFIG,
      data: { values },
      encoding: {
        y: { field: 'hop', type: 'nominal', sort: [...new Set(values.map((v) => v.hop))], title: null, axis: { labelLimit: 0 } },
        yOffset: { field: 'language', type: 'nominal', sort: ['English', 'AACP'] },
        x: { field: 'tokens', type: 'quantitative', title: 'tokens per message (measured)' },
        color: {
          field: 'language',
          type: 'nominal',
          title: null,
          scale: { domain: ['English', 'AACP'], range: ['#4c9f8f', SOURCE_COLORS.measured] },
        },
      },
      layer: [
        {
          mark: 'bar',
          encoding: { tooltip: [{ field: 'hop' }, { field: 'language' }, { field: 'figure', title: `tokens (measured, table ${t.id})` }] },
        },
        { mark: { type: 'text', align: 'left', dx: 3, fontSize: 9 }, encoding: { text: { field: 'tokens' }, color: { value: '#333' } } },
      ],
    };
  },
};

/** The preferred value of an optional column if present among the rows, else its first value; undefined without the column. */
function pick(t: Table, key: string, preferred: string | undefined): string | undefined {
  if (!hasColumns(t, [key]) && !t.rows.some((r) => ownValue(r, key) !== undefined)) return undefined;
  const seen = t.rows.map((r) => toLabel(ownValue(r, key))).filter(Boolean);
  if (seen.length === 0) return undefined;
  return preferred && seen.includes(preferred) ? preferred : seen[0];
}
