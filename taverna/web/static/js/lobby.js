// The lobby: the club's games (js/games.js), open tables (live over /ws/lobby), a new
// table (js/lobby/create.js), finished games (js/lobby/history.js).

import { api, ensureSession, session } from './api.js';
import { setNet } from './chrome.js';
import { t, tn } from './i18n.js';
import { Reconnecting } from './socket.js';
import { html, setMarkup } from './html.js';
import { board, clubInfo, gameNames } from './games.js';
import { botName, copyText, gameTitle, levelOptions, settingsSummary, tableLink, toast } from './ui.js';
import { createDialog } from './lobby/create.js';
import { renderHistory } from './lobby/history.js';

/** GET /api/games: the games and what a new table may be (loaded by the app at start). */
export function gameInfo() {
  return clubInfo();
}

export function mount(app) {
  const lobby = { app, tables: [], filter: 'all' };
  const socket = new Reconnecting('/ws/lobby', {
    onMessage: (msg) => {
      if (msg.type === 'tables') {
        lobby.tables = msg.tables;
        renderTables(lobby);
      }
    },
    onStatus: (s) => setNet(s),
  });
  const render = () => {
    draw(lobby);
    renderTables(lobby);
    renderHistory(app);
  };
  render();
  return {
    rerender: render,
    unmount() {
      socket.close();
    },
  };
}

/** The page: the games' cards, the open tables' panel, the finished games' panel (the
 * lists filled apart). */
function draw(lobby) {
  const { app } = lobby;
  setMarkup(
    app,
    html`
      <section class="hero">
        <h1>${t('lobby.title')}</h1>
        <p>${t('lobby.tagline')}</p>
      </section>
      <section class="game-cards" aria-label="${t('lobby.games')}">
        ${gameNames().map(gameCard)}
      </section>
      <section class="panel tables-panel" aria-labelledby="tables-title">
        <div class="panel-head">
          <h2 id="tables-title">${t('lobby.tables')}</h2>
          <div class="tabs" role="tablist" aria-label="${t('lobby.filter')}">
            ${['all', ...gameNames()]
              .map(
                (g) =>
                  html`<button role="tab" class="tab" data-filter="${g}" aria-selected="${lobby.filter === g}">${g === 'all' ? t('lobby.all') : gameTitle(g)}</button>`,
              )}
          </div>
        </div>
        <div id="table-list" class="table-list" aria-live="polite"></div>
      </section>
      <section class="panel" aria-labelledby="history-title">
        <h2 id="history-title">${t('lobby.history')}</h2>
        <div id="history-list" class="history-list"></div>
      </section>`,
  );
  bind(lobby);
}

/** A game's card: its picture, what it is, how many tables, and the ways to play it. */
function gameCard(g) {
  return html`<article class="game-card" data-game="${g}">
            <div class="ill" aria-hidden="true">${board(g)?.illustration?.() ?? ''}</div>
            <div class="game-card-body">
              <h2>${gameTitle(g)}</h2>
              <p>${t(`game.${g}.about`)}</p>
              <p class="game-card-rules"><a href="/rules/${g}" aria-label="${t('nav.rules_of', { game: gameTitle(g) })}">${t('nav.rules')}</a></p>
              <p class="muted open-count" data-count="${g}"></p>
              <div class="game-card-actions">
                <button class="btn primary" data-play-now="${g}" data-key="now-${g}">${t('lobby.play_now')}</button>
                <button class="btn ghost" data-new="${g}" data-key="new-${g}">${t('lobby.new_table')}</button>
                ${session.player?.registered ? html`<button class="btn ghost" data-play-ranked="${g}" data-key="ranked-${g}" title="${t('lobby.play_ranked_hint')}">${t('lobby.play_ranked')}</button>` : ''}
              </div>
              <p class="play-now-level"><label for="now-level-${g}">${t('lobby.play_now_level')}</label>
                <select id="now-level-${g}" data-now-level="${g}"><option value="" selected>${t('lobby.level_near')}</option>${levelOptions('', g)}</select></p>
            </div>
          </article>`;
}

function bind(lobby) {
  const { app } = lobby;
  app.querySelectorAll('[data-new]').forEach((b) => (b.onclick = () => openCreate(b.dataset.new)));
  app.querySelectorAll('[data-play-now]').forEach((b) => (b.onclick = () => playNow(app, b.dataset.playNow)));
  app.querySelectorAll('[data-play-ranked]').forEach((b) => (b.onclick = () => playRanked(b.dataset.playRanked)));
  app.querySelectorAll('[data-filter]').forEach(
    (b) =>
      (b.onclick = () => {
        lobby.filter = b.dataset.filter;
        app.querySelectorAll('[data-filter]').forEach((x) => x.setAttribute('aria-selected', x === b));
        renderTables(lobby);
      }),
  );
}

