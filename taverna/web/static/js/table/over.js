// The game-over dialog: who won, the final scores, why an official game moved nothing
// when it did not, and the ways on (the lobby, the replay, play again). It is modal:
// the page behind it is out of reach until it is closed.

import { t } from '../i18n.js';
import { html } from '../html.js';
import { voided } from './address.js';
import { againButton, againOffer } from './again.js';
import { ctx, game } from './state.js';

/** Whether the dialog shows: the game is over and the dialog not closed yet. */
export function overShown(page) {
  return !!page.S.view?.over && !page.S.overShown;
}

export function gameOver(page) {
  const g = game(page);
  const c = ctx(page);
  const note = settlementNote(page);
  return html`<div class="game-over" role="dialog" aria-modal="true" aria-labelledby="over-title"${
    note ? html` aria-describedby="over-note"` : ''
  }>
      <div class="game-over-card" data-keep-clear>
        <h2 id="over-title">${g.winnerText(c)}</h2>
        ${note}
        ${g.finalScores(c)}
        ${againOffer(page)}
        <div class="dialog-buttons">
          <button class="btn ghost" data-close-over data-key="close-over">${t('close')}</button>
          <a class="btn ghost" href="#/">${t('nav.lobby')}</a>
          <a class="btn ghost" href="#/replay/${page.S.id}" data-key="replay">${t('lobby.replay')}</a>
          ${againButton(page, 'again-over')}
        </div>
      </div></div>`;
}

/** Why an official game moved no chips nor points, when it did not (its settlement). */
function settlementNote(page) {
  const x = page.S.table;
  const why = x.result?.settlement?.why || (voided(page, x) ? 'shared_address' : '');
  const key = { shared_address: 'over.shared_address', no_winner: 'over.no_winner' }[why];
  return key ? html`<p class="over-note" id="over-note">${t(key)}</p>` : '';
}

/** Its Close button. */
export function bindOver(page) {
  page.app.querySelectorAll('[data-close-over]').forEach(
    (b) =>
      (b.onclick = () => {
        page.S.overShown = true;
        page.render();
      }),
  );
}
