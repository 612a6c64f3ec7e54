import { esc } from './html-escape.ts';
import { formatCell, headerText, PROJECTED_MARK, type Table } from '../table/table.ts';
import { ownValue } from '../util/json.ts';

/** One result table as an HTML section: title, table (cells classed by column kind), notes. */
export function tableToHtml(t: Table, csvHref?: string): string {
  const head = t.columns
    .map((c) => `<th class="k-${c.kind}" scope="col" title="${esc(kindTitle(c.kind))}">${esc(headerText(c))}</th>`)
    .join('');
  const body = t.rows.map((r) => `<tr>${t.columns.map((c) => cell(formatCell(ownValue(r, c.key), c), c.kind)).join('')}</tr>`).join('\n');
  const notes = [...(t.notes ?? [])];
  if (t.columns.some((c) => c.kind === 'projected')) notes.push(`${PROJECTED_MARK} projected: from a parameterised model, not measured.`);
  return [
    `<section class="table" id="table-${esc(t.id)}">`,
    `<h3>${esc(t.title)} <span class="id">${esc(t.id)}</span>${csvHref ? ` <a class="dl" href="${esc(csvHref)}" download type="text/csv">Download CSV</a>` : ''}</h3>`,
    `<div class="scroll"><table>`,
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>\n${body}\n</tbody>`,
    `</table></div>`,
    notes.length ? `<ul class="notes">${notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '',
    `</section>`,
  ].join('\n');
}

/** Long text (e.g. "cli-description 120; cli-list 2,633; ...") wraps instead of widening the table. */
function cell(text: string, kind: string): string {
  return `<td class="k-${kind}${text.length > LONG_TEXT ? ' wrap' : ''}">${esc(text)}</td>`;
}

const LONG_TEXT = 20;

function kindTitle(kind: string): string {
  return kind === 'projected' ? `projected ${PROJECTED_MARK}: from a parameterised model, not measured` : kind;
}
