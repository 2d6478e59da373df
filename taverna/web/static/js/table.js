// A table: seating before the start, then live play over the table WebSocket.
//
// The page keeps the last view the server sent (the only truth it acts on), tells
// every event in the log, and redraws from the view; each game module draws its own
// board and controls (its board module, js/games.js). Only moves listed in view.legal
// are offered; a refused move shows the server's message.
//
// Each concept of the page is a module of js/table/: its state (state.js), what the
// socket says (messages.js), the drawing (draw.js), the seating (seating.js), the log
// (log.js), the hand summary (summary.js), hints (hints.js), who is away (presence.js),
// the clocks (clock.js), sounds and notices (notices.js), the keyboard and the focus
// (keys.js), the game-over dialog (over.js), "play again" (again.js) and two players on
// one address (address.js).

import { api } from './api.js';
import { TableSocket } from './socket.js';
import { createChat } from './chat.js';
import { TICK, tick } from './table/clock.js';
import { draw, render } from './table/draw.js';
import { keyListener } from './table/keys.js';
import { handlers } from './table/messages.js';
import { newState } from './table/state.js';

export function mount(app, tableId) {
  const S = newState(tableId);
  const page = {
    app,
    S,
    socket: null, // connected once the table is known to exist
    gone: false, // unmounted
    shared: { known: false, asked: '' }, // two players on one address (table/address.js)
    chat: null,
    render: () => render(page),
  };
  // the table's chat: one panel for the page's life, put back after each redraw
  page.chat = createChat({ tableId, get: () => S, socket: () => page.socket });
  const connect = () => {
    if (!page.gone && !page.socket) page.socket = new TableSocket(tableId, handlers(page));
  };

  // Ask first whether the table exists: one that does not is said so, and no socket is
  // opened (the server would refuse it, and the browser log that as an error).
  api('GET', `/api/tables/${encodeURIComponent(tableId)}`).then(connect, (e) => {
    if (e.status !== 404) {
      connect(); // the server is slow or away: the socket keeps trying
      return;
    }
    S.missing = true;
    if (!page.gone) draw(page);
  });

  const timerHandle = setInterval(() => tick(page), TICK);
  const onKey = keyListener(page);
  document.addEventListener('keydown', onKey);
  draw(page);
  return {
    rerender: page.render,
    get socket() {
      return page.socket;
    },
    get view() {
      return S.view; // read-only, for tests and the console
    },
    unmount() {
      page.gone = true;
      clearInterval(timerHandle);
      document.removeEventListener('keydown', onKey);
      page.socket?.close();
      page.chat.unmount();
      document.title = 'Taverna';
    },
  };
}
