// A finished game's reviews (GET and POST /api/games/{id}/reviews): each seat's review
// as it stands, asked for by a player, its progress, its costliest moments marked on
// the replay's timeline and told beside the board.

import { api, ensureSession } from '../api.js';
import { t, tn } from '../i18n.js';
import { html } from '../html.js';
import { plainName, worthText } from '../ui.js';
import { describe } from './steps.js';

/** Each seat's review as it stands; asked again every second while one is under way. */
export async function loadReviews(replay) {
  const { S } = replay;
  clearTimeout(replay.polling);
  try {
    const { reviews } = await api('GET', `/api/games/${encodeURIComponent(replay.tableId)}/reviews`);
    S.reviews = reviews;
  } catch {
    return; // no review to show (the game is not finished)
  }
  if (replay.gone) return;
  if (S.reviews.some((r) => r.status === 'queued' || r.status === 'running')) {
    replay.polling = setTimeout(() => loadReviews(replay), 1000);
  }
  if (S.data) replay.render();
}

async function askReview(replay, seat) {
  const { S } = replay;
  S.reviewError = null;
  if (!(await ensureSession())) return;
  try {
    await api('POST', `/api/games/${encodeURIComponent(replay.tableId)}/reviews/${seat}`);
  } catch (e) {
    S.reviewError = e.message;
    replay.render();
    return;
  }
  await loadReviews(replay);
}

function reviewOf(S, seat) {
  return S.reviews.find((r) => r.seat === seat) || null;
}

/** The step that shows a reviewed decision: the position it was made in, before the
 * move (step k follows the record's first k actions). The step after would show what
 * the move made — a decision that ends a hand, the next hand's deal. */
function decisionStep(index) {
  return index;
}

/** The costliest moments of the chosen seat's review, marked on the timeline: each
 * mark is a button that goes to the step where the choice was made. */
export function reviewMarks(replay, n) {
  const { S } = replay;
  const r = reviewOf(S, S.reviewSeat);
  if (!r || r.status !== 'done' || !n) return '';
  return r.result.marked.map((index, i) => {
    const k = decisionStep(index);
    const pct = (100 * k) / n;
    return html`<button type="button" class="review-mark${k === S.k ? ' now' : ''}" data-review-step="${k}" data-at="${pct}" aria-label="${t('review.mark', { n: i + 1, k })}" title="${t('review.mark', { n: i + 1, k })}">${i + 1}</button>`;
  });
}

/** The review's panel: the seat chosen, and its review (to ask for, under way, or done). */
export function reviewPanel(replay, table, g) {
  const { S } = replay;
  const seat = S.reviewSeat ?? 0;
  const r = reviewOf(S, seat);
  const seatPicker = html`<label class="review-seat"><span>${t('review.seat')}</span><select data-review-seat>${Array.from(
    { length: table.seats },
    (_, s) => html`<option value="${s}"${s === seat ? html` selected` : ''}>${plainName(table, s)}</option>`,
  )}</select></label>`;
  let body;
  if (!r || r.status === 'failed') body = askBody(S, r, plainName(table, seat));
  else if (r.status === 'queued' || r.status === 'running') body = progressBody(r);
  else body = doneBody(S, r.result, plainName(table, seat), (a) => describe(g, a));
  return html`<section class="panel review" aria-labelledby="review-title"><h2 id="review-title">${t('review.title')}</h2>${seatPicker}${body}</section>`;
}

/** No review yet (or it failed): what one is, and the button that asks for it. */
function askBody(S, r, name) {
  return html`<p class="muted">${t('review.about')}</p>${r ? html`<p class="form-error">${t('review.failed')}</p>` : ''}${
    S.reviewError ? html`<p class="form-error" role="alert">${S.reviewError}</p>` : ''
  }<button type="button" class="btn" data-review-ask>${t('review.ask', { name })}</button>`;
}

/** A review under way: queued, or its decisions done so far. */
function progressBody(r) {
  const total = r.total ?? 0;
  return html`<p class="review-progress" role="status">${
    r.status === 'queued' ? t('review.queued') : t('review.running', { done: r.done, total })
  }</p><progress max="${total || 1}" value="${r.status === 'queued' ? 0 : r.done}" aria-label="${t('review.progress')}"></progress>`;
}

/** A review done: its choices and what they cost, the choice at this step, and the
 * costliest moments (each a button to its step). */
function doneBody(S, result, name, say) {
  const moments = result.moments;
  const unit = result.unit;
  const cost = (amount) => worthText(unit, amount);
  const here = moments.find((m) => decisionStep(m.index) === S.k);
  const byIndex = new Map(moments.map((m) => [m.index, m]));
  const marked = result.marked.map((i) => byIndex.get(i));
  // a choice is a move with more than one option; the others are said apart
  const forced = result.forced ? html` ${tn('review.forced', result.forced)}` : '';
  return html`${
    moments.length
      ? html`<p class="review-summary">${tn('review.choices', moments.length)}${forced}. ${t('review.total', {
          cost: cost(result.total_worth),
        })}</p>`
      : html`<p class="review-summary">${t('review.no_choices')}</p>`
  }${
    here
      ? html`<p class="review-here" aria-live="polite">${t('review.here_played', { name })} <strong>${say(
          here.played,
        )}</strong> · ${
          here.cost > 0
            ? html`${t('review.here', { cost: cost(here.worth) })} <strong>${say(here.best)}</strong>`
            : t('review.here_best')
        }</p>`
      : ''
  }${
    marked.length
      ? html`<h3>${t('review.costliest')}</h3><ol class="review-moments">${marked.map(
          (m, i) => html`<li><button type="button" class="btn small" data-review-step="${decisionStep(m.index)}">${t(
            'review.moment',
            { n: i + 1, k: decisionStep(m.index), cost: cost(m.worth) },
          )}</button><br><span>${name}: ${say(m.played)} · ${t('review.best')} ${say(m.best)}</span></li>`,
        )}</ol>`
      : moments.length
        ? html`<p>${t('review.clean')}</p>`
        : ''
  }<p class="muted">${t(`review.cost_means_${unit}`)}</p>`;
}

/** The marks under the timeline's slider, where their steps are (set here: no inline
 * styles in markup); marks too close to share a row (28 px) go on rows of their own. */
export function placeMarks(app) {
  const line = app.querySelector('.timeline');
  const width = line ? line.getBoundingClientRect().width - 16 : 0;
  const rows = [];
  [...app.querySelectorAll('.review-mark')]
    .sort((a, b) => Number(a.dataset.at) - Number(b.dataset.at))
    .forEach((b) => {
      const x = 8 + (width * Number(b.dataset.at)) / 100;
      let row = rows.findIndex((last) => x - last >= 28);
      if (row < 0) row = rows.push(x) - 1;
      rows[row] = x;
      b.style.left = `${x}px`;
      b.style.top = `${24 + 28 * row}px`;
    });
  if (line) line.style.paddingBottom = rows.length ? `${28 * rows.length + 4}px` : '';
}

/** The seat picker and the button that asks for a review. */
export function bindReviews(replay) {
  const { S, app } = replay;
  const seatPick = app.querySelector('[data-review-seat]');
  if (seatPick)
    seatPick.onchange = () => {
      S.reviewSeat = Number(seatPick.value);
      S.reviewError = null;
      replay.render();
    };
  const ask = app.querySelector('[data-review-ask]');
  if (ask) ask.onclick = () => askReview(replay, S.reviewSeat ?? 0);
}
