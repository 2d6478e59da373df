// Replay of a finished game, step by step, every hand revealed.
//
// The server replays the stored record with the rules engine
// (GET /api/games/{id}/replay); the page steps through its states.

import { api } from './api.js';
import { html, setMarkup } from './html.js';
import { t } from './i18n.js';
import { board } from './games.js';
import { gameTitle, keepFocus, plainName, scoreList, settingsChips } from './ui.js';

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
  const S = { data: null, k: 0, playing: false, speed: 1, error: null };
  let timer = null;

  async function load() {
    try {
      S.data = await api('GET', `/api/games/${encodeURIComponent(tableId)}/replay`);
      S.k = 0;
    } catch (e) {
      S.error = e.message;
    }
    render();
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
    }
    const view = S.data.steps[k].view;
    return { c: { ...base, view, hands: view.hands }, log, g };
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
        <input type="range" min="0" max="${n}" value="${S.k}" data-slider data-key="slider" aria-label="${t('replay.step')}">
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
    bind(n);
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
      clearInterval(timer);
      document.removeEventListener('keydown', onKey);
    },
  };
}
