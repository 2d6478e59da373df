// "Play again": a new game at the same seats with the same settings. The first who asks
// makes it; the others are offered it (who made it is said), and once it exists the
// button joins it.

import { api, ensureSession, session } from '../api.js';
import { t } from '../i18n.js';
import { html } from '../html.js';
import { plainName, toast } from '../ui.js';

/** Whether this person played at the table (and so may play again there). */
function playedHere(page) {
  const me = session.player?.id;
  return !!me && !!page.S.table?.seating.some((s) => s.player_id === me);
}

/** The button, at a finished table where this person played (`key`: its data-key). */
export function againButton(page, key) {
  const x = page.S.table;
  if (!x || x.status !== 'finished' || !playedHere(page)) return '';
  const label = x.again ? t('again.join') : t('again.button');
  return html`<button class="btn primary" data-again data-key="${key}">${label}</button>`;
}

/** Who offered to play again, told to the others at the finished table. */
export function againOffer(page) {
  const x = page.S.table;
  if (!x?.again || !playedHere(page)) return '';
  const by = page.S.againBy;
  if (!by || by === session.player?.id) return '';
  const seat = x.seating.find((s) => s.player_id === by);
  const name = seat ? plainName(x, seat.seat) : '';
  return html`<p class="again-offer" role="status">${t('again.offer', { name })}</p>`;
}

/** A finished table's "play again" table: who made it (the offer said to the others). */
export function noteAgain(page) {
  const { S } = page;
  const next = S.table?.again;
  if (!next || S.againOf === next) return;
  S.againOf = next;
  api('GET', `/api/tables/${encodeURIComponent(next)}`).then(
    ({ table }) => {
      S.againBy = table.owner;
      if (!page.gone) page.render();
    },
    () => {},
  );
}

async function playAgain(page) {
  if (!(await ensureSession())) return;
  try {
    const r = await api('POST', `/api/tables/${encodeURIComponent(page.S.id)}/again`);
    if (r?.table?.id) location.hash = `#/table/${r.table.id}`;
  } catch (e) {
    toast(e.message, 'error');
  }
}

/** The buttons ask, or join. */
export function bindAgain(page) {
  page.app.querySelectorAll('[data-again]').forEach((b) => (b.onclick = () => playAgain(page)));
}
