// Shared by the club pages (account, ranking, profiles): they are pages of the same site
// as the lobby — its top bar, language, strings (js/lang/*.json, `club.*`), look
// (css/taverna.css) and number formatting. The server's refusals are said as in the
// main client (js/errors.js).

import { api as call } from '../js/api.js';
import { topbar } from '../js/chrome.js';
import { html } from '../js/html.js';
import { LANGUAGES, language, loadLanguages, num, setLanguage, t } from '../js/i18n.js';
import { gameNames, loadGames } from '../js/games.js';

export { html, setMarkup } from '../js/html.js';
export { gameTitle } from '../js/ui.js';
export { num, t };

await loadLanguages();
// the games' names and strings (no boards: these pages draw none)
await loadGames({ boards: false });

/** The club's games, in the order it lists them (js/games.js). */
export const GAMES = gameNames();
// a link may name the language (`?lang=it`); else the visitor's choice or the browser's
const asked = new URLSearchParams(location.search).get('lang');
if (asked in LANGUAGES) setLanguage(asked, false);
document.documentElement.lang = language();

/** A signed change: +12, −10 (numbers as the page's language writes them). */
export function signed(n) {
  const cls = n > 0 ? 'plus' : n < 0 ? 'minus' : '';
  return html`<span class="${cls}">${n > 0 ? '+' : n < 0 ? '−' : ''}${num(Math.abs(n))}</span>`;
}

export function date(iso) {
  return iso ? new Date(iso).toLocaleString(language()) : '';
}

/** Call the API: the parsed JSON, or an Error whose message says the server's refusal
 * in the page's language (`status`, `code`, `params` and the English `detail` kept). */
export function api(path, { method = 'GET', body } = {}) {
  return call(method, path, body);
}

/** Who is here: the account (with chips and standings) or guest, or null (a first
 * visit: no session yet, no error). */
export async function whoami() {
  try {
    const { player } = await api('/api/session');
    return player ? (await api('/api/me')).player : null;
  } catch {
    return null;
  }
}

/** The site's top bar, `current` marking this page (js/chrome.js: 'ranking', 'rules'…, or null). */
export function header(me, current) {
  topbar(current, me);
}

/** Draw the page with `render()`, and again whenever the language changes. */
export function page(render) {
  window.addEventListener('taverna:language', () => {
    document.documentElement.lang = language();
    render();
  });
  return render();
}
