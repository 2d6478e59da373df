// The Mus hand summary: the four hands shown, and every stone of the hand where it came
// from, lance by lance, with why each lance compared at the showdown was won.

import { t } from '/static/js/i18n.js';
import { html } from '/static/js/html.js';
import { lanceName, mini, pairName, pairOf, pairShort, statusText } from './words.js';

/** The summary of the view's last hand (markup), or '' before the first hand ends. */
export function handSummary(c) {
  const h = c.view.last_hand;
  if (!h) return '';
  const head =
    h.reason === 'showdown'
      ? t('mus.summary_showdown', { n: h.hand + 1 })
      : h.reason === 'ordago'
        ? t('mus.summary_ordago', { n: h.hand + 1, lance: lanceName(h.ordago.lance), pair: pairName(c, h.ordago.team) })
        : t('mus.summary_won', { n: h.hand + 1 });
  const hands = h.hands
    ? html`<div class="reveal-grid">${h.hands
        .map(
          (cards, s) => html`<div class="reveal-seat pair-${pairOf(s)}"><b>${c.name(s)}</b>
            ${v_points(h, s)}<div class="reveal">${cards.map(mini)}</div></div>`,
        )}</div>`
    : html`<p class="muted">${t('mus.not_shown')}</p>`;
  return html`<h3>${head}</h3>${hands}${tally(c, h)}`;
}

function v_points(h, s) {
  const bits = [];
  // docs/rules.md §3.5.4: 31 or more is juego; below, the total counts for Punto
  if (h.points) bits.push(t(h.points[s] >= 31 ? 'mus.points_juego' : 'mus.points_punto', { n: h.points[s] }));
  if (h.pares && h.pares[s]) bits.push(t(`mus.pares_kind.${h.pares[s]}`));
  return bits.length ? html`<span class="muted small">${bits.join(' · ')}</span>` : '';
}

/** Every stone of the hand where it came from, lance by lance, each pair in its column,
 * and why each lance was won: the rows add up to the hand's change of stones. */
function tally(c, h) {
  const rows = h.tally || [];
  const verdicts = h.verdicts || [];
  const before = h.stones_before || h.stones;
  const won = [0, 0];
  const body = (h.lances || []).map((x) => {
    const own = rows.filter((r) => r.lance === x.lance);
    const verdict = verdicts.find((d) => d.lance === x.lance);
    const why = verdict ? html`<div class="why">${verdictText(c, verdict)}</div>` : '';
    const lines = own.length ? own : [null];
    return lines.map((r, i) => {
      const cells = [0, 1].map((team) => {
        if (!r || r.team !== team) return html`<td class="num"></td>`;
        if (r.counted === false) return html`<td class="num uncounted"><s>${r.stones}</s></td>`;
        won[team] += r.stones;
        return html`<td class="num"><b>+${r.stones}</b></td>`;
      });
      const head =
        i === 0
          ? html`<th scope="rowgroup" rowspan="${lines.length}">${lanceName(x.lance)}<small>${statusText(x)}</small></th>`
          : '';
      return html`<tr data-lance="${x.lance}"${r ? html` data-for="${r.for}"` : ''}>${head}<td>${
        r ? rowText(c, r) : '—'
      }${i === 0 ? why : ''}</td>${cells}</tr>`;
    });
  });
  const pairHead = (team) => html`<th scope="col" class="num"><span class="pair pair-${team}">${pairShort(c, team)}</span></th>`;
  return html`<p class="small before">${t('mus.before_hand', { a: before[0], b: before[1] })}</p>
    <table class="summary-table tally"><thead><tr><th scope="col">${t('mus.lance')}</th><th scope="col">${t('mus.from')}</th>${pairHead(0)}${pairHead(1)}</tr></thead>
    <tbody>${body}</tbody>
    <tfoot><tr><th scope="row" colspan="2">${t('mus.this_hand')}</th><td class="num"><b>+${won[0]}</b></td><td class="num"><b>+${won[1]}</b></td></tr></tfoot></table>
    <p class="small after">${t('mus.after_hand', { a: h.stones[0], b: h.stones[1] })}</p>`;
}

/** A kind of pares by its engine name (par, medias, duples), in words. */
function kindName(kind) {
  return t(`mus.pares_kind.${{ par: 1, medias: 2, duples: 3 }[kind]}`);
}

/** Where one row's stones came from, in words. */
function rowText(c, r) {
  const late = r.counted === false ? html` <span class="muted">(${t('mus.not_counted')})</span>` : '';
  switch (r.for) {
    case 'refused':
      return html`${t('mus.from.refused')}${late}`;
    case 'stake':
      return html`${t('mus.from.stake', { n: r.stones })}${late}`;
    case 'pass':
      return html`${t('mus.from.pass')}${late}`;
    case 'pares':
      return html`${t('mus.from.pares', { name: c.name(r.seat), kind: kindName(r.kind) })}${late}`;
    case 'juego':
      return html`${t('mus.from.juego', { name: c.name(r.seat), n: r.points })}${late}`;
    case 'punto':
      return html`${t('mus.from.punto')}${late}`;
    default:
      return html`${r.for}${late}`;
  }
}

/** Why a lance compared at the showdown was won: "Ana over Bea: duples beat medias". */
function verdictText(c, d) {
  const rank = (x) => t(`mus.rank.${x}`);
  const ranks = (x) => t(`mus.ranks.${x}`);
  let why;
  switch (d.by) {
    case 'card':
      why = t('mus.why.card', { a: rank(d.ranks[0]), b: rank(d.ranks[1]), nth: t(`mus.nth.${d.lance}.${d.at}`) });
      break;
    case 'kind':
      why = t('mus.why.kind', { a: kindName(d.kinds[0]), b: kindName(d.kinds[1]) });
      break;
    case 'rank':
      why = t('mus.why.rank', { kind: kindName(d.kind), a: ranks(d.ranks[0]), b: ranks(d.ranks[1]) });
      break;
    case 'juego':
    case 'punto':
      why = t('mus.why.points', { a: d.points[0], b: d.points[1] });
      break;
    case 'real_31':
      why = t('mus.why.real_31');
      break;
    default:
      why = t('mus.why.tie');
  }
  return t('mus.why.over', { a: c.name(d.seat), b: c.name(d.over), why });
}
