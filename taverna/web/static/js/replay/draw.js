// Drawing the replay page: the head, the toolbar (first, back, play, forward, last, the
// timeline with the review's marks, the speed), the action of the step, the board at
// that step, and beside it the scores, the review, the hand summary and the log.

import { t } from '../i18n.js';
import { html, setMarkup } from '../html.js';
import { gameTitle, keepFocus, plainName, scoreList, settingsChips } from '../ui.js';
import { bindControls } from './controls.js';
import { bindReviews, placeMarks, reviewMarks, reviewPanel } from './reviews.js';
import { ctxAt, describe } from './steps.js';

const ICON_FIRST = html`<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><path d="M4 3h2.5v14H4zM17 3v14L7.5 10z" fill="currentColor"/></svg>`;
const ICON_LAST = html`<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><path d="M16 3h-2.5v14H16zM3 3v14l9.5-7z" fill="currentColor"/></svg>`;
/** The log lines shown, the newest first. */
const LOG_SHOWN = 80;

/** Draw the page again, the focus kept where it was. */
export function render(replay) {
  keepFocus(replay.app, () => draw(replay));
}

export function draw(replay) {
  const { S, app } = replay;
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
  const { c, log, g } = ctxAt(replay, S.k);
  const step = S.data.steps[S.k];
  const action = step.action ? html`${plainName(table, step.action.seat)}: ${describe(g, step.action)}` : t('replay.deal');
  const summary = g.summary ? g.summary(c) : '';
  setMarkup(
    app,
    html`<div class="table-page replay game-${table.game}">
      <header class="table-head">
        <div class="table-title"><a class="back-link" href="#/" aria-label="${t('nav.lobby')}">←</a>
          <h1>${t('replay.title')}: ${gameTitle(table.game)}</h1>${settingsChips(table.game, table.settings, table.options)}</div>
      </header>
      ${toolbar(replay, n)}
      <p class="replay-action" aria-live="polite">${action}</p>
      <div class="table-layout">
        <section class="felt" aria-label="${t('table.board')}">
          <div class="status-bar"><span class="turn">${turnLine(step, c, g)}</span></div>
          ${g.board(c)}
        </section>
        ${side(replay, { table, c, g, log, summary })}
      </div>
    </div>`,
  );
  if (S.chat) app.querySelector('.side')?.append(S.chat);
  placeMarks(app);
  bindControls(replay, n);
  bindReviews(replay);
}

/** The replay's controls: the steps, the timeline, the speed. */
function toolbar(replay, n) {
  const { S } = replay;
  return html`<div class="replay-bar" role="toolbar" aria-label="${t('replay.controls')}">
        <button class="btn step" data-go="first" data-key="first" aria-label="${t('replay.first')}">${ICON_FIRST}</button>
        <button class="btn step" data-go="prev" data-key="prev" aria-label="${t('replay.prev')}">◀</button>
        <button class="btn primary" data-play data-key="play">${S.playing ? t('replay.pause') : t('replay.play')}</button>
        <button class="btn step" data-go="next" data-key="next" aria-label="${t('replay.next')}">▶</button>
        <button class="btn step" data-go="last" data-key="last" aria-label="${t('replay.last')}">${ICON_LAST}</button>
        <span class="timeline"><input type="range" min="0" max="${n}" value="${S.k}" data-slider data-key="slider" aria-label="${t('replay.step')}">${reviewMarks(replay, n)}</span>
        <span class="step-count" aria-live="polite">${t('replay.step_of', { k: S.k, n })}</span>
        <label class="speed"><span>${t('replay.speed')}</span><select data-speed>
          ${[0.5, 1, 2, 4].map((x) => html`<option value="${x}"${x === S.speed ? html` selected` : ''}>${x}×</option>`)}
        </select></label>
      </div>`;
}

/** Who won, at the end; else whose turn it is. */
function turnLine(step, c, g) {
  if (step.view.over) return g.winnerText(c);
  return step.view.turn !== null && step.view.turn !== undefined ? t('turn.of', { name: c.name(step.view.turn) }) : '';
}

/** Beside the board: the scores, the review, the hand summary, the log. */
function side(replay, { table, c, g, log, summary }) {
  const { S } = replay;
  return html`<aside class="side">
          <section class="panel scores"><h2>${t('table.scores')}</h2>${g.scores ? g.scores(c) : scoreList(c)}</section>
          ${reviewPanel(replay, table, g)}
          ${summary ? html`<section class="panel hand-summary in-side"><h2>${t('summary.title')}</h2>${summary}</section>` : ''}
          <section class="panel log" aria-labelledby="log-title"><h2 id="log-title">${t('table.log')}</h2>
            <div class="log-scroll" role="log" aria-live="off" aria-labelledby="log-title" tabindex="0" data-key="log">
              <ol class="log-list">${log
                .slice(-LOG_SHOWN)
                .reverse()
                .map((l) => html`<li class="${l.cls || ''}${l.step === S.k ? ' now' : ''}">${l.html}</li>`)}</ol></div></section>
        </aside>`;
}
