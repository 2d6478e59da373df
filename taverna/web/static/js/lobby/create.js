// The lobby's new-table dialog: the game, its seats and settings, who sits where (me,
// an open seat, a bot of a level), and the table's options (turn time, the wait for
// rights, practice, public, chat, hints, official with its stake). The table is made,
// the host seated, and the game started when no seat is left open.

import { api, session } from '../api.js';
import { t } from '../i18n.js';
import { html, setMarkup } from '../html.js';
import { gameFacts, gameNames, sides } from '../games.js';
import { checkField, checkNumbers, numberField, numberSpecs as gameNumbers, readSettings, settingFields } from '../settings.js';
import { defaultLevel, gameTitle, levelName, rulesLink, sideName } from '../ui.js';

/** How often a practice table's bots forget a score (a claim, a Muggins! call): about one
 * in three, so that a Muggins! comes now and then and is worth watching for. */
const PRACTICE_FORGET = 1 / 3;

/** The table's own number options (not the game's settings). */
const TABLE_NUMBERS = ['turn_seconds', 'muggins_wait', 'stake'];

/** Open the dialog for a new table of `game`, with `info` (GET /api/games). */
export function createDialog(info, game) {
  document.getElementById('create-dialog')?.remove();
  const el = document.createElement('dialog');
  el.id = 'create-dialog';
  el.className = 'create-dialog';
  el.setAttribute('aria-labelledby', 'create-title');
  document.body.appendChild(el);
  // official tables are for members: a guest sees why, and where to register
  const d = { el, info, form: newForm(info, game), member: !!session.player?.registered };
  render(d);
  el.addEventListener('close', () => el.remove());
  el.showModal();
  el.querySelector('input[name=game]:checked').focus();
}

// ------------------------------------------------------------------ the form's state

function newForm(info, game) {
  const defaults = info.table_defaults;
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
  reset(form, game);
  return form;
}

const isBot = (w) => w !== 'me' && w !== 'open';

/** A new seat's default: a bot at a casual table, an open seat at an official one. */
const fresh = (form) => (form.official ? 'open' : defaultLevel());

/** A game with rights that are not turns (claims, calls): the table waits for people
 * to use them before bots move, and practice bots may forget theirs. */
const rights = (form) => gameFacts(form.game).optional_actions.length > 0;

/** Another game: its default seats and settings, me at the first seat. */
function reset(form, g) {
  const gi = gameFacts(g);
  form.game = g;
  form.seats = gi.default_seats;
  form.settings = { ...gi.defaults[form.seats] };
  form.who = Array.from({ length: form.seats }, (_, i) => (i === 0 ? 'me' : fresh(form)));
  form.casualWho = null;
}

/** Another number of seats: the settings the host changed are kept, the new count's
 * defaults taken for the rest; new seats get the default, and I keep a seat. */
function changeSeats(form, n) {
  const previous = form.settings;
  const before = gameFacts(form.game).defaults[form.seats];
  form.seats = n;
  const next = { ...gameFacts(form.game).defaults[n] };
  for (const k of Object.keys(next)) if (previous[k] !== before[k]) next[k] = previous[k];
  form.settings = next;
  const hadMe = form.who.includes('me');
  form.who = Array.from({ length: n }, (_, i) => form.who[i] || fresh(form));
  if (form.casualWho) form.casualWho = Array.from({ length: n }, (_, i) => form.casualWho[i] || defaultLevel());
  if (hadMe && !form.who.includes('me')) form.who[0] = 'me'; // your seat went: sit at the first
}

/** Official seats registered people only: its bots give way to open seats (and come
 * back, where those seats are still open, when Official is unticked). */
