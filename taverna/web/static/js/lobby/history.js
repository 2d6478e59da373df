// The lobby's finished games: what, when, who with what score, who won, whether it
// counted, and the way to its replay.

import { api } from '../api.js';
import { t } from '../i18n.js';
import { html, setMarkup } from '../html.js';
import { board, sides } from '../games.js';
import { gameTitle, officialBadge, plainName, when } from '../ui.js';

/** A finished game in the list: what, when, who with what score (the winner marked),
 * who won, whether it counted, and its replay. A game of sides is scored per side (its
 * seats s, s + n, …); the game's board says how its result scores each side
 * (`resultScores`), else its result's `scores`. */
export function historyRow(x) {
  const r = x.result || {};
  const w = r.winner;
  const names = x.seating.map((s) => plainName(x, s.seat));
  const n = sides(x.game);
  const scores = board(x.game)?.resultScores?.(r) ?? r.scores ?? [];
  const rows = n
    ? Array.from({ length: n }, (_, team) => ({
        team,
        name: sideNames(names.filter((_, s) => s % n === team)),
        score: scores[team] ?? '',
      }))
    : names.map((name, team) => ({ team, name, score: scores[team] ?? '' }));
  const winner =
    w === null || w === undefined
      ? ''
      : t(n ? 'result.pair_won_past' : 'result.won', n ? { names: rows[w].name } : { name: names[w] });
  const date = when(x.finished_at || x.created_at);
  const voided = r.settlement?.why === 'shared_address';
  return html`<li class="hist-row" data-id="${x.id}">
    <span class="hist-head"><span class="hist-game">${gameTitle(x.game)}</span>${
      x.official ? officialBadge(x.stake) : ''
    }${date ? html`<time class="hist-when" datetime="${date.iso}">${date.text}</time>` : ''}</span>
    <ol class="hist-players" aria-label="${t('table.scores')}">${rows.map(
      (side) => html`<li${side.team === w ? html` class="winner"` : ''}><span class="hist-name">${side.name}</span>
        <b class="hist-score">${side.score}</b></li>`,
    )}</ol>
    <span class="hist-result"><span class="hist-winner">${winner}</span>${
      voided ? html`<span class="hist-voided">${t('club.voided')}</span>` : ''
    }</span>
    <a class="btn small ghost" href="#/replay/${x.id}">${t('lobby.replay')}</a></li>`;
}

/** The players of one side: "Ana and Bea" (a pair), or their names in a row. */
function sideNames(names) {
  return names.length === 2 ? t('pair.names', { a: names[0], b: names[1] }) : names.join(' · ');
}

/** Fill the lobby's list of finished games (the newest twelve; the API lists the newest
 * first). */
export async function renderHistory(app) {
  const box = app.querySelector('#history-list');
  let history;
  try {
    history = (await api('GET', '/api/history')).tables;
  } catch {
    history = [];
  }
  if (!box.isConnected) return;
  const items = history.slice(0, 12);
  if (!items.length) {
    setMarkup(box, html`<p class="empty">${t('lobby.no_history')}</p>`);
    return;
  }
  setMarkup(box, html`<ul>${items.map(historyRow)}</ul>`);
}
