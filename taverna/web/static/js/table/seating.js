// Seating before the start (and the seats after the end): who sits where, a seat to
// take, a bot to add or remove, the invitation link, the start; the game starts by
// itself once every seat is taken (PLATFORM.md: the host's page asks for it).

import { api, ensureSession, session } from '../api.js';
import { t } from '../i18n.js';
import { html } from '../html.js';
import { levelOptions, seatName, sideBadge, tableLink, toast } from '../ui.js';
import { againButton, againOffer } from './again.js';
import { clockText, secondsTo } from './state.js';

/** The seating panel, in place of the board while no game is played. */
export function seatingArea(page) {
  const { S } = page;
  const x = S.table;
  const host = isHost(x);
  const seated = S.seat !== null;
  const full = !x.free_seats.length;
  return html`<section class="panel seating" aria-labelledby="seating-title">
      <h2 id="seating-title">${t(x.status === 'open' ? 'table.waiting' : x.status === 'set_aside' ? 'table.set_aside' : 'table.finished')}</h2>
      ${x.status === 'set_aside' ? html`<p class="set-aside" role="alert">${t('table.set_aside_why', { problem: x.problem || '' })}</p>` : ''}
      <ul class="seat-rows">${x.seating.map((s) => seatRow(page, s))}</ul>
      <div class="invite-box">
        <label for="invite-link">${t('table.invite_hint')}</label>
        <div class="invite-row"><input id="invite-link" readonly value="${tableLink(x.id)}">
          <button class="btn ghost" data-invite data-key="invite2">${t('table.copy')}</button></div>
      </div>
      ${
        x.status === 'open' && (host || seated)
          ? html`<div class="start-row"><button class="btn primary big" data-start data-key="start"${full ? '' : html` disabled`}>${t('table.start')}</button><span class="muted">${full ? t('table.ready') : t(x.official ? 'table.needs_seats_official' : 'table.needs_seats')}</span></div>`
          : ''
      }
      ${x.status === 'finished' ? html`${againOffer(page)}<div class="start-row"><a class="btn ghost" href="#/replay/${x.id}">${t('lobby.replay')}</a>${againButton(page, 'again')}</div>` : ''}
      ${playNowWait(page, x)}
    </section>`;
}

function isHost(x) {
  const me = session.player;
  return me && x.owner === me.id;
}

/** One seat: its number, side, who sits there, and what may be done with it. */
function seatRow(page, s) {
  const { S } = page;
  const x = S.table;
  const me = session.player;
  const seated = S.seat !== null;
  const team = sideBadge(x.game, s.seat);
  let who;
  const actions = [];
  const kept = keptFor(page, x, s.seat);
  if (s.empty && kept && kept !== me?.id) {
    // "play again": the seat waits for the player who had it in the last game
    who = html`<span class="muted kept">${t('again.kept', { name: x.options.reserved_names?.[s.seat] ?? '' })}</span>`;
  } else if (s.empty) {
    who = html`<span class="muted">${t('seat.empty')}</span>`;
    if (!seated) {
      actions.push(html`<button class="btn primary small" data-sit="${s.seat}" data-key="sit-${s.seat}">${t('table.sit_here')}</button>`);
    }
    // an official table seats registered people only: no bot to add (at any other,
    // anyone may add one)
    if (!x.official) {
      actions.push(html`<span class="add-bot">
              <label class="sr-only" for="bot-level-${s.seat}">${t('table.bot_level')}</label>
              <select id="bot-level-${s.seat}" data-bot-level="${s.seat}">${levelOptions(undefined, x.game)}</select>
              <button class="btn ghost small" data-add-bot="${s.seat}" data-key="bot-${s.seat}">${t('table.add_bot')}</button></span>`);
    }
  } else {
    who = html`<strong title="${seatName(x, s.seat, S.seat, true)}">${seatName(x, s.seat, S.seat, true)}</strong>`;
    if (s.seat === S.seat) {
      actions.push(html`<button class="btn ghost small" data-stand="${s.seat}" data-key="stand">${t('table.stand_up')}</button>`);
    } else if (s.bot && isHost(x)) {
      actions.push(html`<button class="btn ghost small" data-remove-bot="${s.seat}" data-key="rm-${s.seat}">${t('table.remove_bot')}</button>`);
    }
  }
  return html`<li class="seat-row${s.seat === S.seat ? ' mine' : ''}"><span class="seat-no">${t('seat.n', { n: s.seat + 1 })}</span>${team}<span class="seat-who">${who}</span><span class="seat-actions">${actions}</span></li>`;
}

