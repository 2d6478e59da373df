// Drawing the table page from its state: the head (title, settings, tools), then the
// seating before the start or the board with its side (scores, hand summary, log)
// once a game is played, and the game-over dialog over it. Each game's board module
// draws its own board and controls (js/games.js); only moves listed in view.legal are
// offered.

import { t } from '../i18n.js';
import { html, setMarkup } from '../html.js';
import { copyText, gameTitle, keepFocus, placeToast, rulesLink, scoreList, settingsChips, tableLink, toast } from '../ui.js';
import { voided } from './address.js';
import { bindAgain } from './again.js';
import { tick } from './clock.js';
import { bindHints, hintBar, markHint } from './hints.js';
import { FOCUS_NEXT, moveFocus } from './keys.js';
import { logPanel } from './log.js';
import { bindNotices, noticeTools, turnNotice } from './notices.js';
import { bindOver, gameOver, overShown } from './over.js';
import { presenceBar } from './presence.js';
import { bindSeating, seatingArea } from './seating.js';
import { ctx, game } from './state.js';
import { bindSummary, summaryButton, summaryPanel } from './summary.js';

/** Draw the page again, the focus kept where it was (or moved on: js/table/keys.js),
 * its clocks set, its title and the turn notice told. */
export function render(page) {
  keepFocus(page.app, () => draw(page), page.S.view?.over ? ['.felt .controls'] : FOCUS_NEXT);
  placeToast(); // a notice showing moves off the controls as drawn now
  moveFocus(page);
  tick(page);
  turnNotice(page);
}

export function draw(page) {
  const { S, app } = page;
  if (S.missing) {
    setMarkup(
      app,
      html`<section class="not-found"><h1>${t('table.not_found')}</h1>
        <p><a href="/#/">${t('nav.lobby')}</a></p></section>`,
    );
    return;
  }
  if (!S.table) {
    setMarkup(app, html`<p class="loading">${t('table.loading')}</p>`);
    return;
  }
  const x = S.table;
  // the game-over dialog is modal: the page behind it is out of reach until it is closed
  const over = overShown(page);
  const behind = over ? html` inert` : '';
  setMarkup(
    app,
    html`<div class="table-page game-${x.game}" data-status="${x.status}" data-seq="${page.socket?.seq ?? ''}">
      ${head(page, behind)}
      ${S.view ? playArea(page, behind) : seatingArea(page)}
      ${over ? gameOver(page) : ''}
    </div>`,
  );
  page.chat.place(app);
  bind(page);
  markHint(page);
}

/** The head: back to the lobby, the game and its settings, the table's tools. */
function head(page, behind) {
  const { S } = page;
  const x = S.table;
  const seated = S.seat !== null;
  return html`<header class="table-head" data-keep-clear${behind}>
        <div class="table-title">
          <a class="back-link" href="#/" aria-label="${t('nav.lobby')}">←</a>
          <h1>${gameTitle(x.game)}</h1>
          ${settingsChips(x.game, x.settings, x.options)}
        </div>
        <div class="table-tools">
          ${seated ? '' : html`<span class="badge watching">${t('table.watching')}</span>`}
          ${rulesLink(x.game, { cls: 'btn ghost small icon', text: html`<span aria-hidden="true">?</span>` })}
          ${noticeTools(page)}
          <button class="btn ghost small" data-invite data-key="invite">${wideNarrow('table.invite')}</button>
          ${
            seated && x.status === 'playing'
              ? html`<button class="btn ghost small" data-leave data-key="leave">${wideNarrow('table.leave')}</button>`
              : ''
          }
        </div>
        ${S.view ? jumps() : ''}
        ${voided(page, x) ? html`<p class="shared-address" role="note">${t('table.shared_address')}</p>` : ''}
      </header>`;
}

/** A label and its short form for a phone's narrow head (CSS shows one of them). */
function wideNarrow(key) {
  return html`<span class="wide">${t(key)}</span><span class="narrow">${t(`${key}_short`)}</span>`;
}

/** Where the side is below the board (a phone), a way to the scores and the log. */
function jumps() {
  const to = (id, key) =>
    html`<button type="button" class="btn ghost small" data-jump="${id}" data-key="jump-${id}">${t(key)}<span aria-hidden="true"> ↓</span></button>`;
  return html`<nav class="jump" aria-label="${t('table.jump')}">${to('scores-title', 'table.jump_scores')}${to('log-title', 'table.jump_log')}</nav>`;
}

/** The board and its side, while a game is played (and after). */
function playArea(page, behind) {
  const g = game(page);
  const c = ctx(page);
  const summary = g.summary ? g.summary(c) : '';
  // the controls' own place keeps the focus while the others play, when no control
  // of the hand or the actions is there to have it (tabindex -1: not a stop of Tab)
  return html`<div class="table-layout"${behind}>
      <section class="felt" aria-label="${t('table.board')}">
        <div class="status-bar" role="status" aria-live="polite">${statusLine(page, c)}</div>
        ${presenceBar(page)}
        ${g.board(c)}
        <div class="controls" tabindex="-1" data-key="controls" data-keep-clear>${g.controls(c)}</div>
        ${hintBar(page, c)}
      </section>
      <aside class="side">
        ${summaryPanel(page, summary)}
        <section class="panel scores" aria-labelledby="scores-title">
          <h2 id="scores-title">${t('table.scores')}</h2>
          ${g.scores ? g.scores(c) : scoreList(c)}
        </section>
        ${summaryButton(page, summary)}
        ${logPanel(page, c)}
      </aside>
    </div>`;
}

/** Whose turn it is (in the game's words, if it has its own), and the turn's timer. */
function statusLine(page, c) {
  const { S } = page;
  const v = c.view;
  const g = game(page);
  if (v.over) return html`<span class="turn over">${t('table.game_over')}</span>`;
  const text = g.status ? g.status(c) : null;
  const turn = v.turn;
  let who = '';
  if (text) who = text;
  else if (turn === c.me) who = html`<strong class="your-turn">${t('turn.yours')}</strong>`;
  else if (turn !== null && turn !== undefined) who = t('turn.of', { name: c.name(turn) });
  if (S.paused) who = html`<span class="paused">${t('table.paused')}</span>`;
  return html`<span class="turn">${who}</span>
      <span class="timer" aria-hidden="${S.deadline ? 'false' : 'true'}">
        <span class="timer-bar"><span class="timer-fill"></span></span>
        <span class="timer-text"></span></span>`;
}

/** Every control of the page does what it says; the board's own, its module binds. */
function bind(page) {
  const { S, app } = page;
  app.querySelectorAll('[data-invite]').forEach(
    (b) =>
      (b.onclick = async () => {
        await copyText(tableLink(S.id));
        toast(t('table.link_copied'));
      }),
  );
  app.querySelectorAll('[data-jump]').forEach(
    (b) => (b.onclick = () => document.getElementById(b.dataset.jump)?.closest('.panel')?.scrollIntoView({ block: 'start' })),
  );
  bindSeating(page);
  bindAgain(page);
  bindHints(page);
  bindNotices(page);
  bindSummary(page);
  bindOver(page);
  if (S.view) game(page).bind?.(app.querySelector('.felt'), ctx(page));
}
