// Small helpers shared by the pages: toasts, names, game titles.

import { html } from './html.js';
import { has, language, num, t, tn } from './i18n.js';
import { board, clubInfo, gameFacts, sides } from './games.js';
import { officialMark } from './svg.js';

let toastTimer = null;

/** A short message at the bottom of the screen, or where it covers none of the controls
 * the page marks `data-keep-clear` (`placeToast`); `kind` 'error' is announced as an alert. */
export function toast(text, kind = 'info', ms = 4500) {
  const box = document.getElementById('toast');
  box.textContent = text;
  box.className = `toast show ${kind}`;
  box.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  placeToast();
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.className = 'toast';
  }, ms);
}

/** px kept between the toast and what it must not cover, and from the screen's bottom */
const TOAST_GAP = 8;
const TOAST_BOTTOM = 24;

/** Put the toast where it covers nothing marked `data-keep-clear` (a table's controls,
 * its hint, its head): at the bottom of the screen if that is clear, else as low as a
 * clear stretch of the screen with room for it allows (between the top bar and the
 * bottom); where none has room, in the tallest. Called when a toast shows, when the
 * screen scrolls or changes size, and when a page draws its controls anew. */
export function placeToast() {
  const box = document.getElementById('toast');
  if (!box?.classList.contains('show')) return;
  box.style.top = '';
  box.style.bottom = '';
  const height = box.offsetHeight;
  const width = box.offsetWidth;
  const screen = window.innerHeight;
  const left = (window.innerWidth - width) / 2;
  const from = (document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0) + TOAST_GAP;
  const busy = [...document.querySelectorAll('[data-keep-clear]')]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.height && r.right > left && r.left < left + width && r.bottom > from && r.top < screen)
    .map((r) => [r.top - TOAST_GAP, r.bottom + TOAST_GAP])
    .sort((a, b) => a[0] - b[0]);
  const stretches = [];
  let at = from;
  for (const [top, bottom] of busy) {
    if (top > at) stretches.push([at, top]);
    at = Math.max(at, bottom);
  }
  stretches.push([at, screen - TOAST_BOTTOM]);
  const last = stretches[stretches.length - 1];
  if (last[1] === screen - TOAST_BOTTOM && last[1] - last[0] >= height) return; // the bottom is clear
  const roomy = stretches.filter(([top, bottom]) => bottom - top >= height);
  const [, bottom] = roomy.length
    ? roomy[roomy.length - 1]
    : stretches.reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a));
  box.style.top = `${Math.max(from, bottom - height)}px`;
  box.style.bottom = 'auto';
}

for (const event of ['scroll', 'resize']) window.addEventListener(event, placeToast, { passive: true });

/** A game's name in the page's language (its strings' `game.<name>`). */
export function gameTitle(game) {
  return has(`game.${game}`) ? t(`game.${game}`) : game;
}

/** A table's address, to share. */
export function tableLink(id) {
  return `${location.origin}${location.pathname}#/table/${id}`;
}

/** A link to a game's "How to play", opened beside the page (a form being filled, a
 * game being played: neither is left for it). */
export function rulesLink(game, { cls = '', text = null } = {}) {
  const label = t('nav.rules_of', { game: gameTitle(game) });
  return html`<a class="${cls}" href="/rules/${game}" target="_blank" rel="noopener" aria-label="${t('nav.new_tab', {
    label,
  })}" title="${label}">${text ?? label}</a>`;
}

/** Which side a seat plays for, in a game of sides (pairs: A or B), as a badge (markup);
 * nothing in a game where every seat plays for itself. */
export function sideBadge(game, seat) {
  const n = sides(game);
  if (!n) return '';
  const side = seat % n;
  return html`<span class="pair pair-${side}">${sideName(n, side)}</span>`;
}

/** "Pair A", "Pair B" (or "Side 3" where there are more than two sides). */
export function sideName(count, side) {
  return count === 2 ? t(side ? 'pair.b' : 'pair.a') : t('side.n', { n: side + 1 });
}

/** The scores of a game whose board draws none of its own (`scores` is optional in a
 * board module): each seat's name and points, the leader first. */
export function scoreList(c) {
  const scores = c.view?.scores ?? [];
  const order = scores.map((_, s) => s).sort((a, b) => scores[b] - scores[a]);
  return html`<ol class="final">${order.map((s) => html`<li><span>${c.name(s)}</span><b>${num(scores[s])}</b></li>`)}</ol>`;
}

