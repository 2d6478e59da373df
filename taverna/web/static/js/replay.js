// Replay of a finished game, step by step, every hand revealed.
//
// The server replays the stored record with the rules engine
// (GET /api/games/{id}/replay); the page steps through its states.

import { api, ensureSession, session } from './api.js';
import { html, setMarkup } from './html.js';
import { t, tn } from './i18n.js';
import { board } from './games.js';
import { chatRecord } from './chat.js';
import { gameTitle, keepFocus, plainName, scoreList, settingsChips, worthText } from './ui.js';

const ICON_FIRST = html`<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><path d="M4 3h2.5v14H4zM17 3v14L7.5 10z" fill="currentColor"/></svg>`;
const ICON_LAST = html`<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><path d="M16 3h-2.5v14H16zM3 3v14l9.5-7z" fill="currentColor"/></svg>`;

/** An omniscient event: every private part shown (nothing is secret after the game). */
function reveal(e) {
  if (!e.private) return e;
  const out = { ...e };
  delete out.private;
  for (const part of Object.values(e.private)) Object.assign(out, part);
  return out;
}

export function mount(app, tableId) {
  const S = { data: null, k: 0, playing: false, speed: 1, error: null, reviews: [], reviewSeat: null, reviewError: null };
  let timer = null;
  let polling = null;
  let gone = false;

  /** Each seat's review as it stands; asked again every second while one is under way. */
  async function loadReviews() {
    clearTimeout(polling);
    try {
      const { reviews } = await api('GET', `/api/games/${encodeURIComponent(tableId)}/reviews`);
      S.reviews = reviews;
    } catch {
      return; // no review to show (the game is not finished)
    }
    if (gone) return;
    if (S.reviews.some((r) => r.status === 'queued' || r.status === 'running')) {
      polling = setTimeout(loadReviews, 1000);
    }
    if (S.data) render();
  }

  async function askReview(seat) {
    S.reviewError = null;
    if (!(await ensureSession())) return;
    try {
      await api('POST', `/api/games/${encodeURIComponent(tableId)}/reviews/${seat}`);
    } catch (e) {
      S.reviewError = e.message;
      render();
      return;
    }
    await loadReviews();
  }

  function reviewOf(seat) {
    return S.reviews.find((r) => r.seat === seat) || null;
  }

  /** The step that shows a reviewed decision: the position it was made in, before the
   * move (step k follows the record's first k actions). The step after would show what
   * the move made — a decision that ends a hand, the next hand's deal. */
  function decisionStep(index) {
    return index;
  }

  async function load() {
    // the table's chat beside the game (not part of its record): both rooms, once it is over
    api('GET', `/api/tables/${encodeURIComponent(tableId)}/chat`).then(
      ({ messages }) => {
        S.chat = chatRecord(messages);
        if (S.data) render();
      },
      () => {}, // no chat to show
    );
    try {
      S.data = await api('GET', `/api/games/${encodeURIComponent(tableId)}/replay`);
      S.k = 0;
      const mine = (S.data.table.seating || []).findIndex((x) => x?.player_id && session.player && x.player_id === session.player.id);
      S.reviewSeat = mine >= 0 ? mine : 0;
    } catch (e) {
      S.error = e.message;
    }
    render();
    if (S.data) loadReviews();
  }

  function ctxAt(k) {
    const table = S.data.table;
    const g = board(table.game);
    const notes = {};
    const log = [];
    const base = {
      table,
      me: null,
      seats: table.seats,
      name: (s) => plainName(table, s),
      label: (s) => plainName(table, s),
      legal: [],
      interactive: false,
      notes,
      ui: {},
      act: () => {},
      rerender: render,
    };
    for (let i = 0; i <= k; i++) {
      const step = S.data.steps[i];
      const c = { ...base, view: i ? S.data.steps[i - 1].view : step.view };
      for (const raw of step.events) {
        const e = reveal(raw);
        g.learn?.(e, c);
        const line = g.narrate(e, c);
        if (line) log.push({ ...line, step: i });
      }
      // the señas made at this step (Mus, docs/rules.md §3.8.4: after i actions), each told
      for (const x of signals().filter((x) => x.after === i)) {
        const line = g.narrate({ type: 'signal', ...x }, c);
        if (line) log.push({ ...line, step: i });
      }
    }
    const view = S.data.steps[k].view;
    const shown = handSignals(k);
    return { c: { ...base, view: shown ? { ...view, signals: shown } : view, hands: view.hands }, log, g };
  }

  /** Every seña of the game (none is secret once it is over), with who caught it. */
  function signals() {
    return S.data.signals || [];
  }

  /** The señas of step k's hand made by then, as the table shows a hand's señas; null
   * for a game without any. */
  function handSignals(k) {
    if (!signals().length) return null;
    const hand = (i) => S.data.steps[i].view.hand_no;
    return signals().filter((x) => x.after <= k && hand(x.after) === hand(k));
  }

  function render() {
    keepFocus(app, draw);
  }

  function draw() {
    if (S.error) {
      setMarkup(
        app,
        html`<section class="panel"><h1>${t('replay.title')}</h1><p class="form-error">${S.error}</p><a class="btn" href="#/">${t(
          'nav.lobby',
        )}</a></section>`,
      );
      return;
    }
    if (!S.data) {
      setMarkup(app, html`<p class="loading">${t('table.loading')}</p>`);
      return;
    }
    const table = S.data.table;
    const n = S.data.steps.length - 1;
    const { c, log, g } = ctxAt(S.k);
    const step = S.data.steps[S.k];
    const action = step.action
      ? html`${plainName(table, step.action.seat)}: ${g.describe ? g.describe(step.action) : describe(step.action)}`
      : t('replay.deal');
    const summary = g.summary ? g.summary(c) : '';
    setMarkup(
      app,
      html`<div class="table-page replay game-${table.game}">
      <header class="table-head">
        <div class="table-title"><a class="back-link" href="#/" aria-label="${t('nav.lobby')}">←</a>
          <h1>${t('replay.title')}: ${gameTitle(table.game)}</h1>${settingsChips(table.game, table.settings, table.options)}</div>
      </header>
      <div class="replay-bar" role="toolbar" aria-label="${t('replay.controls')}">
        <button class="btn step" data-go="first" data-key="first" aria-label="${t('replay.first')}">${ICON_FIRST}</button>
        <button class="btn step" data-go="prev" data-key="prev" aria-label="${t('replay.prev')}">◀</button>
        <button class="btn primary" data-play data-key="play">${S.playing ? t('replay.pause') : t('replay.play')}</button>
        <button class="btn step" data-go="next" data-key="next" aria-label="${t('replay.next')}">▶</button>
        <button class="btn step" data-go="last" data-key="last" aria-label="${t('replay.last')}">${ICON_LAST}</button>
        <span class="timeline"><input type="range" min="0" max="${n}" value="${S.k}" data-slider data-key="slider" aria-label="${t('replay.step')}">${reviewMarks(n)}</span>
        <span class="step-count" aria-live="polite">${t('replay.step_of', { k: S.k, n })}</span>
        <label class="speed"><span>${t('replay.speed')}</span><select data-speed>
          ${[0.5, 1, 2, 4].map((x) => html`<option value="${x}"${x === S.speed ? html` selected` : ''}>${x}×</option>`)}
        </select></label>
      </div>
      <p class="replay-action" aria-live="polite">${action}</p>
      <div class="table-layout">
        <section class="felt" aria-label="${t('table.board')}">
          <div class="status-bar"><span class="turn">${
            step.view.over ? g.winnerText(c) : step.view.turn !== null && step.view.turn !== undefined ? t('turn.of', { name: c.name(step.view.turn) }) : ''
          }</span></div>
          ${g.board(c)}
        </section>
        <aside class="side">
          <section class="panel scores"><h2>${t('table.scores')}</h2>${g.scores ? g.scores(c) : scoreList(c)}</section>
          ${reviewPanel(table, g)}
          ${summary ? html`<section class="panel hand-summary in-side"><h2>${t('summary.title')}</h2>${summary}</section>` : ''}
          <section class="panel log" aria-labelledby="log-title"><h2 id="log-title">${t('table.log')}</h2>
            <div class="log-scroll" role="log" aria-live="off" aria-labelledby="log-title" tabindex="0" data-key="log">
              <ol class="log-list">${log
                .slice(-80)
                .reverse()
                .map((l) => html`<li class="${l.cls || ''}${l.step === S.k ? ' now' : ''}">${l.html}</li>`)}</ol></div></section>
        </aside>
      </div>
    </div>`,
    );
    if (S.chat) app.querySelector('.side')?.append(S.chat);
    bind(n);
  }

  /** The costliest moments of the chosen seat's review, marked on the timeline: each
   * mark is a button that goes to the step where the choice was made. */
  function reviewMarks(n) {
    const r = reviewOf(S.reviewSeat);
    if (!r || r.status !== 'done' || !n) return '';
    return r.result.marked.map((index, i) => {
      const k = decisionStep(index);
      const pct = (100 * k) / n;
      return html`<button type="button" class="review-mark${k === S.k ? ' now' : ''}" data-review-step="${k}" data-at="${pct}" aria-label="${t('review.mark', { n: i + 1, k })}" title="${t('review.mark', { n: i + 1, k })}">${i + 1}</button>`;
    });
  }

  function reviewPanel(table, g) {
    const seat = S.reviewSeat ?? 0;
    const r = reviewOf(seat);
    const say = (a) => (g.describe ? g.describe(a) : describe(a));
    const seatPicker = html`<label class="review-seat"><span>${t('review.seat')}</span><select data-review-seat>${Array.from(
      { length: table.seats },
      (_, s) => html`<option value="${s}"${s === seat ? html` selected` : ''}>${plainName(table, s)}</option>`,
    )}</select></label>`;
    let body;
    if (!r || r.status === 'failed') {
      body = html`<p class="muted">${t('review.about')}</p>${r ? html`<p class="form-error">${t('review.failed')}</p>` : ''}${
        S.reviewError ? html`<p class="form-error" role="alert">${S.reviewError}</p>` : ''
      }<button type="button" class="btn" data-review-ask>${t('review.ask', { name: plainName(table, seat) })}</button>`;
    } else if (r.status === 'queued' || r.status === 'running') {
      const total = r.total ?? 0;
      body = html`<p class="review-progress" role="status">${
        r.status === 'queued' ? t('review.queued') : t('review.running', { done: r.done, total })
      }</p><progress max="${total || 1}" value="${r.status === 'queued' ? 0 : r.done}" aria-label="${t('review.progress')}"></progress>`;
    } else {
      const result = r.result;
      const moments = result.moments;
      const unit = result.unit;
      const cost = (amount) => worthText(unit, amount);
      const here = moments.find((m) => decisionStep(m.index) === S.k);
      const byIndex = new Map(moments.map((m) => [m.index, m]));
      const marked = result.marked.map((i) => byIndex.get(i));
      // a choice is a move with more than one option; the others are said apart
      const forced = result.forced ? html` ${tn('review.forced', result.forced)}` : '';
      body = html`${
        moments.length
          ? html`<p class="review-summary">${tn('review.choices', moments.length)}${forced}. ${t('review.total', {
              cost: cost(result.total_worth),
            })}</p>`
          : html`<p class="review-summary">${t('review.no_choices')}</p>`
      }${
        here
          ? html`<p class="review-here" aria-live="polite">${t('review.here_played', { name: plainName(table, seat) })} <strong>${say(
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
              )}</button><br><span>${plainName(table, seat)}: ${say(m.played)} · ${t('review.best')} ${say(m.best)}</span></li>`,
            )}</ol>`
          : moments.length
            ? html`<p>${t('review.clean')}</p>`
            : ''
      }<p class="muted">${t(`review.cost_means_${unit}`)}</p>`;
    }
    return html`<section class="panel review" aria-labelledby="review-title"><h2 id="review-title">${t('review.title')}</h2>${seatPicker}${body}</section>`;
  }

  /** An action in words (markup), for a game module without a `describe` of its own. */
  function describe(a) {
    return html`${t(`replay.action.${a.type}`)}${a.amount ? ` ${a.amount}` : ''}`;
  }

  function bind(n) {
    const go = (k) => {
      S.k = Math.max(0, Math.min(n, k));
      if (S.k === n) stop();
      render();
    };
    app.querySelectorAll('[data-go]').forEach((b) => {
      b.onclick = () => {
        const where = b.dataset.go;
        go(where === 'first' ? 0 : where === 'last' ? n : where === 'prev' ? S.k - 1 : S.k + 1);
      };
    });
    const slider = app.querySelector('[data-slider]');
    slider.oninput = () => go(Number(slider.value));
    app.querySelector('[data-play]').onclick = () => (S.playing ? stop() : start());
    app.querySelector('[data-speed]').onchange = (e) => {
      S.speed = Number(e.target.value);
      if (S.playing) {
        stop();
        start();
      }
    };
    // the marks under the slider, where their steps are (set here: no inline styles in
    // markup); marks too close to share a row (28 px) go on rows of their own
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
    app.querySelectorAll('[data-review-step]').forEach((b) => {
      b.onclick = () => {
        stop();
        go(Number(b.dataset.reviewStep));
      };
    });
    const seatPick = app.querySelector('[data-review-seat]');
    if (seatPick)
      seatPick.onchange = () => {
        S.reviewSeat = Number(seatPick.value);
        S.reviewError = null;
        render();
      };
    const ask = app.querySelector('[data-review-ask]');
    if (ask) ask.onclick = () => askReview(S.reviewSeat ?? 0);
    S.go = go;
    S.n = n;
  }

  function start() {
    S.playing = true;
    clearInterval(timer);
    timer = setInterval(() => S.go(S.k + 1), 900 / S.speed);
    render();
  }

  function stop() {
    S.playing = false;
    clearInterval(timer);
    render();
  }

  function onKey(e) {
    if (!S.data || e.target.closest('input, select, textarea')) return;
    if (e.key === 'ArrowRight') S.go(S.k + 1);
    else if (e.key === 'ArrowLeft') S.go(S.k - 1);
    else if (e.key === 'Home') S.go(0);
    else if (e.key === 'End') S.go(S.n);
    else return;
    e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  draw();
  load();
  return {
    rerender: render,
    unmount() {
      gone = true;
      clearInterval(timer);
      clearTimeout(polling);
      document.removeEventListener('keydown', onKey);
    },
  };
}
