// The games the club plays, as the server lists them (GET /api/games): one registry for
// every page. Each game declares its facts there (seats, sides, settings, optional
// rights…) and where its part of the client is (`web`): a board module, its strings in
// each language, and perhaps a style sheet. No page names a game: a fourth game,
// installed as a plug-in, is listed, drawn and told like the club's own three.
//
// A board module's default export draws the game at the table and tells its events
// (board, controls, narrate, winnerText, finalScores…: see js/table.js), and says what
// the lobby shows of it: `illustration()`, `settingsSummary(settings)` (a few words
// each) and, for a finished game's row, `resultScores(result)` (a score per side). Its
// settings are named in its strings (js/settings.js says how).

import { addStrings } from './i18n.js';

let listed = null; // the answer of /api/games, once loaded
const boards = {}; // game -> its board module's default export

async function json(url) {
  const r = await fetch(url, { credentials: 'same-origin' });
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

/** Load the games once: their facts, their strings and (unless `boards` is false, as on
 * the club pages, which show no board) their board modules and style sheets. */
export async function loadGames({ boards: withBoards = true } = {}) {
  if (!listed) listed = await json('/api/games');
  await Promise.all(
    listed.games
      .filter((g) => g.web)
      .map(async (g) => {
        const strings = Object.entries(g.web.lang).map(async ([code, url]) => addStrings(code, await json(url)));
        const board = withBoards && !boards[g.game] ? import(g.web.board) : null;
        if (withBoards && g.web.css && !document.querySelector(`link[data-game="${CSS.escape(g.game)}"]`)) {
          const link = document.createElement('link');
          link.rel = 'stylesheet';
          link.href = g.web.css;
          link.dataset.game = g.game;
          document.head.appendChild(link);
        }
        await Promise.all(strings);
        if (board) boards[g.game] = (await board).default;
      }),
  );
  return listed;
}

/** What /api/games says beside the games: bot levels, table defaults and limits. */
export function clubInfo() {
  return listed;
}

/** The games, in the order the club lists them. */
export function gameList() {
  return listed ? listed.games : [];
}

/** The names of the games, in that order. */
export function gameNames() {
  return gameList().map((g) => g.game);
}

/** One game's facts (undefined for a game the server does not list). */
export function gameFacts(name) {
  return gameList().find((g) => g.game === name);
}

/** One game's board module (undefined if it has none, or boards were not loaded). */
export function board(name) {
  return boards[name];
}

/** The game a short name stands for (`/rules/dominoes`), or the name itself. */
export function gameNamed(name) {
  return gameList().find((g) => g.game === name || g.aliases.includes(name))?.game;
}

/** Whether seats play in sides (pairs): seat s plays for side s % team_count. */
export function sides(name) {
  return gameFacts(name)?.team_count ?? null;
}
