// Hints: at a table that gives them, the strong bot's suggestion for this seat's move,
// asked over the socket, shown with why, and marked on the board.

import { has, t } from '../i18n.js';
import { html } from '../html.js';
import { worthText } from '../ui.js';
import { ctx, game } from './state.js';

/** Whether this table gives hints (the table option; never official or tournament). */
function hintsOn(page) {
  const x = page.S.table;
  return !!x?.options?.hints && !x.official && !x.options.tournament;
}

/** The suggestion for what the page shows now, if any. */
function shownHint(page) {
  const { S } = page;
  return S.hint && S.hint.seq === page.socket?.seq && S.hint.action ? S.hint : null;
}

/** The Hint button, when the table gives hints and this seat may act; and the
 * suggestion with why, once the server has answered. */
export function hintBar(page, c) {
  const { S } = page;
  const v = c.view;
  if (!hintsOn(page) || !c.interactive || !(v.turn === S.seat || (v.legal || []).length > 0)) return '';
  const asking = S.hintAsked !== null;
  const shown = shownHint(page);
  return html`<div class="hint-bar" data-keep-clear>
      <button type="button" class="btn ghost small" data-hint data-key="hint"${asking ? html` aria-disabled="true"` : ''}>${
        asking ? t('hint.asking') : t('hint.button')
      }</button>
      <p class="hint-line" role="status" aria-live="polite">${shown ? html`${t('hint.suggests')} <strong>${describeAction(page, shown.action)}</strong> · ${whyText(page, shown.why)}` : ''}</p>
    </div>`;
}

function describeAction(page, a) {
  const g = game(page);
  return g?.describe ? g.describe(a) : a.type;
}

/** A hint's reason in the page's language: the game's words, else the shared ones. */
function whyText(page, why) {
  const own = game(page)?.whyText?.(why);
  if (own) return own;
  if (why?.key === 'best_estimate') {
    // what the move is worth by the end of the hand, as players count (the server's unit)
    const size = Math.abs(why.amount) * (why.unit === 'games' ? 100 : 1); // as worthText shows it
    const way = size < 0.05 ? 'even' : why.amount > 0 ? 'up' : 'down';
    return t(`hint.why.best_estimate_${way}`, { amount: worthText(why.unit, why.amount) });
  }
  const key = `hint.why.${why?.key}`;
  return has(key) ? t(key, why) : '';
}

function askHint(page) {
  const { S } = page;
  if (S.hintAsked !== null || !page.socket) return;
  S.hint = null;
  S.hintAsked = page.socket.hint();
  page.render();
}

/** The Hint button asks. */
export function bindHints(page) {
  page.app.querySelectorAll('[data-hint]').forEach((b) => (b.onclick = () => askHint(page)));
}

/** The suggested move marked on the board: its tile or cards in the hand, else its
 * button (as the boards mark a selection); a board may say where (`hintMarks(a)`). */
export function markHint(page) {
  const a = shownHint(page)?.action;
  const felt = page.app.querySelector('.felt');
  if (!a || !felt) return;
  const things = a.tile ? [a.tile] : a.card ? [a.card] : a.cards || [];
  const where =
    game(page)?.hintMarks?.(a) ??
    (things.length
      ? things.map((x) => `.hand [data-tile="${CSS.escape(x)}"], .hand [data-card="${CSS.escape(x)}"]`)
      : [`.actions [data-act="${CSS.escape(a.type)}"]`]);
  for (const selector of where) felt.querySelectorAll(selector).forEach((el) => el.classList.add('hinted'));
}

/** The server's answer to the hint asked (dropped if the table moved on meanwhile). */
export function heardHint(page, msg) {
  const { S } = page;
  if (msg.id !== S.hintAsked) return;
  S.hintAsked = null;
  S.hint = msg.seq === page.socket?.seq ? msg : null; // the table moved on meanwhile: dropped
  if (S.hint?.action) game(page)?.takeHint?.(S.hint.action, ctx(page)); // a bet's amount, say
  page.render();
}
