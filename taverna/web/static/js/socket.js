// WebSockets that come back by themselves (docs/protocol.md).
//
// A socket is pinged every few seconds, and one that does not answer in time is dead
// whatever the browser thinks: a network that goes silent (a phone leaving its cell, a
// train in a tunnel) closes nothing, and a close whose handshake cannot reach the
// server fires no `close` event for a minute. So a dead socket is left at once (its
// handlers taken off, closed without waiting) and a new one opened at once; while new
// ones fail, each next try waits longer (with some chance in it, so that a thousand
// pages that lost the same server do not all come back in the same instant).
//
// TableSocket keeps the last update number it saw and says hello with it on each new
// socket, so the server sends exactly what was missed. A gap in the numbers asks again
// on the same socket.

import { clubInfo } from './games.js';

/** Milliseconds before the second try after a loss (the first is at once), doubling up
 * to RETRY_MOST; each delay is drawn between half of it and all of it. */
const RETRY_FIRST = 500;
const RETRY_MOST = 5000;

function socketUrl(path) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}${path}`;
}

/** The club's keepalive in milliseconds (GET /api/games says it; these if it did not):
 * a ping every `every`, an answer within `within`, a new socket open within `open` (an
 * opening takes a few round trips). */
function keepalive() {
  const k = clubInfo()?.keepalive;
  const within = 1000 * (k?.pong_within ?? 5);
  return { every: 1000 * (k?.ping_every ?? 5), within, open: 2 * within };
}

export class Reconnecting {
  /** `onMessage(msg)`; `onStatus(status)` with 'connecting' | 'open' | 'lost' |
   * 'reconnected' | 'gone'. */
  constructor(path, { onMessage, onStatus, onOpen }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.onOpen = onOpen || (() => {});
    this.ws = null;
    this.closed = false;
    this.failures = 0; // tries in a row that came to nothing: the next one waits longer
    this.everOpen = false;
    this.retryTimer = null; // the next try, while it waits
    this.openTimer = null; // a socket that does not open in time is given up
    this.pingTimer = null;
    this.pongTimer = null; // the deadline of the ping in flight
    this.pings = 0;
    // the network came back: a try begun while there was none is left for a new one
    this.onOnline = () => {
      if (this.ws?.readyState === WebSocket.OPEN) this.ping();
      else this.reconnectNow();
    };
    // the browser thinks it lost the network, or the page is looked at again (a phone
    // out of a pocket): whether the socket still answers is known within a pong's time
    this.onOffline = () => this.ping();
    this.onVisible = () => {
      if (document.visibilityState === 'visible') this.hurry();
    };
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    document.addEventListener('visibilitychange', this.onVisible);
    this.connect();
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.closed) return;
    this.onStatus(this.everOpen ? 'lost' : 'connecting');
    const ws = new WebSocket(socketUrl(this.path));
    this.ws = ws;
    this.openTimer = setTimeout(() => this.giveUp(ws), keepalive().open);
    ws.onopen = () => {
      clearTimeout(this.openTimer);
      const again = this.everOpen;
      this.everOpen = true;
      this.onOpen(again);
      this.onStatus(again ? 'reconnected' : 'open');
      this.startPings();
    };
    ws.onmessage = (e) => {
      // anything heard answers the ping in flight
      clearTimeout(this.pongTimer);
      this.pongTimer = null;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === 'pong') {
        this.failures = 0; // a whole round trip: this socket works
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (e.code === 4404) {
        // the server says there is no such table: trying again will not make one
        this.drop(ws);
        this.closed = true;
        this.onStatus('gone');
        return;
      }
      this.giveUp(ws);
    };
  }

  /** Leave a socket (if it is still this one's) without waiting for it to close:
   * nothing it does later is heard. */
  drop(ws) {
    if (ws !== this.ws) return;
    this.ws = null;
    ws.onopen = ws.onmessage = ws.onclose = null;
    try {
      ws.close();
    } catch {
      /* closed already */
    }
    clearTimeout(this.openTimer);
    this.stopPings();
  }

  /** The socket is dead, or never opened: leave it and try a new one, at once after a
   * socket that worked, else after a while that grows with each failure. */
  giveUp(ws) {
    if (ws !== this.ws) return;
    this.drop(ws);
    if (this.closed) return;
    this.onStatus(this.everOpen ? 'lost' : 'connecting');
    const n = this.failures++;
    const most = n === 0 ? 0 : Math.min(RETRY_MOST, RETRY_FIRST * 2 ** (n - 1));
    this.retryTimer = setTimeout(() => this.connect(), most * (0.5 + Math.random() / 2));
  }

  /** A new socket at once, whatever this one is doing. */
  reconnectNow() {
    if (this.closed) return;
    this.failures = 0;
    if (this.ws) this.drop(this.ws);
    this.connect();
  }

  /** Connect anew, as a fresh start rather than a recovery (after taking or leaving a
   * seat): nothing was lost, so nothing says "connection lost" or "reconnected". */
  restart() {
    this.everOpen = false;
    this.reconnectNow();
  }

  startPings() {
    this.stopPings();
    this.pingTimer = setInterval(() => this.ping(), keepalive().every);
  }

  /** Ping an open socket, unless a ping is in flight already; no answer in time, and
   * the socket is given up. */
  ping() {
    const ws = this.ws;
    if (this.pongTimer !== null || ws?.readyState !== WebSocket.OPEN) return;
    this.send({ type: 'ping', id: ++this.pings });
    this.pongTimer = setTimeout(() => {
      this.pongTimer = null;
      this.giveUp(ws);
    }, keepalive().within);
  }

  /** Someone is here: an open socket is pinged, a waiting try goes now. */
  hurry() {
    if (this.retryTimer !== null) this.connect();
    else this.ping();
  }

  stopPings() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pingTimer = null;
    this.pongTimer = null;
  }

  /** Send `msg` if the socket is open (whether it was). Not open while a try waits: a
   * person wants to play, so the try goes now. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.hurry();
      return false;
    }
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Whether a new socket is on its way: one opening, or a try waiting for its turn.
   * Always so while the socket is not open, until close() or a table that is gone. */
  get reconnecting() {
    if (this.closed) return false;
    return this.retryTimer !== null || this.ws?.readyState === WebSocket.CONNECTING;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.ws) this.drop(this.ws);
  }
}

export class TableSocket {
  /** Handlers: welcome(msg, missedUpdates), update(msg), table(msg), clock(msg), error(msg),
   * presence(msg) (who is connected, who is away and until when), signal(msg) (a Mus seña), chat(msg),
   * hint(msg) (the strong bot's suggestion, docs/protocol.md),
   * status(s) ('connecting', 'open', 'lost', 'restarting', 'reconnected'). */
  constructor(tableId, handlers) {
    this.handlers = handlers;
    this.seq = null; // the last update number applied
    this.nextId = 1;
    this.restarting = false; // the server said it restarts: the drop that follows is that
    this.socket = new Reconnecting(`/ws/tables/${encodeURIComponent(tableId)}`, {
      onOpen: () => this.hello(),
      onMessage: (msg) => this.receive(msg),
      onStatus: (s) => {
        if (s === 'lost' && this.restarting) s = 'restarting';
        if (s === 'open' || s === 'reconnected') this.restarting = false;
        handlers.status?.(s);
      },
    });
  }

  hello() {
    // from the start (0) the first time, so the page can tell the whole game so far
    this.fromStart = this.seq === null;
    this.socket.send({ type: 'hello', last_seq: this.seq === null ? 0 : this.seq });
  }

  receive(msg) {
    const h = this.handlers;
    if (msg.type === 'welcome') {
      const missed = (msg.missed || []).filter((m) => this.seq === null || m.seq > this.seq);
      this.seq = msg.seq;
      h.welcome?.(msg, missed, this.fromStart);
      this.fromStart = false;
    } else if (msg.type === 'update') {
      if (this.seq !== null && msg.seq <= this.seq) return; // already seen
      if (this.seq === null || msg.seq !== this.seq + 1) {
        this.hello(); // a gap: ask for what is missing
        return;
      }
      this.seq = msg.seq;
      h.update?.(msg);
    } else if (msg.type === 'table') {
      h.table?.(msg);
    } else if (msg.type === 'error') {
      h.error?.(msg);
    } else if (msg.type === 'presence') {
      h.presence?.(msg); // a player left, came back, or a bot took an away seat
    } else if (msg.type === 'chat') {
      h.chat?.(msg); // a message of the table's chat (js/chat.js)
    } else if (msg.type === 'signal') {
      h.signal?.(msg); // a Mus seña this seat may see: not an update, no seq
    } else if (msg.type === 'hint') {
      h.hint?.(msg); // the strong bot's move for this seat, asked by hint()
    } else if (msg.type === 'clock') {
      h.clock?.(msg); // the turn timer stopped (the server's database is away) or runs again
    } else if (msg.type === 'closing') {
      // the server restarts: it closes the socket next, and we come back by ourselves
      this.restarting = true;
      h.status?.('restarting');
    }
  }

  act(action) {
    const id = this.nextId++;
    if (!this.socket.send({ type: 'act', action, id })) {
      this.handlers.error?.({ code: 'offline', message: null });
      return null;
    }
    return id;
  }

  /** Say something in the table's chat: `{text}` or `{phrase}`; its id, or null offline. */
  chat(body) {
    const id = this.nextId++;
    return this.socket.send({ type: 'chat', ...body, id }) ? id : null;
  }

  /** Make a Mus seña (docs/rules.md §3.8); its id, or null when offline. */
  signal(sign) {
    const id = this.nextId++;
    if (!this.socket.send({ type: 'signal', sign, id })) {
      this.handlers.error?.({ code: 'offline', message: null });
      return null;
    }
    return id;
  }

  /** Ask the strong bot for a hint (tables with hints on); its id, or null when offline. */
  hint() {
    const id = this.nextId++;
    if (!this.socket.send({ type: 'hint', id })) {
      this.handlers.error?.({ code: 'offline', message: null });
      return null;
    }
    return id;
  }

  /** Start over as whoever the cookie says now (after taking or leaving a seat). */
  rejoin() {
    this.seq = null;
    this.socket.restart();
  }

  /** Drop the connection as a network failure would (the socket comes back by itself). */
  simulateDrop() {
    this.socket.ws?.close();
  }

  close() {
    this.socket.close();
  }
}