/** Who a seat of a "play again" table is kept for, while it is (the server decides;
 * this only spares a click that it would refuse). */
function keptFor(page, x, seat) {
  const until = Number(x.options?.reserved_until ?? 0);
  if (until <= Date.now() / 1000 + page.S.skew) return null;
  return x.options?.reserved?.[seat] ?? null;
}

/** A "play now" table: the time left before bots take its free seats. */
function playNowWait(page, x) {
  const at = x.options?.play_now?.fill_at;
  if (x.status !== 'open' || typeof at !== 'number' || !x.free_seats.length) return '';
  return html`<p class="play-now-wait" role="status" data-fill-at="${at}">${playNowText(page, at)}</p>`;
}

export function playNowText(page, at) {
  return t('table.play_now_wait', { time: clockText(secondsTo(page, at)) });
}

/** The seats' buttons: sit, add a bot, remove one, stand up, leave, start. */
export function bindSeating(page) {
  const { S, app } = page;
  const $ = (sel) => app.querySelectorAll(sel);
  $('[data-sit]').forEach((b) => (b.onclick = () => sit(page, Number(b.dataset.sit))));
  $('[data-add-bot]').forEach(
    (b) =>
      (b.onclick = async () => {
        const seat = Number(b.dataset.addBot);
        const level = app.querySelector(`[data-bot-level="${seat}"]`).value;
        if (!(await ensureSession())) return;
        call(page, 'POST', `/api/tables/${S.id}/seats/${seat}/bot`, { level });
      }),
  );
  $('[data-remove-bot]').forEach(
    (b) => (b.onclick = () => call(page, 'DELETE', `/api/tables/${S.id}/seats/${b.dataset.removeBot}`)),
  );
  $('[data-stand]').forEach(
    (b) =>
      (b.onclick = async () => {
        await call(page, 'DELETE', `/api/tables/${S.id}/seats/${b.dataset.stand}`);
        page.socket?.rejoin();
      }),
  );
  $('[data-leave]').forEach(
    (b) =>
      (b.onclick = async () => {
        if (!confirm(t('table.leave_confirm'))) return;
        await call(page, 'DELETE', `/api/tables/${S.id}/seats/${S.seat}`);
        page.socket?.rejoin();
      }),
  );
  $('[data-start]').forEach((b) => (b.onclick = () => call(page, 'POST', `/api/tables/${S.id}/start`)));
}

/** Ask the server for a change of seats; the table it answers with is drawn. */
async function call(page, method, path, body) {
  try {
    const r = await api(method, path, body);
    if (r?.table) {
      page.S.table = r.table;
      page.render();
    }
    return r;
  } catch (e) {
    toast(e.message, 'error');
    return null;
  }
}

async function sit(page, seat) {
  if (!(await ensureSession())) return;
  const r = await call(page, 'POST', `/api/tables/${page.S.id}/seats/${seat}`);
  if (r) page.socket?.rejoin(); // the cookie now names a seat: join as that seat
}

/** PLATFORM.md: a game starts when every seat is taken; the host's page asks for it. */
export async function maybeAutoStart(page) {
  const { S } = page;
  const x = S.table;
  if (!x || x.status !== 'open' || x.free_seats.length || S.autoStarting) return;
  if (!session.player || x.owner !== session.player.id) return;
  S.autoStarting = true;
  try {
    await api('POST', `/api/tables/${x.id}/start`);
  } catch {
    /* somebody else started it */
  }
  S.autoStarting = false;
}
