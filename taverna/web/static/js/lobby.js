// The lobby: the club's games (js/games.js), open tables (live over /ws/lobby), a new
// table, finished games.

import { api, ensureSession, session } from './api.js';
import { t, tn } from './i18n.js';
import { Reconnecting } from './socket.js';
import { html, setMarkup } from './html.js';
import { board, clubInfo, gameFacts, gameNames, sides } from './games.js';
import { checkField, checkNumbers, numberField, numberSpecs as gameNumbers, readSettings, settingFields } from './settings.js';
import { botName, defaultLevel, gameTitle, levelName, levelOptions, officialBadge, plainName, settingsSummary, sideName, toast, copyText, when } from './ui.js';

/** How often a practice table's bots forget a score (a claim, a Muggins! call): about one
 * in three, so that a Muggins! comes now and then and is worth watching for. */
const PRACTICE_FORGET = 1 / 3;

/** GET /api/games: the games and what a new table may be (loaded by the app at start). */
export function gameInfo() {
  return clubInfo();
}

export function tableLink(id) {
  return `${location.origin}${location.pathname}#/table/${id}`;
}

export function mount(app) {
  const state = { tables: [], history: [], filter: 'all', info: null };
  const socket = new Reconnecting('/ws/lobby', {
    onMessage: (msg) => {
      if (msg.type === 'tables') {
        state.tables = msg.tables;
        renderTables();
      }
    },
    onStatus: (s) => setNet(s),
  });

  function render() {
    setMarkup(
      app,
      html`
      <section class="hero">
        <h1>${t('lobby.title')}</h1>
        <p>${t('lobby.tagline')}</p>
      </section>
      <section class="game-cards" aria-label="${t('lobby.games')}">
        ${gameNames().map(
          (g) => html`<article class="game-card" data-game="${g}">
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
          </article>`,
        )}
      </section>
      <section class="panel tables-panel" aria-labelledby="tables-title">
        <div class="panel-head">
          <h2 id="tables-title">${t('lobby.tables')}</h2>
          <div class="tabs" role="tablist" aria-label="${t('lobby.filter')}">
            ${['all', ...gameNames()]
              .map(
                (g) =>
                  html`<button role="tab" class="tab" data-filter="${g}" aria-selected="${state.filter === g}">${g === 'all' ? t('lobby.all') : gameTitle(g)}</button>`,
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
    app.querySelectorAll('[data-new]').forEach((b) => (b.onclick = () => openCreate(b.dataset.new)));
    app.querySelectorAll('[data-play-now]').forEach((b) => (b.onclick = () => playNow(b.dataset.playNow)));
    app.querySelectorAll('[data-play-ranked]').forEach((b) => (b.onclick = () => playRanked(b.dataset.playRanked)));
    app.querySelectorAll('[data-filter]').forEach(
      (b) =>
        (b.onclick = () => {
          state.filter = b.dataset.filter;
          app.querySelectorAll('[data-filter]').forEach((x) => x.setAttribute('aria-selected', x === b));
          renderTables();
        }),
    );
    renderTables();
    renderHistory();
  }

  /** Play now: a free seat at a table that waits for players, else a new table whose
   * free seats go to bots of the chosen level after a short wait (the server decides). */
  async function playNow(game) {
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

  function renderTables() {
    const list = app.querySelector('#table-list');
    if (!list) return;
    for (const g of gameNames()) {
      const el = app.querySelector(`[data-count="${g}"]`);
      const open = state.tables.filter((x) => x.game === g && x.status === 'open').length;
      const playing = state.tables.filter((x) => x.game === g && x.status === 'playing').length;
      if (el) el.textContent = t('lobby.counts', { open, playing });
    }
    const shown = state.tables.filter((x) => state.filter === 'all' || x.game === state.filter);
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

  async function renderHistory() {
    const box = app.querySelector('#history-list');
    try {
      state.history = (await api('GET', '/api/history')).tables;
    } catch {
      state.history = [];
    }
    if (!box.isConnected) return;
    const items = state.history.slice(0, 12); // the API lists the newest first
    if (!items.length) {
      setMarkup(box, html`<p class="empty">${t('lobby.no_history')}</p>`);
      return;
    }
    setMarkup(box, html`<ul>${items.map(historyRow)}</ul>`);
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
    state.info = gameInfo();
    createDialog(state.info, game);
  }

  render();
  return {
    rerender: render,
    unmount() {
      socket.close();
    },
  };
}

/** A link to a game's "How to play", opened beside the page (a form being filled, a
 * game being played: neither is left for it). */
export function rulesLink(game, { cls = '', text = null } = {}) {
  const label = t('nav.rules_of', { game: gameTitle(game) });
  return html`<a class="${cls}" href="/rules/${game}" target="_blank" rel="noopener" aria-label="${t('nav.new_tab', {
    label,
  })}" title="${label}">${text ?? label}</a>`;
}

