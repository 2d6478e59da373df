// A table: seating before the start, then live play over the table WebSocket.
//
// The page keeps the last view the server sent (the only truth it acts on),
// tells every event in the log, and redraws from the view; each game module
// draws its own board and controls (its board module, js/games.js). Only moves listed in
// view.legal are offered; a refused move shows the server's message.

import { api, ensureSession, session } from './api.js';
import { explainRefusal } from './errors.js';
import { has, t, tn } from './i18n.js';
import { rulesLink, setNet, tableLink } from './lobby.js';
import { TableSocket } from './socket.js';
import { html, setMarkup } from './html.js';
import {
  arrowAlong,
  copyText,
  focusFirst,
  gameTitle,
  keepFocus,
  levelOptions,
  placeToast,
  plainName,
  scoreList,
  seatName,
  settingsChips,
  sideBadge,
  toast,
  worthText,
} from './ui.js';
import { board } from './games.js';
import { bell } from './svg.js';
import { createChat } from './chat.js';
import * as motion from './motion.js';
import * as notice from './notice.js';

const LOG_SIZE = 300;

/** Where the focus goes when the control that had it is gone (a tile just played, a
 * summary closed): what there is to play, else the hand, else the controls' own place. */
const FOCUS_NEXT = [
  '.felt .hand [data-key].playable',
  '.felt .actions [data-key]:not([aria-disabled="true"])',
  '.felt .hand [data-key]',
  '.felt .controls',
];

