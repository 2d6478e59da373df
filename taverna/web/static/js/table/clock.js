// The table's clocks, counted down four times a second: the time left of the turn, the
// time before a bot takes an away player's seat, the time before bots fill a "play
// now" table.

import { tn } from '../i18n.js';
import { graceText } from './presence.js';
import { playNowText } from './seating.js';
import { clockText, turnSeconds } from './state.js';

/** Milliseconds between two ticks. */
export const TICK = 250;

/** Count every clock of the page down to now. */
export function tick(page) {
  const { app } = page;
  for (const el of app.querySelectorAll('.away-left[data-ends]')) {
    el.textContent = graceText(page, Number(el.dataset.ends));
  }
  for (const el of app.querySelectorAll('.play-now-wait[data-fill-at]')) {
    el.textContent = playNowText(page, Number(el.dataset.fillAt));
  }
  const box = app.querySelector('.timer');
  if (box) turnTimer(page, box);
}

/** The turn's timer in the status bar: hidden when nobody is to act. */
function turnTimer(page, box) {
  const { S } = page;
  const v = S.view;
  if (!S.deadline || !v || v.over || v.turn === null || v.turn === undefined) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const left = Math.max(0, S.deadline - S.skew - Date.now() / 1000);
  const total = turnSeconds(page);
  const secs = Math.ceil(left);
  box.querySelector('.timer-text').textContent = clockText(secs);
  // a scale, not a width, and no transition: the bar moves four times a second without
  // laying the page out again (a width eased between ticks drew 60 frames a second for
  // as long as a table was open: a third of a core on an idle turn, a phone's battery)
  box.querySelector('.timer-fill').style.transform = `scaleX(${Math.min(1, left / total)})`;
  box.classList.toggle('low', left < Math.min(10, total / 3));
  box.classList.toggle('mine', v.turn === S.seat);
  box.setAttribute('aria-label', tn('table.time_left', secs));
}
