// The table by keyboard: where the focus goes by itself, and the keys (Tab round the
// game-over dialog, the arrows along the hand and the buttons, the game's own keys,
// Escape to close what is open over the table).

import { arrowAlong, focusFirst } from '../ui.js';
import { ctx, game } from './state.js';

/** Where the focus goes when the control that had it is gone (a tile just played, a
 * summary closed): what there is to play, else the hand, else the controls' own place. */
export const FOCUS_NEXT = [
  '.felt .hand [data-key].playable',
  '.felt .actions [data-key]:not([aria-disabled="true"])',
  '.felt .hand [data-key]',
  '.felt .controls',
];

/** Where the focus goes by itself: into the game-over dialog when it comes; to a hand
 * summary that has just opened, when the player was at the board; from the controls'
 * own place (kept while the others played) to what there is to do now. */
export function moveFocus(page) {
  const { S, app } = page;
  const active = document.activeElement;
  const atBoard = !active || active === document.body || active === app || !!active.closest('.felt');
  const over = app.querySelector('.game-over [data-close-over]');
  if (over && !S.overFocused) {
    S.overFocused = true;
    S.summaryNew = false;
    over.focus();
    return;
  }
  if (S.summaryNew && S.summaryOpen) {
    S.summaryNew = false;
    const close = app.querySelector('[data-close-summary]');
    if (close && atBoard) {
      close.focus({ preventScroll: true });
      return;
    }
  }
  if (active?.matches('.felt .controls')) focusFirst(app, FOCUS_NEXT.slice(0, 2));
}

/** Close what is open over the table: the game-over dialog, else the hand summary. */
function closeTop(page) {
  const { S, app } = page;
  if (app.querySelector('.game-over')) S.overShown = true;
  else if (S.summaryOpen && app.querySelector('[data-close-summary]')) S.summaryOpen = false;
  else return false;
  page.render();
  return true;
}

/** A modal dialog: Tab goes round its own controls. */
function tabRound(dialog, e) {
  const items = [...dialog.querySelectorAll('a[href], button:not([disabled])')];
  const at = items.indexOf(document.activeElement);
  const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : (at + 1) % items.length;
  items[next]?.focus();
}

/** The page's keydown listener. */
export function keyListener(page) {
  return (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const dialog = page.app.querySelector('.game-over');
    if (dialog && e.key === 'Tab') {
      tabRound(dialog, e);
      e.preventDefault();
      return;
    }
    if (e.target.closest('input, select, textarea')) return;
    // the arrow keys along the hand, and along the buttons below it
    const row = e.target.closest?.('.felt .hand, .felt .actions');
    if (row && arrowAlong(row, e)) {
      e.preventDefault();
      return;
    }
    const g = game(page);
    if (dialog) {
      if (e.key === 'Escape' && closeTop(page)) e.preventDefault();
      return;
    }
    if (page.S.view && g?.key?.(e.key.toLowerCase(), ctx(page))) e.preventDefault();
    else if (e.key === 'Escape' && closeTop(page)) e.preventDefault();
  };
}
