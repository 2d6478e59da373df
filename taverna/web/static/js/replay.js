// Replay of a finished game, step by step, every hand revealed.
//
// The server replays the stored record with the rules engine
// (GET /api/games/{id}/replay); the page steps through its states. Its parts are in
// js/replay/: the game at a step (steps.js), the drawing (draw.js), the controls and
// keys (controls.js), and the game's reviews (reviews.js).

import { api, session } from './api.js';
import { chatRecord } from './chat.js';
import { keyListener } from './replay/controls.js';
import { draw, render } from './replay/draw.js';
import { loadReviews } from './replay/reviews.js';

export function mount(app, tableId) {
  const replay = {
    app,
    tableId,
    S: { data: null, k: 0, n: 0, playing: false, speed: 1, error: null, reviews: [], reviewSeat: null, reviewError: null, chat: null },
    timer: null, // the next step while playing
    polling: null, // the next look at a review under way
    gone: false, // unmounted
    render: () => render(replay),
  };
  const onKey = keyListener(replay);
  document.addEventListener('keydown', onKey);
  draw(replay);
  load(replay);
  return {
    rerender: replay.render,
    unmount() {
      replay.gone = true;
      clearInterval(replay.timer);
      clearTimeout(replay.polling);
      document.removeEventListener('keydown', onKey);
    },
  };
}

/** The game's steps and its chat; then its reviews. */
async function load(replay) {
  const { S, tableId } = replay;
  // the table's chat beside the game (not part of its record): both rooms, once it is over
  api('GET', `/api/tables/${encodeURIComponent(tableId)}/chat`).then(
    ({ messages }) => {
      S.chat = chatRecord(messages);
      if (S.data) replay.render();
    },
    () => {}, // no chat to show
  );
  try {
    S.data = await api('GET', `/api/games/${encodeURIComponent(tableId)}/replay`);
    S.k = 0;
    const mine = (S.data.table.seating || []).findIndex((x) => x?.player_id && session.player && x.player_id === session.player.id);
    S.reviewSeat = mine >= 0 ? mine : 0;
  } catch (e) {
    S.error = e.message;
  }
  replay.render();
  if (S.data) loadReviews(replay);
}