function setOfficial(form, on) {
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

/** One "me": taking another seat moves you, and your old seat takes what this one had. */
function chooseWho(form, i, value) {
  const mine = form.who.indexOf('me');
  if (value === 'me' && mine >= 0 && mine !== i) form.who[mine] = form.who[i] === 'me' ? 'open' : form.who[i];
  form.who[i] = value;
}

// ------------------------------------------------------------------ the numbers

/** What each number field may be: the game's settings and the table's limits, as the
 * server enforces them (GET /api/games). */
function numberSpecs(d) {
  const out = { ...gameNumbers(d.form.game) };
  for (const name of TABLE_NUMBERS) out[name] = d.info.table_limits?.[name] ?? {};
  return out;
}

/** A number option of the table (not of the game), with its words. */
function optionNumber(d, name) {
  return numberField(name, t(`option.${name}`), d.form[name], numberSpecs(d)[name], t(`option.${name}.help`));
}

/** Check the number fields that count now (the stake only at an official table). */
function checkFormNumbers(d, f, opts = {}) {
  const official = f.querySelector('[name=official]')?.checked;
  return checkNumbers(f, numberSpecs(d), { ...opts, skip: (name) => name === 'stake' && !official });
}

// ------------------------------------------------------------------ drawing

function render(d) {
  setMarkup(d.el, formMarkup(d));
  bind(d, d.el.querySelector('form'));
}

function formMarkup(d) {
  const { form } = d;
  const gi = gameFacts(form.game);
  const seatChoices = [];
  for (let n = gi.min_seats; n <= gi.max_seats; n++) seatChoices.push(n);
  return html`<form class="create-form" novalidate>
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
      <fieldset><legend>${t('create.who')}</legend><div class="form-grid">${seatRows(d)}</div>
        ${form.official ? html`<p class="create-note" id="official-seats">${t('create.official_seats')}</p>` : ''}</fieldset>
      <details class="more"${form.more ? html` open` : ''}><summary>${t('create.more')}</summary>
        <div class="form-grid">
          ${moreOptions(d)}
        </div>
      </details>
      <div class="create-foot">
        <p class="form-error" role="alert"></p>
        <div class="dialog-buttons">
          <button type="button" class="btn ghost" data-cancel>${t('cancel')}</button>
          <button type="submit" class="btn primary" data-key="create-submit">${t('create.submit')}</button>
        </div>
      </div>
    </form>`;
}

/** Who sits at each seat: me, an open seat, or a bot of a level (none at an official
 * table). */
function seatRows(d) {
  const { form } = d;
  return form.who.map((w, i) => {
    const opts = [
      ['me', t('create.me')],
      ['open', t('create.open_seat')],
      ...(form.official ? [] : d.info.bots.map((b) => [b, t('create.bot', { level: levelName(b, form.game) })])),
    ];
    const n = sides(form.game);
    return html`<label class="field seat-field"><span>${t('seat.n', { n: i + 1 })}${
      n ? ` · ${sideName(n, i % n)}` : ''
    }</span>
          <select data-who="${i}">${opts
            .map(([v, l]) => html`<option value="${v}"${w === v ? html` selected` : ''}>${l}</option>`)}</select></label>`;
  });
}

/** "More options": the table's own. */
function moreOptions(d) {
  const { form, member } = d;
  return html`${optionNumber(d, 'turn_seconds')}
          ${rights(form) ? optionNumber(d, 'muggins_wait') : ''}
          ${
            rights(form) && !form.official // practice is about the bots (bot_forget)
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
          ${form.official ? optionNumber(d, 'stake') : ''}`;
}

// ------------------------------------------------------------------ the controls

function bind(d, f) {
  bindChoices(d, f);
  keepTyped(d, f);
  const more = f.querySelector('details.more');
  more.addEventListener('toggle', () => (d.form.more = more.open));
  f.querySelector('[data-cancel]').onclick = () => d.el.close();
  f.onsubmit = (e) => {
    e.preventDefault();
    submit(d, f);
  };
}

/** The choices that change the form itself (the game, the seats, who sits where,
 * official): drawn again, the focus kept on the control that changed it. */
function bindChoices(d, f) {
  const { form, el } = d;
  const redraw = (selector) => {
    render(d);
    el.querySelector(selector).focus();
  };
  f.querySelectorAll('input[name=game]').forEach(
    (r) =>
      (r.onchange = () => {
        reset(form, r.value);
        redraw(`input[value="${r.value}"]`);
      }),
  );
  f.querySelector('select[name=seats]').onchange = (e) => {
    changeSeats(form, Number(e.target.value));
    redraw('select[name=seats]');
  };
  f.querySelectorAll('[data-who]').forEach(
    (s) =>
      (s.onchange = () => {
        const i = Number(s.dataset.who);
        chooseWho(form, i, s.value);
        redraw(`[data-who="${i}"]`);
      }),
  );
  const official = f.querySelector('[name=official]:not([disabled])');
  if (official) {
    official.onchange = () => {
      setOfficial(form, official.checked); // the seats and the stake change with it
      redraw('[name=official]');
    };
  }
}

/** Keep what was typed when the form is drawn again (numbers as typed: checked on
 * leaving), and check a number field once it is left. */
function keepTyped(d, f) {
  const { form } = d;
  const keepOf = (el) => (el.type === 'checkbox' ? el.checked : el.type === 'number' ? el.value : Number(el.value));
  for (const k of Object.keys(form.settings)) {
    const el = f.querySelector(`[name=${k}]`);
    if (!el) continue;
    const keep = () => (form.settings[k] = keepOf(el));
    el.addEventListener('input', keep);
    el.addEventListener('change', keep);
  }
  for (const k of TABLE_NUMBERS) {
    const el = f.querySelector(`[name=${k}]`);
    if (el) el.addEventListener('input', () => (form[k] = el.value));
  }
  for (const el of f.querySelectorAll('input[type=number]')) {
    // a mistake is shown once the field is left, and cleared as soon as it is mended
    el.addEventListener('change', () => checkFormNumbers(d, f, { only: el.name }));
    el.addEventListener('input', () => {
      if (el.getAttribute('aria-invalid')) checkFormNumbers(d, f, { only: el.name });
    });
  }
  for (const k of ['public', 'practice', 'chat', 'hints']) {
    const el = f.querySelector(`[name=${k}]`);
    if (el) el.addEventListener('change', () => (form[k] = el.checked));
  }
}

// ------------------------------------------------------------------ making the table

/** What POST /api/tables is asked for. */
function tableBody(d, f) {
  const { form } = d;
  const bots = {};
  form.who.forEach((w, i) => {
    if (isBot(w)) bots[i] = w;
  });
  const body = {
    game: form.game,
    seats: form.seats,
    settings: readSettings(f, form.settings),
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
  if (rights(form)) {
    body.muggins_wait = Number(f.querySelector('[name=muggins_wait]').value);
    if (f.querySelector('[name=practice]')?.checked) body.bot_forget = PRACTICE_FORGET;
  }
  if (!form.official && f.querySelector('[name=hints]')?.checked) body.hints = true;
  return body;
}

async function submit(d, f) {
  const { form } = d;
  const error = f.querySelector('.form-error');
  error.textContent = '';
  if (!checkFormNumbers(d, f, { focus: true })) return;
  if (form.who.filter((w) => w === 'me').length > 1) {
    error.textContent = t('create.one_me');
    return;
  }
  const body = tableBody(d, f);
  try {
    const table = (await api('POST', '/api/tables', body)).table;
    const mine = form.who.indexOf('me');
    if (mine >= 0) await api('POST', `/api/tables/${table.id}/seats/${mine}`);
    // PLATFORM.md: a game starts when every seat is taken
    if (form.who.every((w) => w !== 'open')) await api('POST', `/api/tables/${table.id}/start`);
    d.el.close();
    location.hash = `#/table/${table.id}`;
  } catch (e) {
    error.textContent = e.message;
  }
}
