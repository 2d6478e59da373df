// Tournaments: /tournaments (upcoming, running, finished; for a moderator, the form that
// schedules one) and /tournaments/{id} (sign up, the rounds with their tables to watch,
// the standings).
import { GAMES, api, date, gameTitle, header, html, num, page, setMarkup, t, whoami } from './club.js';
import { gameFacts, sides } from '../js/games.js';
import { checkNumbers, numberField, numberSpecs, readSettings, settingFields } from '../js/settings.js';

const root = document.getElementById('tournaments');
const STATUSES = ['running', 'upcoming', 'finished'];

function points(n) {
  return Number.isInteger(n) ? num(n) : `${num(Math.floor(n))}½`.replace(/^0½$/, '½');
}

// ------------------------------------------------------- a moderator's new tournament

/** What POST /api/tournaments takes of rounds and stake (server/tournaments.py: TournamentIn). */
const ROUNDS = { type: 'int', min: 1, max: 12 };
const STAKE = { type: 'int', min: 1, max: 1_000_000 };

/** A moment as a datetime-local field writes it: the visitor's own time, to the minute. */
function localInput(d) {
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The form as filled so far: kept across the page's redrawings (every few seconds, and
 * on a change of language), so that nothing typed is lost. */
const draft = { game: null, name: '', format: 'swiss', rounds: 3, starts: '', stake: '', settings: {}, error: '' };

function resetGame(game) {
  const facts = gameFacts(game);
  draft.game = game;
  draft.settings = { ...facts.defaults[facts.default_seats] };
}

/** Whether a game's entries are pairs (as the server signs them up: sides of several seats). */
function inPairs(game) {
  const facts = gameFacts(game);
  return !!sides(game) && facts.default_seats > facts.team_count;
}

function newForm() {
  if (!draft.game) resetGame(GAMES[0]);
  if (!draft.starts) {
    // the first whole hour at least an hour away: time to sign up, a time easy to say
    const start = new Date(Date.now() + 2 * 60 * 60 * 1000);
    start.setMinutes(0, 0, 0);
    draft.starts = localInput(start);
  }
  const g = draft.game;
  const swiss = draft.format === 'swiss';
  return html`<section class="panel new-tournament" aria-labelledby="new-title">
    <h2 id="new-title">${t('tour.new.title')}</h2>
    <p class="muted">${t('tour.new.intro')}</p>
    <form class="tour-form" novalidate data-new-tournament>
      <div class="form-grid" data-own>
        <label class="field"><span>${t('create.game')}</span><select name="game">${GAMES.map(
          (x) => html`<option value="${x}"${x === g ? html` selected` : ''}>${gameTitle(x)}</option>`,
        )}</select></label>
        <label class="field"><span>${t('tour.new.name')}</span><input name="name" required maxlength="80" autocomplete="off"
          value="${draft.name}" aria-describedby="err-name"><small class="field-error" id="err-name"></small></label>
        <label class="field"><span>${t('tour.new.format')}</span><select name="format" aria-describedby="help-format">${['swiss', 'knockout'].map(
          (f) => html`<option value="${f}"${f === draft.format ? html` selected` : ''}>${t(`tour.format_${f}`)}</option>`,
        )}</select><small class="field-help" id="help-format">${t('tour.new.format_help')}</small></label>
        ${swiss ? numberField('rounds', t('tour.new.rounds'), draft.rounds, ROUNDS, t('tour.new.rounds_help')) : ''}
        <label class="field"><span>${t('tour.new.starts')}</span><input type="datetime-local" name="starts_at" required
          value="${draft.starts}" min="${localInput(new Date())}" aria-describedby="help-starts_at err-starts_at">
          <small class="field-help" id="help-starts_at">${t('tour.new.starts_help')}</small>
          <small class="field-error" id="err-starts_at"></small></label>
        ${numberField('stake', t('tour.new.stake'), draft.stake, STAKE, t('tour.new.stake_help'))}
      </div>
      <fieldset><legend>${t('tour.new.settings')}</legend>
        ${inPairs(g) ? html`<p class="field-help">${t('tour.new.pairs', { game: gameTitle(g) })}</p>` : ''}
        <div class="form-grid" data-settings>${settingFields(g, draft.settings)}</div></fieldset>
      <p class="error" role="alert" id="new-error">${draft.error}</p>
      <button class="btn primary" type="submit">${t('tour.new.submit')}</button>
    </form></section>`;
}

/** Say what is wrong beside a field (or clear it). */
function mark(form, name, why) {
  const el = form.querySelector(`[name="${name}"]`);
  if (why) el?.setAttribute('aria-invalid', 'true');
  else el?.removeAttribute('aria-invalid');
  const said = form.querySelector(`#err-${name}`);
  if (said) said.textContent = why || '';
}