/** Whether the screen is used by touch first (a phone, a tablet: no hover, a coarse
 * pointer): its words say "tap", not "click" (and css hides the keyboard's badges). */
export function touchFirst() {
  return !!window.matchMedia?.('(hover: none) and (pointer: coarse)').matches;
}

/** `key`'s words for this screen: its `<key>_touch` form on a touch screen, if it has one. */
export function forScreen(key) {
  return touchFirst() && has(`${key}_touch`) ? `${key}_touch` : key;
}

/** An amount as players count it, in the unit the server names (a review's cost, a
 * hint's estimate: taverna.bots.heuristics.Strategy.worth): "6 points", "0.4 points",
 * "20 % of a game". Its size only: the sentence around it says which way it goes. */
export function worthText(unit, amount) {
  const x = Math.abs(Number(amount) || 0);
  const round = (y) => (y < 10 ? Math.round(y * 10) / 10 : Math.round(y));
  if (unit === 'games') return t('unit.games', { n: num(round(100 * x)) });
  const n = round(x);
  return tn('unit.points', n, { n: num(n) });
}

/** A moment the server gave (ISO 8601; one without an offset is UTC, as the server keeps
 * time), as the page's language writes a date and time: {text, iso}, or null. */
export function when(iso) {
  if (!iso) return null;
  const d = new Date(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(d.getTime())) return null;
  const text = new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
  return { text, iso: d.toISOString() };
}

/** A person's name where room is short (nameplates, score rows): cut with an ellipsis
 * when too long for its place, the whole name in a tooltip (css .nm). */
export function nameText(name) {
  return html`<span class="nm" title="${name}">${name}</span>`;
}

/** Who made a move, for a game's log (markup): the seat's name, or "a bot" when the
 * seat's time ran out and a stand-in moved for it (`c.standIn`, set by the table's log). */
export function actor(c, seat) {
  return c.standIn ? html`<b class="bot">${t('log.a_bot')}</b>` : html`<b>${c.name(seat)}</b>`;
}

/** A tile or card drawn small (`drawn`, markup), named in words for screen readers and as a tooltip. */
export function thing(drawn, label) {
  return html`<span class="thing" role="img" aria-label="${label}" title="${label}">${drawn}</span>`;
}

/** Bots are called by a name of their seat, so that four of them can be told apart. */
export const BOT_NAMES = ['Alba', 'Bruno', 'Chiara', 'Diego'];

/** "Bruno (bot, Level 4)"; with `game`, the level's rating in it ("Level 4 · about 1500"). */
export function botName(seat, level, game) {
  return t('seat.bot', { name: BOT_NAMES[seat % BOT_NAMES.length], level: levelName(level, game) });
}

/** The bot levels, weakest first ("1" to "8"), as GET /api/games lists them. */
export function botLevels() {
  return clubInfo()?.bots ?? ['1', '2', '3', '4', '5', '6', '7', '8'];
}

/** The level a new bot seat gets unless one is chosen. */
export function defaultLevel() {
  return clubInfo()?.bot_default ?? '4';
}

/** A level by its number: a table stored before the levels had numbers names its bots
 * by the old names (greedy), which the server lists as aliases. */
export function levelOf(level) {
  return clubInfo()?.bot_aliases?.[level] ?? String(level);
}

/** A level's rating in a game as measured (`taverna ladder`, GET /api/games), rounded
 * to tens; undefined when the game's levels were not measured. */
export function levelRating(level, game) {
  const r = gameFacts(game)?.bot_ratings?.[levelOf(level)]?.rating;
  return r === undefined ? undefined : Math.round(r / 10) * 10;
}

/** "Level 5 · about 1650" in a game whose levels were measured, else "Level 5", in the
 * page's language. */
export function levelName(level, game) {
  const n = levelOf(level);
  const rating = game ? levelRating(n, game) : undefined;
  return rating === undefined ? t('bot.level', { n }) : t('bot.level_rated', { n, rating });
}

/** The options of a select of bot levels (markup), `selected` chosen, each with its
 * rating in `game`. */
export function levelOptions(selected = defaultLevel(), game = undefined) {
  return botLevels().map(
    (b) => html`<option value="${b}"${b === levelOf(selected) ? html` selected` : ''}>${levelName(b, game)}</option>`,
  );
}