export function mount(app, tableId) {
  const S = {
    id: tableId,
    table: null,
    seat: null,
    view: null,
    deadline: null,
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
  };
  let timerHandle = null;
  let socket = null; // connected once the table is known to exist
  let gone = false; // unmounted
  const shared = { known: false, asked: '' }; // two players on one address (checkShared)
  // the table's chat: one panel for the page's life, put back after each redraw
  const chat = createChat({ tableId, get: () => S, socket: () => socket });

  const handlers = {
    welcome(msg, missed, fromStart) {
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
      for (const m of missed) tell(m.events, !fromStart || m.seq === msg.seq);
      if (msg.view) S.view = msg.view;
      S.deadline = msg.deadline ?? null;
      S.paused = !!msg.paused;
      if (msg.presence) S.presence = msg.presence;
      if (msg.chat) chat.welcome(msg.chat);
      S.loaded = true;
      noteAgain();
      noteSummary(first);
      render();
      maybeAutoStart();
      checkShared();
    },
    update(msg) {
      S.hint = null; // a suggestion is for the view it was asked on
      tell(msg.events, true);
      // who acted: an unseen piece that appears on the board comes from their place
      const mover = (msg.events || []).find((e) => Number.isInteger(e.seat))?.seat ?? null;
      const was = motion.before(app);
      S.view = msg.view;
      S.deadline = msg.deadline ?? null;
      if (S.deadline && S.table) S.skew = S.deadline - turnSeconds() - Date.now() / 1000;
      if (S.table && S.table.status === 'open') S.table.status = 'playing';
      noteSummary(false);
      render();
      motion.after(app, was, { mover });
      if (msg.view?.over) notice.chime('over');
    },
    clock(msg) {
      S.deadline = msg.deadline ?? null;
      S.paused = !!msg.paused;
      render();
    },
    presence(msg) {
      S.presence = msg.seats || [];
      render();
    },
    signal(msg) {
      // a Mus seña (docs/rules.md §3.8) is no update: it joins the view it belongs to, and the log
      if (!S.view) return;
      S.view = { ...S.view, signals: [...(S.view.signals || []), msg.signal] };
      if (msg.may_signal) S.view.may_signal = msg.may_signal;
      tell([{ type: 'signal', ...msg.signal }], true);
      render();
      const said = msg.signal.seat !== S.seat && game()?.signalText?.(msg.signal, ctx());
      if (said) toast(said, 'info');
    },
    chat(msg) {
      chat.add(msg.message);
    },
    hint(msg) {
      if (msg.id !== S.hintAsked) return;
      S.hintAsked = null;
      S.hint = msg.seq === socket?.seq ? msg : null; // the table moved on meanwhile: dropped
      if (S.hint?.action) game()?.takeHint?.(S.hint.action, ctx()); // a bet's amount, say
      render();
    },
    table(msg) {
      const before = S.table;
      S.table = msg.table;
      noteAgain();
      const wasMine = before && S.seat !== null;
      // a person's seat a bot has just taken (away too long, or left): said in the log
      for (const s of msg.table.seating) {
        if (s.replaced && s.player && before && !before.seating[s.seat]?.replaced && s.seat !== S.seat) {
          S.log.push({ e: { type: 'replaced', seat: s.seat, name: s.player }, fresh: true, own: true });
        }
      }
      render();
      if (wasMine && msg.table.seating[S.seat]?.replaced && session.player) {
        toast(t('table.you_replaced'), 'info');
      }
      maybeAutoStart();
      checkShared();
    },
    error(msg) {
      if (S.hintAsked !== null && (msg.id === S.hintAsked || msg.code === 'offline')) {
        S.hintAsked = null;
        render();
      }
      if (msg.code === 'offline') {
        toast(t('net.offline_act'), 'error');
        return;
      }
      // in our words; a refusal that only means the table moved on first is no alarm
      const { text, kind } = explainRefusal(msg, {
        me: S.seat,
        seat: (s) => plainName(S.table, s),
        thing: (x) => game()?.thingLabel?.(x) ?? x,
        sign: (x) => game()?.signName?.(x) ?? x,
      });
      toast(text, kind === 'race' ? 'info' : 'error', 7000);
    },
    status(s) {
      setNet(s);
      const felt = app.querySelector('.table-page');
      if (felt) felt.dataset.net = s;
    },
  };

  // Ask first whether the table exists: one that does not is said so, and no socket is
  // opened (the server would refuse it, and the browser log that as an error).
  api('GET', `/api/tables/${encodeURIComponent(tableId)}`).then(
    () => connect(),
    (e) => {
      if (e.status !== 404) {
        connect(); // the server is slow or away: the socket keeps trying
        return;
      }
      S.missing = true;
      if (!gone) draw();
    },
  );

  function connect() {
    if (!gone && !socket) socket = new TableSocket(tableId, handlers);
  }

  function turnSeconds() {
    return Number(S.table?.options?.turn_seconds ?? 30);
  }

  const game = () => board(S.table?.game);

  function ctx() {
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
      act,
      signal: (sign) => S.seat !== null && socket?.signal(sign),
      rerender: render,
      focus: (selectors) => focusFirst(app, selectors),
    };
  }

  /** Put events into the log and let the game module learn from them. */
  function tell(events, fresh) {
    const g = game();
    if (!g || !events) return;
    const c = ctx();
    let timeout = null; // the server's {type: 'timeout', seat, bot}: told with the move it made
    for (const e of events) {
      if (e.type === 'timeout') {
        timeout = e;
        if (fresh && e.seat === S.seat) toast(t('table.you_timed_out'), 'info');
        continue;
      }
      g.learn?.(e, c);
      // the stand-in's move is the first event of the seat that ran out of time
      const standIn = timeout && e.seat === timeout.seat ? timeout : null;
      if (standIn) timeout = null;
      // kept as events and told at drawing time, in the language of the moment
      if (g.narrate(e, c)) S.log.push({ e, fresh, standIn });
    }
    if (timeout) S.log.push({ e: timeout, fresh, own: true }); // a timeout with no move of its own
    if (S.log.length > LOG_SIZE) S.log.splice(0, S.log.length - LOG_SIZE);
  }

  /** A line of the log that the table tells itself (not a game's event). */
  function ownLine(e) {
    if (e.type === 'timeout') {
      return { kind: 'timeout', cls: 'stand-in', html: html`${t('log.timeout_alone', { name: plainName(S.table, e.seat) })}` };
    }
    if (e.type === 'replaced') {
      return { kind: 'replaced', cls: 'stand-in', html: html`${t('log.replaced', { name: e.name })}` };
    }
    return null;
  }

  /** The log line of an entry, in the language of the moment; a move the timer made is
   * said as such: time ran out, and a bot played it for the seat. */
  function logLine(entry, c) {
    if (entry.own) return ownLine(entry.e);
    if (!entry.standIn) return game().narrate(entry.e, c);
    const l = game().narrate(entry.e, { ...c, standIn: entry.standIn });
    const name = c.name(entry.standIn.seat);
    return {
      ...l,
      cls: `${l.cls || ''} stand-in`,
      html: html`<span class="timeout-note">${t('log.timeout', { name })}</span> ${l.html}`,
    };
  }

  function noteSummary(quiet) {
    const g = game();
    if (!g?.summaryKey || !S.view) return;
    const key = g.summaryKey(ctx());
    if (key && key !== S.summaryKey) {
      if (S.summaryKey !== null || !quiet) {
        S.summaryOpen = true;
        S.summaryNew = true;
      }
      S.summaryKey = key;
    }
  }

  function act(action) {
    if (S.seat === null || !socket) return;
    socket.act({ ...action, seat: S.seat });
  }

  async function maybeAutoStart() {
    // PLATFORM.md: a game starts when every seat is taken; the host's page asks for it
    const x = S.table;
    if (!x || x.status !== 'open' || x.free_seats.length || S.autoStarting) return;
    if (!session.player || x.owner !== session.player.id) return;
    S.autoStarting = true;
    try {
      await api('POST', `/api/tables/${x.id}/start`);
    } catch {
      /* somebody else started it */
    }
    S.autoStarting = false;
  }

  // ------------------------------------------------------------ rendering

  function render() {
    keepFocus(app, draw, S.view?.over ? ['.felt .controls'] : FOCUS_NEXT);
    placeToast(); // a notice showing moves off the controls as drawn now
    moveFocus();
    tick();
    const v = S.view;
    const mine = !!v && !v.over && S.seat !== null && (v.turn === S.seat || (v.legal || []).length > 0);
    document.title = `${mine ? '● ' : ''}${gameTitle(S.table?.game)} · Taverna`;
    // the turn notice: when it becomes this player's turn (not on opening the page)
    if (mine && S.mine === false) notice.yourTurn(gameTitle(S.table?.game));
    if (v) S.mine = mine;
  }

  /** The table's sound and notification switches (remembered in this browser). */
  function noticeTools() {
    const on = notice.soundOn();
    const sound = html`<button class="btn ghost small icon" data-sound data-key="sound" aria-pressed="${on}"
      title="${t(on ? 'notice.sound_on' : 'notice.sound_off')}" aria-label="${t('notice.sound')}">${bell(on)}</button>`;
    if (!notice.notifySupported() || S.seat === null) return sound;
    const asked = notice.notifyOn();
    return html`${sound}<button class="btn ghost small" data-notify data-key="notify" aria-pressed="${asked}"
      title="${t('notice.notify')}">${t('notice.notify_short')}</button>`;
  }

  /** Where the focus goes by itself: into the game-over dialog when it comes; to a hand
   * summary that has just opened, when the player was at the board; from the controls'
   * own place (kept while the others played) to what there is to do now. */
  function moveFocus() {
    const active = document.activeElement;
    const atBoard = !active || active === document.body || active === app || !!active.closest('.felt');
    const over = app.querySelector('.game-over [data-close-over]');
    if (over && !S.overFocused) {
      S.overFocused = true;
      S.summaryNew = false;
      over.focus();
      return;
    }
    if (S.summaryNew && S.summaryOpen) {
      S.summaryNew = false;
      const close = app.querySelector('[data-close-summary]');
      if (close && atBoard) {
        close.focus({ preventScroll: true });
        return;
      }
    }
    if (active?.matches('.felt .controls')) focusFirst(app, FOCUS_NEXT.slice(0, 2));
  }

  /** Close what is open over the table: the game-over dialog, else the hand summary. */
  function closeTop() {
    if (app.querySelector('.game-over')) S.overShown = true;
    else if (S.summaryOpen && app.querySelector('[data-close-summary]')) S.summaryOpen = false;
    else return false;
    render();
    return true;
  }

  function draw() {
    if (S.missing) {
      setMarkup(
        app,
        html`<section class="not-found"><h1>${t('table.not_found')}</h1>
        <p><a href="/#/">${t('nav.lobby')}</a></p></section>`,
      );
      return;
    }
    if (!S.table) {
      setMarkup(app, html`<p class="loading">${t('table.loading')}</p>`);
      return;
    }
    const x = S.table;
    const playing = !!S.view;
    const seated = S.seat !== null;
    // the game-over dialog is modal: the page behind it is out of reach until it is closed
    const over = !!S.view?.over && !S.overShown;
    const behind = over ? html` inert` : '';
    setMarkup(
      app,
      html`<div class="table-page game-${x.game}" data-status="${x.status}" data-seq="${socket?.seq ?? ''}">
      <header class="table-head" data-keep-clear${behind}>
        <div class="table-title">
          <a class="back-link" href="#/" aria-label="${t('nav.lobby')}">←</a>
          <h1>${gameTitle(x.game)}</h1>
          ${settingsChips(x.game, x.settings, x.options)}
        </div>
        <div class="table-tools">
          ${seated ? '' : html`<span class="badge watching">${t('table.watching')}</span>`}
          ${rulesLink(x.game, { cls: 'btn ghost small icon', text: html`<span aria-hidden="true">?</span>` })}
          ${noticeTools()}
          <button class="btn ghost small" data-invite data-key="invite">${wideNarrow('table.invite')}</button>
          ${
            seated && x.status === 'playing'
              ? html`<button class="btn ghost small" data-leave data-key="leave">${wideNarrow('table.leave')}</button>`
              : ''
          }
        </div>
        ${playing ? jumps() : ''}
        ${voided(x) ? html`<p class="shared-address" role="note">${t('table.shared_address')}</p>` : ''}
      </header>
      ${playing ? playArea(behind) : seatingArea()}
      ${over ? gameOver() : ''}
    </div>`,
    );
    chat.place(app);
    bind();
    markHint();
  }

  /** PLATFORM.md: two players of an official table on one address move no points and no
   * chips; said before the game, while it is played and after it. */
  function voided(x) {
    return !!x.official && (shared.known || !!x.shared_address || x.result?.settlement?.why === 'shared_address');
  }

  /** A table sent over the socket may not know yet that a new player shares an address
   * (the server notes the address after the seat): asked once per seating of two or more
   * people. Once shared, always shared (addresses are only ever added). */
  function checkShared() {
    const x = S.table;
    const people = (x?.seating ?? []).filter((s) => s.player_id).map((s) => s.player_id);
    const key = people.join(' ');
    if (!x?.official || x.shared_address || shared.known || people.length < 2 || key === shared.asked) return;
    shared.asked = key;
    api('GET', `/api/tables/${encodeURIComponent(x.id)}`).then(
      ({ table }) => {
        if (!table.shared_address || gone) return;
        shared.known = true;
        render();
      },
      () => {}, // asked again at the next change of seats
    );
  }

  /** Where the side is below the board (a phone), a way to the scores and the log. */
  function jumps() {
    const to = (id, key) =>
      html`<button type="button" class="btn ghost small" data-jump="${id}" data-key="jump-${id}">${t(key)}<span aria-hidden="true"> ↓</span></button>`;
    return html`<nav class="jump" aria-label="${t('table.jump')}">${to('scores-title', 'table.jump_scores')}${to('log-title', 'table.jump_log')}</nav>`;
  }

  /** Why an official game moved no chips nor points, when it did not (its settlement). */
  function settlementNote() {
    const x = S.table;
    const why = x.result?.settlement?.why || (voided(x) ? 'shared_address' : '');
    const key = { shared_address: 'over.shared_address', no_winner: 'over.no_winner' }[why];
    return key ? html`<p class="over-note" id="over-note">${t(key)}</p>` : '';
  }

  /** A label and its short form for a phone's narrow head (CSS shows one of them). */
  function wideNarrow(key) {
    return html`<span class="wide">${t(key)}</span><span class="narrow">${t(`${key}_short`)}</span>`;
  }

  function seatingArea() {
    const x = S.table;
    const me = session.player;
    const seated = S.seat !== null;
    const host = me && x.owner === me.id;
    const canBot = host || seated;
    const rows = x.seating
      .map((s) => {
        const team = sideBadge(x.game, s.seat);
        let who;
        const actions = [];
        const kept = keptFor(x, s.seat);
        if (s.empty && kept && kept !== me?.id) {
          // "play again": the seat waits for the player who had it in the last game
          who = html`<span class="muted kept">${t('again.kept', { name: x.options.reserved_names?.[s.seat] ?? '' })}</span>`;
        } else if (s.empty) {
          who = html`<span class="muted">${t('seat.empty')}</span>`;
          if (!seated) {
            actions.push(html`<button class="btn primary small" data-sit="${s.seat}" data-key="sit-${s.seat}">${t('table.sit_here')}</button>`);
          }
          // an official table seats registered people only: no bot to add
          if (!x.official && (canBot || !seated)) {
            actions.push(html`<span class="add-bot">
              <label class="sr-only" for="bot-level-${s.seat}">${t('table.bot_level')}</label>
              <select id="bot-level-${s.seat}" data-bot-level="${s.seat}">${levelOptions(undefined, x.game)}</select>
              <button class="btn ghost small" data-add-bot="${s.seat}" data-key="bot-${s.seat}">${t('table.add_bot')}</button></span>`);
          }
        } else {
          who = html`<strong title="${seatName(x, s.seat, S.seat, true)}">${seatName(x, s.seat, S.seat, true)}</strong>`;
          if (s.seat === S.seat) {
            actions.push(html`<button class="btn ghost small" data-stand="${s.seat}" data-key="stand">${t('table.stand_up')}</button>`);
          } else if (s.bot && host) {
            actions.push(html`<button class="btn ghost small" data-remove-bot="${s.seat}" data-key="rm-${s.seat}">${t('table.remove_bot')}</button>`);
          }
        }
        return html`<li class="seat-row${s.seat === S.seat ? ' mine' : ''}"><span class="seat-no">${t('seat.n', { n: s.seat + 1 })}</span>${team}<span class="seat-who">${who}</span><span class="seat-actions">${actions}</span></li>`;
      });
    const full = !x.free_seats.length;
    return html`<section class="panel seating" aria-labelledby="seating-title">
      <h2 id="seating-title">${t(x.status === 'open' ? 'table.waiting' : x.status === 'set_aside' ? 'table.set_aside' : 'table.finished')}</h2>
      ${x.status === 'set_aside' ? html`<p class="set-aside" role="alert">${t('table.set_aside_why', { problem: x.problem || '' })}</p>` : ''}
      <ul class="seat-rows">${rows}</ul>
      <div class="invite-box">
        <label for="invite-link">${t('table.invite_hint')}</label>
        <div class="invite-row"><input id="invite-link" readonly value="${tableLink(x.id)}">
          <button class="btn ghost" data-invite data-key="invite2">${t('table.copy')}</button></div>
      </div>
      ${
        x.status === 'open' && (host || seated)
          ? html`<div class="start-row"><button class="btn primary big" data-start data-key="start"${full ? '' : html` disabled`}>${t('table.start')}</button><span class="muted">${full ? t('table.ready') : t(x.official ? 'table.needs_seats_official' : 'table.needs_seats')}</span></div>`
          : ''
      }
      ${x.status === 'finished' ? html`${againOffer()}<div class="start-row"><a class="btn ghost" href="#/replay/${x.id}">${t('lobby.replay')}</a>${againButton('again')}</div>` : ''}
      ${playNowWait(x)}
    </section>`;
  }

  /** Who a seat of a "play again" table is kept for, while it is (the server decides;
   * this only spares a click that it would refuse). */
  function keptFor(x, seat) {
    const until = Number(x.options?.reserved_until ?? 0);
    if (until <= Date.now() / 1000 + S.skew) return null;
    return x.options?.reserved?.[seat] ?? null;
  }

  function playArea(behind) {
    const g = game();
    const c = ctx();
    const summary = g.summary ? g.summary(c) : '';
    // the controls' own place keeps the focus while the others play, when no control
    // of the hand or the actions is there to have it (tabindex -1: not a stop of Tab)
    return html`<div class="table-layout"${behind}>
      <section class="felt" aria-label="${t('table.board')}">
        <div class="status-bar" role="status" aria-live="polite">${statusLine(c)}</div>
        ${presenceBar()}
        ${g.board(c)}
        <div class="controls" tabindex="-1" data-key="controls" data-keep-clear>${g.controls(c)}</div>
        ${hintBar(c)}
      </section>
      <aside class="side">
        ${
          summary && S.summaryOpen
            ? html`<section class="panel hand-summary" aria-labelledby="summary-title">
                <h2 class="sr-only" id="summary-title">${t('summary.title')}</h2>
                <button class="close" data-close-summary data-key="close-summary" aria-label="${t('close')}">×</button>
                ${summary}</section>`
            : ''
        }
        <section class="panel scores" aria-labelledby="scores-title">
          <h2 id="scores-title">${t('table.scores')}</h2>
          ${g.scores ? g.scores(c) : scoreList(c)}
        </section>
        ${
          summary && !S.summaryOpen
            ? html`<section class="panel"><h2>${t('summary.title')}</h2>
                <button class="btn ghost small" data-open-summary data-key="open-summary">${t('summary.show')}</button></section>`
            : ''
        }
        <section class="panel log" aria-labelledby="log-title">
          <h2 id="log-title">${t('table.log')}</h2>
          <div class="log-scroll" role="log" aria-live="off" aria-labelledby="log-title" tabindex="0" data-key="log">
            <ol class="log-list">${S.log
              .slice(-60)
              .reverse()
              .map((entry) => {
                const l = logLine(entry, c);
                return html`<li class="${l.cls || ''}"${l.kind ? html` data-event="${l.kind}"` : ''}>${l.html}</li>`;
              })}</ol></div>
        </section>
      </aside>
    </div>`;
  }

  function statusLine(c) {
    const v = c.view;
    const g = game();
    if (v.over) return html`<span class="turn over">${t('table.game_over')}</span>`;
    const text = g.status ? g.status(c) : null;
    const turn = v.turn;
    let who = '';
    if (text) who = text;
    else if (turn === c.me) who = html`<strong class="your-turn">${t('turn.yours')}</strong>`;
    else if (turn !== null && turn !== undefined) who = t('turn.of', { name: c.name(turn) });
    if (S.paused) who = html`<span class="paused">${t('table.paused')}</span>`;
    return html`<span class="turn">${who}</span>
      <span class="timer" aria-hidden="${S.deadline ? 'false' : 'true'}">
        <span class="timer-bar"><span class="timer-fill"></span></span>
        <span class="timer-text"></span></span>`;
  }

  /** Whether this table gives hints (the table option; never official or tournament). */
  function hintsOn() {
    const x = S.table;
    return !!x?.options?.hints && !x.official && !x.options.tournament;
  }

  /** The suggestion for what the page shows now, if any. */
  function shownHint() {
    return S.hint && S.hint.seq === socket?.seq && S.hint.action ? S.hint : null;
  }

  /** The Hint button, when the table gives hints and this seat may act; and the
   * suggestion with why, once the server has answered. */
  function hintBar(c) {
    const v = c.view;
    if (!hintsOn() || !c.interactive || !(v.turn === S.seat || (v.legal || []).length > 0)) return '';
    const asking = S.hintAsked !== null;
    const shown = shownHint();
    return html`<div class="hint-bar" data-keep-clear>
      <button type="button" class="btn ghost small" data-hint data-key="hint"${asking ? html` aria-disabled="true"` : ''}>${
        asking ? t('hint.asking') : t('hint.button')
      }</button>
      <p class="hint-line" role="status" aria-live="polite">${shown ? html`${t('hint.suggests')} <strong>${describeAction(shown.action)}</strong> · ${whyText(shown.why)}` : ''}</p>
    </div>`;
  }

  function describeAction(a) {
    const g = game();
    return g?.describe ? g.describe(a) : a.type;
  }

  /** A hint's reason in the page's language: the game's words, else the shared ones. */
  function whyText(why) {
    const own = game()?.whyText?.(why);
    if (own) return own;
    if (why?.key === 'best_estimate') {
      // what the move is worth by the end of the hand, as players count (the server's unit)
      const size = Math.abs(why.amount) * (why.unit === 'games' ? 100 : 1); // as worthText shows it
      const way = size < 0.05 ? 'even' : why.amount > 0 ? 'up' : 'down';
      return t(`hint.why.best_estimate_${way}`, { amount: worthText(why.unit, why.amount) });
    }
    const key = `hint.why.${why?.key}`;
    return has(key) ? t(key, why) : '';
  }

  function askHint() {
    if (S.hintAsked !== null || !socket) return;
    S.hint = null;
    S.hintAsked = socket.hint();
    render();
  }

  /** The suggested move marked on the board: its tile or cards in the hand, else its
   * button (as the boards mark a selection); a board may say where (`hintMarks(a)`). */
  function markHint() {
    const a = shownHint()?.action;
    const felt = app.querySelector('.felt');
    if (!a || !felt) return;
    const things = a.tile ? [a.tile] : a.card ? [a.card] : a.cards || [];
    const where =
      game()?.hintMarks?.(a) ??
      (things.length
        ? things.map((x) => `.hand [data-tile="${CSS.escape(x)}"], .hand [data-card="${CSS.escape(x)}"]`)
        : [`.actions [data-act="${CSS.escape(a.type)}"]`]);
    for (const selector of where) felt.querySelectorAll(selector).forEach((el) => el.classList.add('hinted'));
  }

  /** Who is away, with the time left before a bot takes the seat, and whose seat a bot
   * plays now (the server's presence and the table's seating). */
  function presenceBar() {
    const x = S.table;
    if (!x || S.view?.over) return '';
    const items = [];
    for (const p of S.presence || []) {
      if (p.connected || p.seat === S.seat) continue;
      const ends = typeof p.grace_ends === 'number' ? p.grace_ends : null;
      items.push(html`<li class="away" data-seat="${p.seat}"><span class="away-dot" aria-hidden="true"></span>
        <span>${t('presence.away', { name: plainName(x, p.seat) })}</span>${
          ends === null
            ? ''
            : html` <span class="away-left" role="timer" data-ends="${ends}">${graceText(ends)}</span>`
        }</li>`);
    }
    for (const s of x.seating) {
      if (!s.replaced || !s.player || s.seat === S.seat) continue;
      items.push(html`<li class="replaced" data-seat="${s.seat}"><span>${t('presence.replaced', { name: s.player })}</span></li>`);
    }
    return items.length ? html`<div role="status"><ul class="presence">${items}</ul></div>` : '';
  }

  /** "a bot takes the seat in 0:42": the grace period left, by the server's clock. */
  function graceText(ends) {
    const secs = Math.max(0, Math.ceil(ends - S.skew - Date.now() / 1000));
    return t('presence.bot_in', { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}` });
  }

  /** Whether this person played at the table (and so may play again there). */
  function playedHere() {
    const me = session.player?.id;
    return !!me && !!S.table?.seating.some((s) => s.player_id === me);
  }

  /** "Play again": a new game at the same seats with the same settings (the first who
   * asks makes it; the others are offered it). Once it exists, the button joins it. */
  function againButton(key) {
    const x = S.table;
    if (!x || x.status !== 'finished' || !playedHere()) return '';
    const label = x.again ? t('again.join') : t('again.button');
    return html`<button class="btn primary" data-again data-key="${key}">${label}</button>`;
  }

  /** Who offered to play again, told to the others at the finished table. */
  function againOffer() {
    const x = S.table;
    if (!x?.again || !playedHere()) return '';
    const by = S.againBy;
    if (!by || by === session.player?.id) return '';
    const seat = x.seating.find((s) => s.player_id === by);
    const name = seat ? plainName(x, seat.seat) : '';
    return html`<p class="again-offer" role="status">${t('again.offer', { name })}</p>`;
  }

  /** A finished table's "play again" table: who made it (the offer said to the others). */
  function noteAgain() {
    const next = S.table?.again;
    if (!next || S.againOf === next) return;
    S.againOf = next;
    api('GET', `/api/tables/${encodeURIComponent(next)}`).then(
      ({ table }) => {
        S.againBy = table.owner;
        if (!gone) render();
      },
      () => {},
    );
  }

  /** A "play now" table: the time left before bots take its free seats. */
  function playNowWait(x) {
    const at = x.options?.play_now?.fill_at;
    if (x.status !== 'open' || typeof at !== 'number' || !x.free_seats.length) return '';
    return html`<p class="play-now-wait" role="status" data-fill-at="${at}">${playNowText(at)}</p>`;
  }

  function playNowText(at) {
    const secs = Math.max(0, Math.ceil(at - S.skew - Date.now() / 1000));
    return t('table.play_now_wait', { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}` });
  }

  async function playAgain() {
    if (!(await ensureSession())) return;
    try {
      const r = await api('POST', `/api/tables/${encodeURIComponent(S.id)}/again`);
      if (r?.table?.id) location.hash = `#/table/${r.table.id}`;
    } catch (e) {
      toast(e.message, 'error');
    }
  }

  function gameOver() {
    const g = game();
    const c = ctx();
    const note = settlementNote();
    return html`<div class="game-over" role="dialog" aria-modal="true" aria-labelledby="over-title"${
      note ? html` aria-describedby="over-note"` : ''
    }>
      <div class="game-over-card" data-keep-clear>
        <h2 id="over-title">${g.winnerText(c)}</h2>
        ${note}
        ${g.finalScores(c)}
        ${againOffer()}
        <div class="dialog-buttons">
          <button class="btn ghost" data-close-over data-key="close-over">${t('close')}</button>
          <a class="btn ghost" href="#/">${t('nav.lobby')}</a>
          <a class="btn ghost" href="#/replay/${S.id}" data-key="replay">${t('lobby.replay')}</a>
          ${againButton('again-over')}
        </div>
      </div></div>`;
  }

  function bind() {
    const $ = (sel) => app.querySelectorAll(sel);
    $('[data-invite]').forEach(
      (b) =>
        (b.onclick = async () => {
          await copyText(tableLink(S.id));
          toast(t('table.link_copied'));
        }),
    );
    $('[data-sit]').forEach((b) => (b.onclick = () => sit(Number(b.dataset.sit))));
    $('[data-add-bot]').forEach(
      (b) =>
        (b.onclick = async () => {
          const seat = Number(b.dataset.addBot);
          const level = app.querySelector(`[data-bot-level="${seat}"]`).value;
          if (!(await ensureSession())) return;
          call('POST', `/api/tables/${S.id}/seats/${seat}/bot`, { level });
        }),
    );
    $('[data-remove-bot]').forEach(
      (b) => (b.onclick = () => call('DELETE', `/api/tables/${S.id}/seats/${b.dataset.removeBot}`)),
    );
    $('[data-stand]').forEach(
      (b) =>
        (b.onclick = async () => {
          await call('DELETE', `/api/tables/${S.id}/seats/${b.dataset.stand}`);
          socket?.rejoin();
        }),
    );
    $('[data-leave]').forEach(
      (b) =>
        (b.onclick = async () => {
          if (!confirm(t('table.leave_confirm'))) return;
          await call('DELETE', `/api/tables/${S.id}/seats/${S.seat}`);
          socket?.rejoin();
        }),
    );
    $('[data-start]').forEach((b) => (b.onclick = () => call('POST', `/api/tables/${S.id}/start`)));
    $('[data-again]').forEach((b) => (b.onclick = playAgain));
    $('[data-hint]').forEach((b) => (b.onclick = askHint));
    $('[data-sound]').forEach(
      (b) =>
        (b.onclick = () => {
          notice.setSound(!notice.soundOn());
          render();
        }),
    );
    $('[data-notify]').forEach(
      (b) =>
        (b.onclick = async () => {
          const on = await notice.setNotify(!notice.notifyOn());
          if (!on && b.getAttribute('aria-pressed') === 'false') toast(t('notice.denied'), 'info');
          render();
        }),
    );
    $('[data-jump]').forEach(
      (b) => (b.onclick = () => document.getElementById(b.dataset.jump)?.closest('.panel')?.scrollIntoView({ block: 'start' })),
    );
    $('[data-close-summary]').forEach(
      (b) =>
        (b.onclick = () => {
          S.summaryOpen = false;
          render();
        }),
    );
    $('[data-open-summary]').forEach(
      (b) =>
        (b.onclick = () => {
          S.summaryOpen = true;
          render();
        }),
    );
    $('[data-close-over]').forEach(
      (b) =>
        (b.onclick = () => {
          S.overShown = true;
          render();
        }),
    );
    if (S.view) game().bind?.(app.querySelector('.felt'), ctx());
  }

  async function call(method, path, body) {
    try {
      const r = await api(method, path, body);
      if (r?.table) {
        S.table = r.table;
        render();
      }
      return r;
    } catch (e) {
      toast(e.message, 'error');
      return null;
    }
  }

  async function sit(seat) {
    if (!(await ensureSession())) return;
    const r = await call('POST', `/api/tables/${S.id}/seats/${seat}`);
    if (r) socket?.rejoin(); // the cookie now names a seat: join as that seat
  }

  // ------------------------------------------------------------- the timer

  function tick() {
    for (const el of app.querySelectorAll('.away-left[data-ends]')) {
      el.textContent = graceText(Number(el.dataset.ends));
    }
    for (const el of app.querySelectorAll('.play-now-wait[data-fill-at]')) {
      el.textContent = playNowText(Number(el.dataset.fillAt));
    }
    const box = app.querySelector('.timer');
    if (!box) return;
    const v = S.view;
    if (!S.deadline || !v || v.over || v.turn === null || v.turn === undefined) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const left = Math.max(0, S.deadline - S.skew - Date.now() / 1000);
    const total = turnSeconds();
    const secs = Math.ceil(left);
    box.querySelector('.timer-text').textContent = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
    box.querySelector('.timer-fill').style.width = `${Math.min(100, (100 * left) / total)}%`;
    box.classList.toggle('low', left < Math.min(10, total / 3));
    box.classList.toggle('mine', v.turn === S.seat);
    box.setAttribute('aria-label', tn('table.time_left', secs));
  }
  timerHandle = setInterval(tick, 250);

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const dialog = app.querySelector('.game-over');
    if (dialog && e.key === 'Tab') {
      // a modal dialog: Tab goes round its own controls
      const items = [...dialog.querySelectorAll('a[href], button:not([disabled])')];
      const at = items.indexOf(document.activeElement);
      const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : (at + 1) % items.length;
      items[next]?.focus();
      e.preventDefault();
      return;
    }
    if (e.target.closest('input, select, textarea')) return;
    // the arrow keys along the hand, and along the buttons below it
    const row = e.target.closest?.('.felt .hand, .felt .actions');
    if (row && arrowAlong(row, e)) {
      e.preventDefault();
      return;
    }
    const g = game();
    if (dialog) {
      if (e.key === 'Escape' && closeTop()) e.preventDefault();
      return;
    }
    if (S.view && g?.key?.(e.key.toLowerCase(), ctx())) e.preventDefault();
    else if (e.key === 'Escape' && closeTop()) e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  draw();
  return {
    rerender: render,
    get socket() {
      return socket;
    },
    get view() {
      return S.view; // read-only, for tests and the console
    },
    unmount() {
      gone = true;
      clearInterval(timerHandle);
      document.removeEventListener('keydown', onKey);
      socket?.close();
      chat.unmount();
      document.title = 'Taverna';
    },
  };
}
