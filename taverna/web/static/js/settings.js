// A game's settings as form fields: the new-table form (js/lobby.js) and a moderator's
// new tournament (club/tournaments.js) draw them alike.
//
// What each setting may be comes from the game (GET /api/games: `settings`, as the
// server checks them); what it is called comes from the game's strings, by name:
//   game.<game>.setting.<name>          its label
//   game.<game>.setting.<name>.help     one line saying what it does
//   game.<game>.setting.<name>.<value>  a choice's name, where the value alone says too little
// and the table's own options (turn_seconds, stake…) from the club's: option.<name>
// and option.<name>.help. tests/test_setting_words.py holds every game to it.

import { html } from './html.js';
import { has, t } from './i18n.js';
import { gameFacts } from './games.js';

const key = (game, name) => `game.${game}.setting.${name}`;

/** A setting's label: its string, else (a game without one) its name. */
export function settingLabel(game, name) {
  return has(key(game, name)) ? t(key(game, name)) : name;
}

/** What a setting does, in one line ('' for a game that does not say). */
export function settingHelp(game, name) {
  return has(`${key(game, name)}.help`) ? t(`${key(game, name)}.help`) : '';
}

/** A choice of a setting as people say it: its name if the game gives one, else the value. */
function choiceLabel(game, name, value) {
  const k = `${key(game, name)}.${value}`;
  return has(k) ? t(k) : String(value);
}

/** The settings a form asks a number for, with what each may be. */
export function numberSpecs(game) {
  return Object.fromEntries(
    Object.entries(gameFacts(game)?.settings || {}).filter(([, s]) => s.type === 'int' || s.type === 'number'),
  );
}

/** A number field with its bounds, its help (`help`, may be '') and a place for its mistake. */
export function numberField(name, label, value, spec, help = '') {
  const bound = (k) => (spec[k] === undefined ? '' : html` ${k}="${spec[k]}"`);
  const described = help ? `help-${name} err-${name}` : `err-${name}`;
  return html`<label class="field"><span>${label}</span><input type="number" name="${name}"${bound('min')}${bound(
    'max',
  )} step="${spec.type === 'int' ? 1 : 'any'}" value="${value}" aria-describedby="${described}">
    ${help ? html`<small class="field-help" id="help-${name}">${help}</small>` : ''}
    <small class="field-error" id="err-${name}"></small></label>`;
}

/** A tick box whose words are its label and, smaller, what it does. */
export function checkField(name, label, on, help = '') {
  return html`<label class="check"><input type="checkbox" name="${name}"${on ? html` checked` : ''}><span>${label}${
    help ? html`<small>${help}</small>` : ''
  }</span></label>`;
}

/** The fields of `game`'s settings, filled with `values` (markup, one item a field). */
export function settingFields(game, values) {
  return Object.entries(gameFacts(game)?.settings || {}).map(([name, spec]) => {
    const label = settingLabel(game, name);
    const help = settingHelp(game, name);
    if (spec.type === 'int' || spec.type === 'number') return numberField(name, label, values[name], spec, help);
    if (spec.type === 'bool') return checkField(name, label, values[name], help);
    return html`<label class="field"><span>${label}</span><select name="${name}"${
      help ? html` aria-describedby="help-${name}"` : ''
    }>${spec.choices.map(
      (v) =>
        html`<option value="${v}"${String(values[name]) === String(v) ? html` selected` : ''}>${choiceLabel(game, name, v)}</option>`,
    )}</select>${help ? html`<small class="field-help" id="help-${name}">${help}</small>` : ''}</label>`;
  });
}

/** The settings as a form holds them now: each of `values`' names read from its field
 * (a tick box's state, a number), or kept as it is where the form has no such field. */
export function readSettings(form, values) {
  const out = {};
  for (const [k, v] of Object.entries(values)) {
    const el = form.querySelector(`[name="${k}"]`);
    if (!el) out[k] = v;
    else if (el.type === 'checkbox') out[k] = el.checked;
    else out[k] = Number(el.value);
  }
  return out;
}

/** Why a number field's text will not do (in the page's language), or null. */
export function numberProblem(el, spec) {
  const text = el.value.trim();
  if (el.validity?.badInput || text === '' || !Number.isFinite(Number(text))) return t('create.need_number');
  const n = Number(text);
  if (spec.type === 'int' && !Number.isInteger(n)) return t('create.whole_number');
  const { min, max } = spec;
  if (min !== undefined && max !== undefined && (n < min || n > max)) return t('create.between', { min, max });
  if (min !== undefined && n < min) return t('create.at_least', { min });
  if (max !== undefined && n > max) return t('create.at_most', { max });
  return null;
}

/** Check the number fields of `specs` ({name: spec}) in `form`, saying what is wrong
 * beside each (`#err-<name>`); `skip(name)` leaves one out, `only` checks just one,
 * `focus` moves to the first wrong one (opening the <details> it is in). True if all do. */
export function checkNumbers(form, specs, { only = null, focus = false, skip = () => false } = {}) {
  let first = null;
  for (const [name, spec] of Object.entries(specs)) {
    if (only && name !== only) continue;
    const el = form.querySelector(`input[name="${name}"]`);
    if (!el) continue;
    const why = skip(name) ? null : numberProblem(el, spec);
    if (why) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
    const said = form.querySelector(`#err-${name}`);
    if (said) said.textContent = why || '';
    if (why && !first) first = el;
  }
  if (first && focus) {
    const more = first.closest('details');
    if (more) more.open = true;
    first.focus();
  }
  return !first;
}
