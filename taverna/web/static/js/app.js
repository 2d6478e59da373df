// Taverna's web client: a single page with hash routes.
//   #/             the lobby
//   #/table/ID     a table (seating, then play)
//   #/replay/ID    a finished game, step by step
// Any other path (the server answers it with this page and a 404) is "no such page".

import { loadSession, session } from './api.js';
import { topbar } from './chrome.js';
import { loadGames } from './games.js';
import { loadLanguages, t } from './i18n.js';
import * as lobby from './lobby.js';
import * as replay from './replay.js';
import { html, setMarkup } from './html.js';
import { installSprite } from './svg.js';
import * as table from './table.js';

const app = document.getElementById('app');
let page = null;

/** A path the site does not have: say so, and lead back to the lobby. */
function notFound(root) {
  const draw = () => {
    document.title = `${t('page.not_found')} · Taverna`;
    setMarkup(
      root,
      html`<section class="not-found"><h1>${t('page.not_found')}</h1>
      <p>${t('page.not_found_hint', { path: location.pathname })}</p>
      <p><a class="btn primary" href="/#/">${t('nav.lobby')}</a></p></section>`,
    );
  };
  draw();
  return { rerender: draw, unmount() {}, notFound: true };
}

function route() {
  page?.unmount();
  page = null;
  const hash = location.hash || '#/';
  const m = hash.match(/^#\/(table|replay)\/([\w-]+)/);
  window.scrollTo(0, 0);
  if (location.pathname !== '/') page = notFound(app);
  else if (m && m[1] === 'table') page = table.mount(app, m[2]);
  else if (m && m[1] === 'replay') page = replay.mount(app, m[2]);
  else page = lobby.mount(app);
  window.taverna.page = page;
  chrome();
}

function chrome() {
  if (!page?.notFound) document.title = 'Taverna';
  const inLobby = location.pathname === '/' && (!location.hash || location.hash === '#/');
  topbar(inLobby ? 'lobby' : null, session.player);
}

async function main() {
  installSprite();
  window.taverna = { page: null };
  // the games' strings join the page's (js/games.js), their boards are ready to draw
  await Promise.all([loadLanguages(), loadSession(), loadGames()]);
  window.addEventListener('taverna:language', () => {
    chrome();
    page?.rerender();
  });
  window.addEventListener('taverna:session', chrome);
  // a key pressed outside a text field comes from a keyboard (a screen's own shows for
  // text fields only): the keyboard's badges show from then on, on a touch screen too
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.key === 'Unidentified' || e.target.closest?.('input, textarea, select, [contenteditable]')) return;
      document.documentElement.classList.add('keys');
    },
    { capture: true },
  );
  chrome(); // the top bar first: the pages report their connection in it
  window.addEventListener('hashchange', () => {
    // the focus was on the page that went (a link, a button of a dialog): to the new one,
    // so that Tab goes on from its top and a screen reader starts there
    const active = document.activeElement;
    const lost = !active || active === document.body || app.contains(active);
    route();
    if (lost) app.focus({ preventScroll: true });
    loadSession().then(chrome); // a member's chips may have moved since
  });
  route();
}

main();