/** A finished game in the list: what, when, who with what score (the winner marked),
 * who won, whether it counted, and its replay. A game of sides is scored per side (its
 * seats s, s + n, …); the game's board says how its result scores each side
 * (`resultScores`), else its result's `scores`. */
function historyRow(x) {
  const r = x.result || {};
  const w = r.winner;
  const names = x.seating.map((s) => plainName(x, s.seat));
  const n = sides(x.game);
  const scores = board(x.game)?.resultScores?.(r) ?? r.scores ?? [];
  const rows = n
    ? Array.from({ length: n }, (_, team) => ({
        team,
        name: sideNames(names.filter((_, s) => s % n === team)),
        score: scores[team] ?? '',
      }))
    : names.map((name, team) => ({ team, name, score: scores[team] ?? '' }));
  const winner =
    w === null || w === undefined
      ? ''
      : t(n ? 'result.pair_won_past' : 'result.won', n ? { names: rows[w].name } : { name: names[w] });
  const date = when(x.finished_at || x.created_at);
  const voided = r.settlement?.why === 'shared_address';
  return html`<li class="hist-row" data-id="${x.id}">
    <span class="hist-head"><span class="hist-game">${gameTitle(x.game)}</span>${
      x.official ? officialBadge(x.stake) : ''
    }${date ? html`<time class="hist-when" datetime="${date.iso}">${date.text}</time>` : ''}</span>
    <ol class="hist-players" aria-label="${t('table.scores')}">${rows.map(
      (side) => html`<li${side.team === w ? html` class="winner"` : ''}><span class="hist-name">${side.name}</span>
        <b class="hist-score">${side.score}</b></li>`,
    )}</ol>
    <span class="hist-result"><span class="hist-winner">${winner}</span>${
      voided ? html`<span class="hist-voided">${t('club.voided')}</span>` : ''
    }</span>
    <a class="btn small ghost" href="#/replay/${x.id}">${t('lobby.replay')}</a></li>`;
}

/** The players of one side: "Ana and Bea" (a pair), or their names in a row. */
function sideNames(names) {
  return names.length === 2 ? t('pair.names', { a: names[0], b: names[1] }) : names.join(' · ');
}

/** Whether I play at this table: by my player id (names need not be unique, and a guest
 * who registers changes theirs), not where I left or abandoned the seat to a bot. */
export function isMine(table) {
  const me = session.player;
  if (!me) return false;
  return table.seating.some((s) => s.player_id === me.id && !s.left && !(s.replaced && table.official));
}

// ---------------------------------------------------------------- new table