/** The name to show for a seat of a table (public table JSON); `rated`: a bot's level
 * with its rating in the table's game (the seats' list; a plate on the board is short). */
export function seatName(table, seat, me, rated = false) {
  const s = table?.seating?.[seat];
  if (!s) return t('seat.n', { n: seat + 1 });
  if (s.player) {
    const name = s.replaced ? t('seat.replaced', { name: s.player }) : s.player;
    return me === seat ? t('seat.you', { name }) : name;
  }
  if (s.bot) return botName(seat, s.bot, rated ? table.game : undefined);
  return t('seat.empty');
}

/** Plain name (no "you"), for sentences. */
export function plainName(table, seat) {
  const s = table?.seating?.[seat];
  if (!s) return t('seat.n', { n: seat + 1 });
  if (s.player) return s.player;
  if (s.bot) return t('seat.bot_short', { name: BOT_NAMES[seat % BOT_NAMES.length] });
  return t('seat.n', { n: seat + 1 });
}

/** A table's settings in a few words, one chip each: text, and for an official table its
 * mark with the stake (markup: the chips are drawn with `html`). */
export function settingsSummary(game, settings, options = {}) {
  const out = [...(board(game)?.settingsSummary?.(settings) ?? [])];
  if (options.turn_seconds) out.push(t('set.seconds_n', { n: options.turn_seconds }));
  if (options.bot_forget !== undefined && options.bot_forget !== null) out.push(t('set.practice'));
  if (options.public === false) out.push(t('set.private'));
  if (options.hints && !options.official) out.push(t('set.hints_chip'));
  if (options.official) out.push(officialBadge(options.stake));
  return out;
}

/** A table's settings as chips in its head (markup): a list, each chip whole (on a
 * phone the list wraps onto more rows: none is cut or out of sight). */
export function settingsChips(game, settings, options) {
  const chips = settingsSummary(game, settings, options).map((c) => html`<li class="chip">${c}</li>`);
  return html`<ul class="chips" aria-label="${t('table.settings')}">${chips}</ul>`;
}

/** An official (ranked) game, wherever it is shown (lobby, table, histories): the sword
 * mark, named for screen readers, and its stake in words (markup). */
export function officialBadge(stake) {
  const stakeText = stake === null || stake === undefined ? '' : t('set.stake_n', { n: num(stake) });
  return html`<span class="official" title="${t('set.official_n', { n: num(stake ?? '') })}">${officialMark(
    t('official.mark'),
  )}${stakeText ? html`<span class="official-stake">${stakeText}</span>` : ''}</span>`;
}

/** Keep keyboard focus on "the same" control across a re-render (by data-key); when
 * that control is gone or disabled (a tile just played), on the first control that
 * `fallback` finds (selectors tried in order). */
export function keepFocus(container, render, fallback = []) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : null;
  render();
  if (!key) return;
  const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (again && !again.disabled) again.focus({ preventScroll: true });
  else focusFirst(container, fallback);
}

/** Focus the first enabled element that one of `selectors` finds in `container`, trying
 * them in order; the element focused, or null. */
export function focusFirst(container, selectors) {
  for (const sel of [selectors].flat()) {
    const el = [...container.querySelectorAll(sel)].find((x) => !x.disabled);
    if (el) {
      el.focus({ preventScroll: true });
      return el;
    }
  }
  return null;
}

/** Arrow keys (and Home, End) move the focus along a row of controls, as in a toolbar:
 * `e` a keydown inside `row`. True when the key was one of them. */
export function arrowAlong(row, e) {
  const items = [...row.querySelectorAll('button:not([disabled])')];
  const at = items.indexOf(e.target.closest('button'));
  if (at < 0) return false;
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  let next;
  if (step) next = items[(at + step + items.length) % items.length];
  else if (e.key === 'Home') next = items[0];
  else if (e.key === 'End') next = items[items.length - 1];
  else return false;
  next.focus();
  return true;
}

export function copyText(text) {
  if (navigator.clipboard?.writeText) {
    return navigator.clipboard.writeText(text).then(
      () => true,
      () => fallbackCopy(text),
    );
  }
  return Promise.resolve(fallbackCopy(text));
}

function fallbackCopy(text) {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}
