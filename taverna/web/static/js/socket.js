// WebSockets that come back by themselves (docs/protocol.md).
//
// TableSocket keeps the last update number it saw; after a network drop it
// reconnects with backoff and says hello with that number, so the server sends
// exactly what was missed. A gap in the numbers asks again on the same socket.

const PING_EVERY = 15000;
const PONG_WITHIN = 8000;

function socketUrl(path) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}${path}`;
}

export class Reconnecting {
  /** `onMessage(msg)`; `onStatus(status)` with 'connecting' | 'open' | 'lost' | 'reconnected'. */
  constructor(path, { onMessage, onStatus, onOpen }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.onOpen = onOpen || (() => {});
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.everOpen = false;
    this.timer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.onOnline = () => {
      if (!this.ws || this.ws.readyState > 1) this.reconnectNow();
    };
    window.addEventListener('online', this.onOnline);
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    if (this.closed) return;
    this.onStatus(this.everOpen ? 'lost' : 'connecting');
    const ws = new WebSocket(socketUrl(this.path));
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      const again = this.everOpen;
      this.everOpen = true;
      this.attempt = 0;
      this.onOpen(again);
      this.onStatus(again ? 'reconnected' : 'open');
      this.startPings();
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === 'pong') {
        clearTimeout(this.pongTimer);
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (ws !== this.ws) return;
      this.stopPings();
      if (this.closed) return;
      if (e.code === 4404) {
        // the server says there is no such table: trying again will not make one
        this.closed = true;
        this.onStatus('gone');
        return;
      }
      this.onStatus('lost');
      // 0.5 s, 1 s, 2 s, 4 s, then every 5 s
      const delay = Math.min(5000, 500 * 2 ** this.attempt++);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  reconnectNow() {
    this.attempt = 0;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = null;
      try {
        old.close();
      } catch {
        /* already closed */
      }
    }
    this.stopPings();
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
    let n = 0;
    this.pingTimer = setInterval(() => {
      if (!this.send({ type: 'ping', id: ++n })) return;
      clearTimeout(this.pongTimer);
      // no answer: the connection is dead even if the browser has not noticed
      this.pongTimer = setTimeout(() => this.ws && this.ws.close(), PONG_WITHIN);
    }, PING_EVERY);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopPings();
    window.removeEventListener('online', this.onOnline);
    if (this.ws) this.ws.close();
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

  /** Make a Mus seña (RULES.md §3); its id, or null when offline. */
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
