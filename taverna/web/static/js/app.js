// Taverna's web client: a single page with hash routes.
//   #/             the lobby
//   #/table/ID     a table (seating, then play)
//   #/replay/ID    a finished game, step by step

import { loadSession, session } from './api.js';
import { LANGUAGES, language, loadLanguages, setLanguage, t } from './i18n.js';
import * as lobby from './lobby.js';
import * as replay from './replay.js';
import { installSprite } from './svg.js';
import * as table from './table.js';
import { esc } from './ui.js';

const app = document.getElementById('app');
let page = null;

function route() {
  page?.unmount();
  page = null;
  const hash = location.hash || '#/';
  const m = hash.match(/^#\/(table|replay)\/([\w-]+)/);
  window.scrollTo(0, 0);
  if (m && m[1] === 'table') page = table.mount(app, m[2]);
  else if (m && m[1] === 'replay') page = replay.mount(app, m[2]);
  else page = lobby.mount(app);
  window.taverna.page = page;
  chrome();
}

function chrome() {
  document.title = `Taverna`;
  document.getElementById('nav').innerHTML = `<a href="#/"${
    !location.hash || location.hash === '#/' ? ' aria-current="page"' : ''
  }>${esc(t('nav.lobby'))}</a>`;
  document.getElementById('skip-link').textContent = t('nav.skip');
  document.getElementById('lang-label').textContent = t('nav.language');
  const select = document.getElementById('lang');
  select.innerHTML = Object.entries(LANGUAGES)
    .map(([code, name]) => `<option value="${code}"${code === language() ? ' selected' : ''} lang="${code}">${name}</option>`)
    .join('');
  const who = document.getElementById('who');
  who.textContent = session.player ? session.player.name : '';
  who.title = session.player ? t('nav.playing_as', { name: session.player.name }) : '';
}

async function main() {
  installSprite();
  window.taverna = { page: null };
  await Promise.all([loadLanguages(), loadSession()]);
  document.getElementById('lang').onchange = (e) => setLanguage(e.target.value);
  window.addEventListener('taverna:language', () => {
    chrome();
    page?.rerender();
  });
  window.addEventListener('taverna:session', chrome);
  window.addEventListener('hashchange', route);
  route();
}

main();
