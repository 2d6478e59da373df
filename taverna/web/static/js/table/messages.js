// What the table's socket says (docs/protocol.md), each message to the page's state:
// the welcome (with the updates missed), an update, the clock, presence, a seña, a chat
// line, a hint, the table's seating, an error, and the connection's status.

import { session } from '../api.js';
import { explainRefusal } from '../errors.js';
import { t } from '../i18n.js';
import { setNet } from '../chrome.js';
import { plainName, toast } from '../ui.js';
import * as motion from '../motion.js';
import { checkShared } from './address.js';
import { noteAgain } from './again.js';
import { heardHint } from './hints.js';
import { tell, tellReplaced } from './log.js';
import { overChime } from './notices.js';
import { maybeAutoStart } from './seating.js';
import { ctx, game, turnSeconds } from './state.js';
import { noteSummary } from './summary.js';

/** The socket's handlers for the page (js/socket.js TableSocket). */
export function handlers(page) {
  return {
    welcome: (msg, missed, fromStart) => welcome(page, msg, missed, fromStart),
    update: (msg) => update(page, msg),
    clock: (msg) => clock(page, msg),
    presence: (msg) => presence(page, msg),
    signal: (msg) => signal(page, msg),
    chat: (msg) => page.chat.add(msg.message),
    hint: (msg) => heardHint(page, msg),
    table: (msg) => table(page, msg),
    error: (msg) => error(page, msg),
    status: (s) => status(page, s),
  };
}

function welcome(page, msg, missed, fromStart) {
  const { S } = page;
  const first = !S.loaded;
  if (msg.seat !== S.seat && !first) S.ui = {};
  S.table = msg.table;
  S.seat = msg.seat;
  // a hint asked before a (re)connection is not coming: the button is free again
  S.hintAsked = null;
  if (fromStart || msg.snapshot) {
    // the whole game so far (or, for a snapshot, its last updates): the log and what
    // it taught start over
    S.log = [];
    S.notes = {};
  }
  for (const m of missed) tell(page, m.events, !fromStart || m.seq === msg.seq);
  if (msg.view) S.view = msg.view;
  S.deadline = msg.deadline ?? null;
  S.paused = !!msg.paused;
  if (msg.presence) S.presence = msg.presence;
  if (msg.chat) page.chat.welcome(msg.chat);
  S.loaded = true;
  noteAgain(page);
  noteSummary(page, first);
  page.render();
  maybeAutoStart(page);
  checkShared(page);
}

function update(page, msg) {
  const { S } = page;
  S.hint = null; // a suggestion is for the view it was asked on
  tell(page, msg.events, true);
  // who acted: an unseen piece that appears on the board comes from their place
  const mover = (msg.events || []).find((e) => Number.isInteger(e.seat))?.seat ?? null;
  const was = motion.before(page.app);
  S.view = msg.view;
  S.deadline = msg.deadline ?? null;
  if (S.deadline && S.table) S.skew = S.deadline - turnSeconds(page) - Date.now() / 1000;
  if (S.table && S.table.status === 'open') S.table.status = 'playing';
  noteSummary(page, false);
  page.render();
  motion.after(page.app, was, { mover });
  if (msg.view?.over) overChime();
}

function clock(page, msg) {
  page.S.deadline = msg.deadline ?? null;
  page.S.paused = !!msg.paused;
  page.render();
}

function presence(page, msg) {
  page.S.presence = msg.seats || [];
  page.render();
}

function signal(page, msg) {
  const { S } = page;
  // a Mus seña (docs/rules.md §3.8) is no update: it joins the view it belongs to, and the log
  if (!S.view) return;
  S.view = { ...S.view, signals: [...(S.view.signals || []), msg.signal] };
  if (msg.may_signal) S.view.may_signal = msg.may_signal;
  tell(page, [{ type: 'signal', ...msg.signal }], true);
  page.render();
  const said = msg.signal.seat !== S.seat && game(page)?.signalText?.(msg.signal, ctx(page));
  if (said) toast(said, 'info');
}

function table(page, msg) {
  const { S } = page;
  const before = S.table;
  S.table = msg.table;
  noteAgain(page);
  const wasMine = before && S.seat !== null;
  // a person's seat a bot has just taken (away too long, or left): said in the log
  for (const s of msg.table.seating) {
    if (s.replaced && s.player && before && !before.seating[s.seat]?.replaced && s.seat !== S.seat) {
      tellReplaced(page, s.seat, s.player);
    }
  }
  page.render();
  if (wasMine && msg.table.seating[S.seat]?.replaced && session.player) {
    toast(t('table.you_replaced'), 'info');
  }
  maybeAutoStart(page);
  checkShared(page);
}

function error(page, msg) {
  const { S } = page;
  if (S.hintAsked !== null && (msg.id === S.hintAsked || msg.code === 'offline')) {
    S.hintAsked = null;
    page.render();
  }
  if (msg.code === 'offline') {
    toast(t('net.offline_act'), 'error');
    return;
  }
  // in our words; a refusal that only means the table moved on first is no alarm
  const { text, kind } = explainRefusal(msg, {
    me: S.seat,
    seat: (s) => plainName(S.table, s),
    thing: (x) => game(page)?.thingLabel?.(x) ?? x,
    sign: (x) => game(page)?.signName?.(x) ?? x,
  });
  toast(text, kind === 'race' ? 'info' : 'error', 7000);
}

function status(page, s) {
  setNet(s);
  const felt = page.app.querySelector('.table-page');
  if (felt) felt.dataset.net = s;
}