function createDialog(info, game) {
  document.getElementById('create-dialog')?.remove();
  const bots = info.bots;
  const dialog = document.createElement('dialog');
  dialog.id = 'create-dialog';
  dialog.className = 'create-dialog';
  dialog.setAttribute('aria-labelledby', 'create-title');
  document.body.appendChild(dialog);
  const defaults = info.table_defaults;
  // official tables are for members: a guest sees why, and where to register
  const member = !!session.player?.registered;
  const form = {
    game,
    seats: null,
    settings: {},
    turn_seconds: defaults.turn_seconds,
    muggins_wait: defaults.muggins_wait,
    public: defaults.public,
    chat: true,
    hints: false,
    practice: false,
    official: false,
    stake: 100,
    who: [],
    casualWho: null, // the seats as they were before Official was ticked (its bots)
    more: false, // "More options" open
  };
  const isBot = (w) => w !== 'me' && w !== 'open';
  /** A new seat's default: a bot at a casual table, an open seat at an official one. */
  const fresh = () => (form.official ? 'open' : defaultLevel());
  const gameInfoOf = (g) => gameFacts(g);
  /** A game with rights that are not turns (claims, calls): the table waits for people
   * to use them before bots move, and practice bots may forget theirs. */
  const rights = () => gameInfoOf(form.game).optional_actions.length > 0;

  function reset(g) {
    const gi = gameInfoOf(g);
    form.game = g;
    form.seats = gi.default_seats;
    form.settings = { ...gi.defaults[form.seats] };
    form.who = Array.from({ length: form.seats }, (_, i) => (i === 0 ? 'me' : fresh()));
    form.casualWho = null;
  }

  /** Official seats registered people only: its bots give way to open seats (and come
   * back, where those seats are still open, when Official is unticked). */
  function setOfficial(on) {
    if (on === form.official) return;
    form.official = on;
    if (on) {
      form.casualWho = [...form.who];
      form.who = form.who.map((w) => (isBot(w) ? 'open' : w));
    } else {
      const before = form.casualWho || [];
      form.who = form.who.map((w, i) => (w === 'open' && isBot(before[i] ?? 'me') ? before[i] : w));
      form.casualWho = null;
    }
  }
  reset(game);

  /** What each number field may be: the game's settings and the table's limits, as the
   * server enforces them (GET /api/games). */
  function numberSpecs() {
    const out = { ...gameNumbers(form.game) };
    for (const name of ['turn_seconds', 'muggins_wait', 'stake']) out[name] = info.table_limits?.[name] ?? {};
    return out;
  }

  /** A number option of the table (not of the game), with its words. */
  function optionNumber(name) {
    return numberField(name, t(`option.${name}`), form[name], numberSpecs()[name], t(`option.${name}.help`));
  }

  /** Check the number fields that count now (the stake only at an official table). */
  function checkFormNumbers(f, opts = {}) {
    const official = f.querySelector('[name=official]')?.checked;
    return checkNumbers(f, numberSpecs(), { ...opts, skip: (name) => name === 'stake' && !official });
  }

  function chooseWho(i, value) {
    // one "me": taking another seat moves you, and your old seat takes what this one had
    const mine = form.who.indexOf('me');
    if (value === 'me' && mine >= 0 && mine !== i) form.who[mine] = form.who[i] === 'me' ? 'open' : form.who[i];
    form.who[i] = value;
  }

  function seatRows() {
    return form.who
      .map((w, i) => {
        const opts = [
          ['me', t('create.me')],
          ['open', t('create.open_seat')],
          ...(form.official ? [] : bots.map((b) => [b, t('create.bot', { level: levelName(b, form.game) })])),
        ];
        const n = sides(form.game);
        return html`<label class="field seat-field"><span>${t('seat.n', { n: i + 1 })}${
          n ? ` · ${sideName(n, i % n)}` : ''
        }</span>
          <select data-who="${i}">${opts
            .map(([v, l]) => html`<option value="${v}"${w === v ? html` selected` : ''}>${l}</option>`)}</select></label>`;
      });
  }

  function render() {
    const gi = gameInfoOf(form.game);
    const seatChoices = [];
    for (let n = gi.min_seats; n <= gi.max_seats; n++) seatChoices.push(n);
    setMarkup(
      dialog,
      html`<form class="create-form" novalidate>
      <h2 id="create-title">${t('create.title')}</h2>
      <fieldset class="game-choice"><legend>${t('create.game')}</legend>
        ${gameNames().map(
          (g) => html`<label class="radio-card${g === form.game ? ' on' : ''}"><input type="radio" name="game" value="${g}"${
            g === form.game ? html` checked` : ''
          }><span>${gameTitle(g)}</span></label>`,
        )}
      </fieldset>
      <p class="create-rules">${rulesLink(form.game)}</p>
      <div class="form-grid">
        <label class="field"><span>${t('create.seats')}</span>
          <select name="seats"${seatChoices.length === 1 ? html` disabled` : ''}>${seatChoices
            .map((n) => html`<option value="${n}"${n === form.seats ? html` selected` : ''}>${n}</option>`)}</select></label>
        ${settingFields(form.game, form.settings)}
      </div>
      <fieldset><legend>${t('create.who')}</legend><div class="form-grid">${seatRows()}</div>
        ${form.official ? html`<p class="create-note" id="official-seats">${t('create.official_seats')}</p>` : ''}</fieldset>
      <details class="more"${form.more ? html` open` : ''}><summary>${t('create.more')}</summary>
        <div class="form-grid">
          ${optionNumber('turn_seconds')}
          ${rights() ? optionNumber('muggins_wait') : ''}
          ${
            rights() && !form.official // practice is about the bots (bot_forget)
              ? checkField('practice', t('option.bot_forget'), form.practice, t('option.bot_forget.help'))
              : ''
          }
          ${checkField('public', t('option.public'), form.public, t('option.public.help'))}
          ${checkField('chat', t('option.chat'), form.chat, t('option.chat.help'))}
          ${
            form.official // an official table gives no hints (docs/protocol.md)
              ? ''
              : checkField('hints', t('option.hints'), form.hints, t('option.hints.help'))
          }
          ${
            member
              ? checkField('official', t('option.official'), form.official, t('option.official.help'))
              : html`<label class="check off"><input type="checkbox" name="official" disabled aria-describedby="official-why"><span>${t('option.official')}<small id="official-why">${t('create.official_members')} <a href="/account">${t('create.official_register')}</a></small></span></label>`
          }
          ${form.official ? optionNumber('stake') : ''}
        </div>
      </details>
      <div class="create-foot">
        <p class="form-error" role="alert"></p>
        <div class="dialog-buttons">
          <button type="button" class="btn ghost" data-cancel>${t('cancel')}</button>
          <button type="submit" class="btn primary" data-key="create-submit">${t('create.submit')}</button>
        </div>
      </div>
    </form>`,
    );
    const f = dialog.querySelector('form');
    f.querySelectorAll('input[name=game]').forEach(
      (r) =>
        (r.onchange = () => {
          reset(r.value);
          render();
          dialog.querySelector(`input[value="${r.value}"]`).focus();
        }),
    );
    f.querySelector('select[name=seats]').onchange = (e) => {
      const n = Number(e.target.value);
      const previous = form.settings;
      const before = gameInfoOf(form.game).defaults[form.seats];
      form.seats = n;
      // keep what the host changed; take the new seat count's defaults for the rest
      const next = { ...gameInfoOf(form.game).defaults[n] };
      for (const k of Object.keys(next)) if (previous[k] !== before[k]) next[k] = previous[k];
      form.settings = next;
      const hadMe = form.who.includes('me');
      form.who = Array.from({ length: n }, (_, i) => form.who[i] || fresh());
      if (form.casualWho) form.casualWho = Array.from({ length: n }, (_, i) => form.casualWho[i] || defaultLevel());
      if (hadMe && !form.who.includes('me')) form.who[0] = 'me'; // your seat went: sit at the first
      render();
      dialog.querySelector('select[name=seats]').focus();
    };
    f.querySelectorAll('[data-who]').forEach(
      (s) =>
        (s.onchange = () => {
          const i = Number(s.dataset.who);
          chooseWho(i, s.value);
          render();
          dialog.querySelector(`[data-who="${i}"]`).focus();
        }),
    );
    // keep what was typed when the form is drawn again (numbers as typed: checked on leaving)
    const keepOf = (el) => (el.type === 'checkbox' ? el.checked : el.type === 'number' ? el.value : Number(el.value));
    for (const k of Object.keys(form.settings)) {
      const el = f.querySelector(`[name=${k}]`);
      if (!el) continue;
      const keep = () => (form.settings[k] = keepOf(el));
      el.addEventListener('input', keep);
      el.addEventListener('change', keep);
    }
    for (const k of ['turn_seconds', 'muggins_wait', 'stake']) {
      const el = f.querySelector(`[name=${k}]`);
      if (el) el.addEventListener('input', () => (form[k] = el.value));
    }
    for (const el of f.querySelectorAll('input[type=number]')) {
      // a mistake is shown once the field is left, and cleared as soon as it is mended
      el.addEventListener('change', () => checkFormNumbers(f, { only: el.name }));
      el.addEventListener('input', () => {
        if (el.getAttribute('aria-invalid')) checkFormNumbers(f, { only: el.name });
      });
    }
    for (const k of ['public', 'practice', 'chat', 'hints']) {
      const el = f.querySelector(`[name=${k}]`);
      if (el) el.addEventListener('change', () => (form[k] = el.checked));
    }
    const official = f.querySelector('[name=official]:not([disabled])');
    if (official) {
      official.onchange = () => {
        setOfficial(official.checked); // the seats and the stake change with it
        render();
        dialog.querySelector('[name=official]').focus();
      };
    }
    const more = f.querySelector('details.more');
    more.addEventListener('toggle', () => (form.more = more.open));
    f.querySelector('[data-cancel]').onclick = () => dialog.close();
    f.onsubmit = (e) => {
      e.preventDefault();
      submit(f);
    };
  }

  async function submit(f) {
    const error = f.querySelector('.form-error');
    error.textContent = '';
    if (!checkFormNumbers(f, { focus: true })) return;
    if (form.who.filter((w) => w === 'me').length > 1) {
      error.textContent = t('create.one_me');
      return;
    }
    const settings = readSettings(f, form.settings);
    const bots = {};
    form.who.forEach((w, i) => {
      if (w !== 'me' && w !== 'open') bots[i] = w;
    });
    const body = {
      game: form.game,
      seats: form.seats,
      settings,
      turn_seconds: Number(f.querySelector('[name=turn_seconds]').value),
      public: f.querySelector('[name=public]').checked,
      chat: f.querySelector('[name=chat]').checked,
      bots,
    };
    if (form.official) {
      // ranked: registered players only, no bots (docs/accounts.md)
      body.official = true;
      body.stake = Number(f.querySelector('[name=stake]').value);
    }
    if (rights()) {
      body.muggins_wait = Number(f.querySelector('[name=muggins_wait]').value);
      if (f.querySelector('[name=practice]')?.checked) body.bot_forget = PRACTICE_FORGET;
    }
    if (!form.official && f.querySelector('[name=hints]')?.checked) body.hints = true;
    try {
      const table = (await api('POST', '/api/tables', body)).table;
      const mine = form.who.indexOf('me');
      if (mine >= 0) await api('POST', `/api/tables/${table.id}/seats/${mine}`);
      // PLATFORM.md: a game starts when every seat is taken
      if (form.who.every((w) => w !== 'open')) await api('POST', `/api/tables/${table.id}/start`);
      dialog.close();
      location.hash = `#/table/${table.id}`;
    } catch (e) {
      error.textContent = e.message;
    }
  }

  render();
  dialog.addEventListener('close', () => dialog.remove());
  dialog.showModal();
  dialog.querySelector('input[name=game]:checked').focus();
}

export function setNet(status) {
  const el = document.getElementById('net');
  if (!el) return;
  el.className = `net ${status}`;
  const words = { lost: 'net.lost', restarting: 'net.restarting', reconnected: 'net.back' };
  el.textContent = words[status] ? t(words[status]) : '';
  if (status === 'reconnected') {
    el.dataset.reconnected = String(Number(el.dataset.reconnected || 0) + 1);
    setTimeout(() => {
      if (el.classList.contains('reconnected')) {
        el.className = 'net';
        el.textContent = '';
      }
    }, 4000);
  }
}
