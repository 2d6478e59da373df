// The server's refusals in the language of the page (docs/protocol.md, Errors).
//
// The server says what went wrong in English (`detail` or `message`) and names the
// kind with a stable `code` (HTTP) or `reason` (a refused move), with its facts in
// `params`: seats as numbers, cards and tiles in notation. A kind we know is said
// in our own words (lang/*.json: error.* and refused.*); any other keeps the
// server's English, which stays the detail.

import { has, t } from './i18n.js';

/** Refusals that only mean the table moved on while a click was on its way. */
const RACES = new Set(['game_over', 'not_your_turn', 'not_dealt', 'window_closed']);

/** Keys whose value is a seat number; `card` and `tile` are shown as a thing. */
const SEAT_PARAMS = ['turn', 'owner', 'by', 'seat'];

function facts(params, fmt, detail) {
  const out = { ...params, detail };
  for (const k of SEAT_PARAMS) {
    if (typeof params[k] === 'number') out[k] = fmt.seat ? fmt.seat(params[k]) : params[k] + 1;
  }
  const thing = params.card ?? params.tile;
  if (thing !== undefined) out.thing = fmt.thing ? fmt.thing(thing) : thing;
  // a Mus seña (docs/rules.md §3.8.1), and the señas a hand holds: by their names
  const sign = fmt.sign || ((x) => x);
  if (typeof params.sign === 'string') out.sign = sign(params.sign);
  if (Array.isArray(params.holds)) out.holds = params.holds.map(sign).join(', ');
  return out;
}

/** The most precise key that exists: `base.a.b`, then `base.a`, then `base`. */
function pick(base, ...variants) {
  for (let n = variants.length; n > 0; n--) {
    const key = [base, ...variants.slice(0, n)].join('.');
    if (has(key)) return key;
  }
  return has(base) ? base : null;
}

/** Which window_closed sentence: for the one whose score it was, for a second click, or for others. */
function windowVariant(params, me) {
  if (me === null || me === undefined) return 'theirs';
  if (params.by === me && (params.how === 'claim' || params.how === 'muggins')) return 'again';
  return params.owner === me ? 'mine' : 'theirs';
}

/**
 * An HTTP error body (`{detail, code, params}`) as one sentence.
 * `fmt.seat(n)` names a seat (default: its number from 1).
 */
export function explainHttp({ code, params = {}, detail }, fmt = {}) {
  let key = null;
  // a refusal with its kind of problem (a weak password, a name or a text that may not
  // be used, a start time): its own sentence, if there is one
  if (code && typeof params.problem === 'string') key = pick(`error.${code}`, params.problem);
  else if (code === 'table_not_open') key = pick('error.table_not_open', params.status);
  else if (code) key = pick(`error.${code}`);
  return key ? t(key, facts(params, fmt, detail)) : detail;
}

/**
 * A refused move (a WebSocket `error`) as one sentence and how to show it: `race`
 * when the table only moved on first (shown kindly), else `error`.
 * `fmt`: `me` (my seat), `seat(n)` (a seat's name), `thing(x)` (a card or tile),
 * `sign(x)` (a seña's name).
 */
export function explainRefusal(msg, fmt = {}) {
  const params = msg.params || {};
  const reason = msg.reason;
  let key = null;
  if (msg.code === 'unavailable') key = pick(`refused.${reason}`); // not stored, or restarting
  else if (msg.code && msg.code !== 'illegal' && typeof params.problem === 'string') {
    key = pick(`error.${msg.code}`, params.problem); // a chat message's text (bad_text)
  } else if (msg.code && msg.code !== 'illegal') key = pick(`error.${msg.code}`);
  else if (reason === 'window_closed') key = pick('refused.window_closed', params.how, windowVariant(params, fmt.me));
  else if (reason) key = pick(`refused.${reason}`);
  const text = key ? t(key, facts(params, fmt, msg.message)) : t('table.refused', { message: msg.message });
  return { text, kind: RACES.has(reason) ? 'race' : 'error' };
}
