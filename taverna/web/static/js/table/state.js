// A table page's state: the last view the server sent (the only truth the page acts on)
// and what the page keeps beside it, and what the game's board module is given to draw
// it with (`ctx`).
//
// The page itself is one object, passed to every module of js/table/: its element
// (`app`), its state (`S`), its socket, its chat, and `render()` to draw it again.

import { focusFirst, plainName, seatName } from '../ui.js';
import { board } from '../games.js';

/** The state of the page of table `id`, before the server has said anything. */
export function newState(id) {
  return {
    id,
    table: null,
    seat: null,
    view: null,
    deadline: null,
    paused: false,
    skew: 0, // server clock minus ours, in seconds
    log: [],
    notes: {}, // per game: what the events taught (round credits, last plays)
    ui: {}, // per game: selections, amounts
    summaryOpen: false,
    summaryKey: null,
    summaryNew: false, // opened by itself just now: the focus goes to it
    overShown: false,
    overFocused: false, // the game-over dialog has had the focus once
    loaded: false,
    autoStarting: false,
    missing: false, // no such table
    presence: [], // per human seat: connected, or away until grace_ends (the server's)
    hint: null, // the strong bot's suggestion ({seq, action, why}) for the update seq
    hintAsked: null, // the id of the hint message on its way
    mine: null, // whether it was this player's turn at the last drawing with a view
    againOf: null, // the "play again" table asked about (who made it)
    againBy: null, // the player who made it
  };
}

/** The board module of the table's game. */
export function game(page) {
  return board(page.S.table?.game);
}

/** The table's seconds a turn. */
export function turnSeconds(page) {
  return Number(page.S.table?.options?.turn_seconds ?? 30);
}

/** Seconds from now to the server's time `at`, by the server's clock (never below 0). */
export function secondsTo(page, at) {
  return Math.max(0, Math.ceil(at - page.S.skew - Date.now() / 1000));
}

/** "1:05": a count of seconds as a clock shows it. */
export function clockText(secs) {
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}

/** Send a move of this seat. */
export function act(page, action) {
  const { S, socket } = page;
  if (S.seat === null || !socket) return;
  socket.act({ ...action, seat: S.seat });
}

/** What a board module is given to draw the table and to act: the view, who is who,
 * the moves allowed, what the events taught it, and its own selections. */
export function ctx(page) {
  const { S, app } = page;
  const v = S.view;
  const g = S.table?.game;
  S.notes[g] ??= {};
  S.ui[g] ??= {};
  return {
    view: v,
    table: S.table,
    me: S.seat,
    seats: S.table?.seats ?? 0,
    name: (s) => plainName(S.table, s),
    label: (s) => seatName(S.table, s, S.seat),
    legal: v?.legal ?? [],
    interactive: S.seat !== null && !!v && !v.over,
    hands: null,
    notes: S.notes[g],
    ui: S.ui[g],
    act: (action) => act(page, action),
    signal: (sign) => S.seat !== null && page.socket?.signal(sign),
    rerender: page.render,
    focus: (selectors) => focusFirst(app, selectors),
  };
}