/** Play now: a free seat at a table that waits for players, else a new table whose
 * free seats go to bots of the chosen level after a short wait (the server decides). */
async function playNow(app, game) {
  if (!(await ensureSession())) return;
  // no level chosen: the server gives the level whose rating is nearest the player's
  const level = app.querySelector(`[data-now-level="${game}"]`)?.value;
  try {
    const r = await api('POST', '/api/play-now', level ? { game, level } : { game });
    location.hash = `#/table/${r.table.id}`;
  } catch (e) {
    toast(e.message, 'error');
  }
}

/** Play ranked: an official table of registered players near one's skill rating. */
async function playRanked(game) {
  try {
    const r = await api('POST', '/api/play-ranked', { game });
    location.hash = `#/table/${r.table.id}`;
  } catch (e) {
    toast(e.message, 'error');
  }
}

/** The open tables (the filter's), with each game's count on its card. */
function renderTables(lobby) {
  const { app } = lobby;
  const list = app.querySelector('#table-list');
  if (!list) return;
  for (const g of gameNames()) {
    const el = app.querySelector(`[data-count="${g}"]`);
    const open = lobby.tables.filter((x) => x.game === g && x.status === 'open').length;
    const playing = lobby.tables.filter((x) => x.game === g && x.status === 'playing').length;
    if (el) el.textContent = t('lobby.counts', { open, playing });
  }
  const shown = lobby.tables.filter((x) => lobby.filter === 'all' || x.game === lobby.filter);
  if (!shown.length) {
    setMarkup(list, html`<p class="empty">${t('lobby.no_tables')}</p>`);
    return;
  }
  // open tables with free seats first, then the newest
  shown.sort(
    (a, b) =>
      (b.status === 'open') - (a.status === 'open') ||
      String(b.created_at).localeCompare(String(a.created_at)),
  );
  setMarkup(list, html`${shown.map(tableCard)}`);
  list.querySelectorAll('[data-sit]').forEach((b) => {
    b.onclick = () => sit(b.dataset.table, Number(b.dataset.sit));
  });
  list.querySelectorAll('[data-copy]').forEach((b) => {
    b.onclick = async () => {
      await copyText(tableLink(b.dataset.copy));
      toast(t('table.link_copied'));
    };
  });
}

function tableCard(x) {
  const mine = isMine(x);
  const seats = x.seating
    .map((s) => {
      if (s.empty && x.status === 'open') {
        return html`<li><button class="seat-chip free" data-table="${x.id}" data-sit="${s.seat}"
            aria-label="${t('lobby.sit_at', { n: s.seat + 1 })}">${t('lobby.sit')}</button></li>`;
      }
      const name = s.player ? s.player : s.bot ? botName(s.seat, s.bot, x.game) : t('seat.empty');
      return html`<li><span class="seat-chip${s.bot ? ' bot' : ''}" title="${name}">${name}</span></li>`;
    });
  const chips = settingsSummary(x.game, x.settings, x.options).map((c) => html`<span class="chip">${c}</span>`);
  const status = x.status === 'open' ? t('status.open') : t('status.playing');
  const free = x.free_seats.length;
  return html`<article class="table-card" data-id="${x.id}" data-game="${x.game}">
      <div class="table-card-head">
        <h3>${gameTitle(x.game)}</h3>
        <span class="badge ${x.status}">${status}</span>
        ${x.status === 'open' ? html`<span class="muted">${tn('lobby.free', free)}</span>` : ''}
      </div>
      <div class="chips">${chips}</div>
      <ul class="seat-chips" aria-label="${t('table.seats')}">${seats}</ul>
      <div class="table-card-actions">
        <a class="btn ${x.status === 'open' && !mine ? 'ghost' : 'primary'}" href="#/table/${x.id}">${mine ? t('lobby.back_to_table') : x.status === 'open' ? t('lobby.open') : t('lobby.watch')}</a>
        <button class="btn ghost" data-copy="${x.id}">${t('table.invite')}</button>
      </div>
    </article>`;
}

async function sit(tableId, seat) {
  if (!(await ensureSession())) return;
  try {
    await api('POST', `/api/tables/${tableId}/seats/${seat}`);
    location.hash = `#/table/${tableId}`;
  } catch (e) {
    toast(e.message, 'error');
  }
}

async function openCreate(game) {
  if (!(await ensureSession())) return;
  createDialog(gameInfo(), game);
}

/** Whether I play at this table: by my player id (names need not be unique, and a guest
 * who registers changes theirs), not where I left or abandoned the seat to a bot. */
export function isMine(table) {
  const me = session.player;
  if (!me) return false;
  return table.seating.some((s) => s.player_id === me.id && !s.left && !(s.replaced && table.official));
}