function bindForm(form) {
  // the tournament's own fields and the game's settings apart: a game may name a setting
  // as it likes
  const own = form.querySelector('[data-own]');
  const settings = form.querySelector('[data-settings]');
  const field = (name) => own.querySelector(`[name="${name}"]`);
  const keep = () => {
    draft.name = field('name').value;
    draft.rounds = field('rounds')?.value ?? draft.rounds;
    draft.starts = field('starts_at').value;
    draft.stake = field('stake').value;
    draft.settings = readSettings(settings, draft.settings);
  };
  form.addEventListener('input', keep);
  field('game').addEventListener('change', () => {
    keep();
    resetGame(field('game').value);
    redraw('game');
  });
  field('format').addEventListener('change', () => {
    keep();
    draft.format = field('format').value;
    redraw('format');
  });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    keep();
    draft.error = '';
    form.querySelector('#new-error').textContent = '';
    const name = draft.name.trim() ? '' : t('tour.new.need_name');
    const starts = draft.starts ? '' : t('tour.new.need_start');
    mark(own, 'name', name);
    mark(own, 'starts_at', starts);
    const mine = checkNumbers(own, { rounds: ROUNDS, stake: STAKE }, { skip: (n) => n === 'stake' && !draft.stake.trim() });
    const game = checkNumbers(settings, numberSpecs(draft.game));
    if (!(mine && game && !name && !starts)) {
      form.querySelector('[aria-invalid="true"]')?.focus();
      return;
    }
    const body = {
      game: draft.game,
      name: draft.name,
      format: draft.format,
      starts_at: new Date(draft.starts).toISOString(),
      settings: readSettings(settings, draft.settings),
    };
    if (draft.format === 'swiss') body.rounds = Number(draft.rounds);
    if (draft.stake.trim()) body.stake = Number(draft.stake);
    let made;
    try {
      made = (await api('/api/tournaments', { method: 'POST', body })).tournament;
    } catch (e) {
      // the server's refusal, in the page's language: beside the field it is about (the
      // focus there), or under the form
      const about = ({ bad_start: ['starts_at'], bad_text: ['name'] }[e.code] ?? e.params?.fields ?? [])
        .map(field)
        .filter(Boolean);
      if (!about.length) {
        draft.error = e.message;
        form.querySelector('#new-error').textContent = e.message;
        return;
      }
      for (const el of about) mark(own, el.name, e.message);
      about[0].focus();
      return;
    }
    Object.assign(draft, { name: '', starts: '', stake: '', error: '' });
    location.assign(`/tournaments/${encodeURIComponent(made.id)}`);
  });
}

/** Draw the form again after a choice that changes it (the game, the format), the
 * focus back on that choice. */
function redraw(name) {
  const box = root.querySelector('[data-new-box]');
  setMarkup(box, newForm());
  bindForm(box.querySelector('form'));
  box.querySelector(`[name="${name}"]`)?.focus();
}

// ------------------------------------------------------------------ the pages

async function list(me) {
  const { tournaments } = await api('/api/tournaments');
  document.title = `${t('nav.tournaments')} · Taverna`;
  const moderator = me?.role === 'moderator';
  setMarkup(
    root,
    html`<h1 class="page-title">${t('nav.tournaments')}</h1>
    ${moderator ? html`<div data-new-box>${newForm()}</div>` : ''}
    ${STATUSES.map((status) => {
      const rows = tournaments.filter((x) => x.status === status);
      return html`<section class="panel" aria-labelledby="t-${status}">
        <h2 id="t-${status}">${t(`tour.${status}`)}</h2>
        ${
          rows.length
            ? html`<ul class="tournament-list">${rows.map(
                (x) => html`<li><a href="/tournaments/${encodeURIComponent(x.id)}">${x.name}</a>
                  <span class="muted"> · ${gameTitle(x.game)} · ${t(`tour.format_${x.format}`)} · ${date(x.starts_at)} · ${t('tour.entries_n', { n: x.entries })}</span></li>`,
              )}</ul>`
            : html`<p class="muted">${t('tour.none')}</p>`
        }</section>`;
    })}`,
  );
  header(me, 'tournaments');
  const form = root.querySelector('[data-new-tournament]');
  if (form) bindForm(form);
}

function entryName(entry) {
  return entry.players.map((p) => p.name).join(' & ');
}

