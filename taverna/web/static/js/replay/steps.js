// A finished game at one step of its replay: what the game's board module is given to
// draw it (every hand revealed) and the log up to then, as the table told it.

import { t } from '../i18n.js';
import { html } from '../html.js';
import { board } from '../games.js';
import { plainName } from '../ui.js';

/** An omniscient event: every private part shown (nothing is secret after the game). */
function reveal(e) {
  if (!e.private) return e;
  const out = { ...e };
  delete out.private;
  for (const part of Object.values(e.private)) Object.assign(out, part);
  return out;
}

/** The game at step `k` of `data` (GET /api/games/{id}/replay): `c` for its board
 * module, the log lines so far (each with its step), and the board module `g`. */
export function ctxAt(replay, k) {
  const data = replay.S.data;
  const table = data.table;
  const g = board(table.game);
  const base = {
    table,
    me: null,
    seats: table.seats,
    name: (s) => plainName(table, s),
    label: (s) => plainName(table, s),
    legal: [],
    interactive: false,
    notes: {},
    ui: {},
    act: () => {},
    rerender: replay.render,
  };
  const log = [];
  for (let i = 0; i <= k; i++) log.push(...stepLines(data, g, base, i));
  const view = data.steps[k].view;
  const shown = handSignals(data, k);
  return { c: { ...base, view: shown ? { ...view, signals: shown } : view, hands: view.hands }, log, g };
}

/** The log lines of step `i` (what its board module learns from them kept in `base`). */
function stepLines(data, g, base, i) {
  const lines = [];
  const step = data.steps[i];
  const c = { ...base, view: i ? data.steps[i - 1].view : step.view };
  for (const raw of step.events) {
    const e = reveal(raw);
    g.learn?.(e, c);
    const line = g.narrate(e, c);
    if (line) lines.push({ ...line, step: i });
  }
  // the señas made at this step (Mus, docs/rules.md §3.8.4: after i actions), each told
  for (const x of signals(data).filter((x) => x.after === i)) {
    const line = g.narrate({ type: 'signal', ...x }, c);
    if (line) lines.push({ ...line, step: i });
  }
  return lines;
}

/** Every seña of the game (none is secret once it is over), with who caught it. */
function signals(data) {
  return data.signals || [];
}

/** The señas of step k's hand made by then, as the table shows a hand's señas; null
 * for a game without any. */
function handSignals(data, k) {
  if (!signals(data).length) return null;
  const hand = (i) => data.steps[i].view.hand_no;
  return signals(data).filter((x) => x.after <= k && hand(x.after) === hand(k));
}

/** An action in words (markup): the game's own (`describe`), else the shared words. */
export function describe(g, a) {
  return g.describe ? g.describe(a) : html`${t(`replay.action.${a.type}`)}${a.amount ? ` ${a.amount}` : ''}`;
}
