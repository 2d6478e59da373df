// The table's sounds and notices: the sound and notification switches (remembered in
// this browser), and the page's title and the turn notice when it becomes this
// player's turn.

import { t } from '../i18n.js';
import { html } from '../html.js';
import { bell } from '../svg.js';
import { gameTitle, toast } from '../ui.js';
import * as notice from '../notice.js';

/** The table's sound and notification switches. */
export function noticeTools(page) {
  const on = notice.soundOn();
  const sound = html`<button class="btn ghost small icon" data-sound data-key="sound" aria-pressed="${on}"
      title="${t(on ? 'notice.sound_on' : 'notice.sound_off')}" aria-label="${t('notice.sound')}">${bell(on)}</button>`;
  if (!notice.notifySupported() || page.S.seat === null) return sound;
  const asked = notice.notifyOn();
  return html`${sound}<button class="btn ghost small" data-notify data-key="notify" aria-pressed="${asked}"
      title="${t('notice.notify')}">${t('notice.notify_short')}</button>`;
}

/** The switches switch. */
export function bindNotices(page) {
  const { app } = page;
  app.querySelectorAll('[data-sound]').forEach(
    (b) =>
      (b.onclick = () => {
        notice.setSound(!notice.soundOn());
        page.render();
      }),
  );
  app.querySelectorAll('[data-notify]').forEach(
    (b) =>
      (b.onclick = async () => {
        const on = await notice.setNotify(!notice.notifyOn());
        if (!on && b.getAttribute('aria-pressed') === 'false') toast(t('notice.denied'), 'info');
        page.render();
      }),
  );
}

/** The page's title (marked while it is this player's turn), and the turn notice when
 * it becomes this player's turn (not on opening the page). */
export function turnNotice(page) {
  const { S } = page;
  const v = S.view;
  const mine = !!v && !v.over && S.seat !== null && (v.turn === S.seat || (v.legal || []).length > 0);
  document.title = `${mine ? '● ' : ''}${gameTitle(S.table?.game)} · Taverna`;
  if (mine && S.mine === false) notice.yourTurn(gameTitle(S.table?.game));
  if (v) S.mine = mine;
}

/** The chime of a game's end. */
export function overChime() {
  notice.chime('over');
}
