// Who is away from the table (the server's presence), with the time left before a bot
// takes the seat, and whose seat a bot plays now (the table's seating).

import { t } from '../i18n.js';
import { html } from '../html.js';
import { plainName } from '../ui.js';
import { clockText, secondsTo } from './state.js';

/** The bar above the board: who is away, whose seat a bot plays. */
export function presenceBar(page) {
  const { S } = page;
  const x = S.table;
  if (!x || S.view?.over) return '';
  const items = [];
  for (const p of S.presence || []) {
    if (p.connected || p.seat === S.seat) continue;
    const ends = typeof p.grace_ends === 'number' ? p.grace_ends : null;
    items.push(html`<li class="away" data-seat="${p.seat}"><span class="away-dot" aria-hidden="true"></span>
        <span>${t('presence.away', { name: plainName(x, p.seat) })}</span>${
          ends === null
            ? ''
            : html` <span class="away-left" role="timer" data-ends="${ends}">${graceText(page, ends)}</span>`
        }</li>`);
  }
  for (const s of x.seating) {
    if (!s.replaced || !s.player || s.seat === S.seat) continue;
    items.push(html`<li class="replaced" data-seat="${s.seat}"><span>${t('presence.replaced', { name: s.player })}</span></li>`);
  }
  return items.length ? html`<div role="status"><ul class="presence">${items}</ul></div>` : '';
}

/** "a bot takes the seat in 0:42": the grace period left, by the server's clock. */
export function graceText(page, ends) {
  return t('presence.bot_in', { time: clockText(secondsTo(page, ends)) });
}