async function one(me, id) {
  let data;
  try {
    data = (await api(`/api/tournaments/${encodeURIComponent(id)}`)).tournament;
  } catch (e) {
    setMarkup(root, html`<h1 class="page-title">${t('nav.tournaments')}</h1><section class="panel"><p class="error" role="alert">${e.message}</p></section>`);
    return;
  }
  document.title = `${data.name} · Taverna`;
  const entries = Object.fromEntries(data.entries.map((e) => [e.id, e]));
  const mine = me && data.entries.find((e) => e.players.some((p) => p.id === me.id));
  const pairs = !!sides(data.game); // a game of sides (Mus): entries are pairs
  const signUp =
    data.status !== 'upcoming'
      ? ''
      : !me?.registered
        ? html`<p class="muted">${t('tour.register_first')}</p>`
        : mine
          ? html`<p class="signed-up" role="status">${t(mine.confirmed ? 'tour.signed_up' : 'tour.waiting_partner')}</p>
              <button class="btn ghost" data-withdraw>${t('tour.withdraw')}</button>`
          : html`<form class="sign-up" data-sign-up>
              ${pairs ? html`<label for="partner">${t('tour.partner')}</label> <input id="partner" name="partner" required maxlength="40" autocomplete="off">` : ''}
              <button class="btn primary" type="submit">${t('tour.sign_up')}</button></form>`;
  const rounds = [...new Set(data.games.map((g) => g.round))].sort((a, b) => a - b);
  const roundHtml = rounds.map(
    (r) => html`<section class="panel round" aria-labelledby="round-${r}"><h2 id="round-${r}">${t('tour.round_n', { n: r })}</h2><ul>${data.games
      .filter((g) => g.round === r)
      .map((g) => {
        const who = g.sides.map((e) => (entries[e] ? entryName(entries[e]) : '?'));
        const score = g.points ? ` — ${g.sides.map((e) => points(g.points[e] ?? 0)).join(' : ')}` : '';
        const how = g.how && g.how !== 'played' ? html` <span class="muted">(${t(`tour.how_${g.how}`)})</span>` : '';
        const watch = g.table ? html` <a href="/#/table/${encodeURIComponent(g.table)}">${t(g.points ? 'lobby.replay' : 'lobby.watch')}</a>` : '';
        return html`<li>${who.join(' — ')}${score}${how}${watch}</li>`;
      })}</ul></section>`,
  );
  const standings = data.standings.length
    ? html`<div class="table-scroll" role="region" aria-label="${t('tour.standings')}" tabindex="0"><table class="standings"><thead><tr>
        <th class="num">${t('club.rank')}</th><th>${t('club.player')}</th><th class="num">${t('tour.points')}</th>
        <th class="num"><abbr title="${t('tour.buchholz_hint')}">${t('tour.buchholz')}</abbr></th><th class="num">${t('club.wins')}</th></tr></thead>
        <tbody>${data.standings.map(
          (s) => html`<tr><td class="num">${num(s.rank)}</td><td>${s.players.join(' & ')}</td><td class="num">${points(s.points)}</td>
            <td class="num">${points(s.buchholz)}</td><td class="num">${num(s.wins)}</td></tr>`,
        )}</tbody></table></div>`
    : html`<p class="muted">${t('tour.no_entries')}</p>`;
  setMarkup(
    root,
    html`<h1 class="page-title">${data.name}</h1>
    <p class="page-note">${gameTitle(data.game)} · ${t(`tour.format_${data.format}`)}${
      data.format === 'swiss' ? html` · ${t('tour.rounds_n', { n: data.rounds })}` : ''
    } · ${data.stake ? t('tour.stake', { n: num(data.stake) }) : t('tour.no_stake')} · ${date(data.starts_at)} · <strong>${t(`tour.${data.status}`)}</strong></p>
    ${data.note ? html`<p class="muted">${data.note}</p>` : ''}
    <section class="panel">${signUp}</section>
    <section class="panel"><h2 id="standings-title">${t('tour.standings')}</h2>${standings}</section>
    ${roundHtml.reverse()}`,
  );
  header(me, 'tournaments');
  root.querySelector('[data-sign-up]')?.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const partner = root.querySelector('#partner')?.value || null;
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}/entries`, { method: 'POST', body: { partner } });
    } catch (e) {
      alertLine(e.message);
      return;
    }
    await render();
  });
  root.querySelector('[data-withdraw]')?.addEventListener('click', async () => {
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}/entries`, { method: 'DELETE' });
    } catch (e) {
      alertLine(e.message);
      return;
    }
    await render();
  });
}

function alertLine(text) {
  const p = document.createElement('p');
  p.className = 'error';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  root.querySelector('.panel')?.append(p);
}

let timer = null;

async function render() {
  const me = await whoami();
  const id = decodeURIComponent(location.pathname.split('/')[2] || '');
  if (id) await one(me, id);
  else await list(me);
  // a running tournament moves on by itself: looked at again every few seconds
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (!root.contains(document.activeElement) || document.activeElement === root) render();
  }, 5000);
}

page(render);
