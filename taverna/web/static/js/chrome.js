// The top bar that every page of the site shares — the lobby and its tables, the
// ranking, the account, a player's page: the club, its pages, who is here (a member's
// chips too) and the language.

import { html, setMarkup } from './html.js';
import { LANGUAGES, language, num, setLanguage, t, tn } from './i18n.js';

const BRAND_SVG = html`<svg viewBox="0 0 64 40" aria-hidden="true"><rect x="2" y="4" width="60" height="32" rx="7" fill="#fffaf0" stroke="#e0b45a" stroke-width="3"/><line x1="32" y1="9" x2="32" y2="31" stroke="#6b5842" stroke-width="3"/><circle cx="17" cy="20" r="4" fill="#2a1b12"/><circle cx="42" cy="13" r="3.6" fill="#2a1b12"/><circle cx="47" cy="20" r="3.6" fill="#2a1b12"/><circle cx="52" cy="27" r="3.6" fill="#2a1b12"/></svg>`;

/** The site's pages: [which, address, label, for whom] (a page for moderators only is
 * linked for them only: the server refuses anybody else). */
const PAGES = [
  ['lobby', '/#/', 'nav.lobby'],
  ['rules', '/rules', 'nav.rules'],
  ['ranking', '/ranking', 'nav.ranking'],
  ['tournaments', '/tournaments', 'nav.tournaments'],
  ['account', '/account', 'nav.account'],
  ['moderation', '/moderation', 'nav.moderation', (player) => player?.role === 'moderator'],
];

/** Three bars in the brand's brass: the button that opens the pages where they do not fit. */
const MENU_SVG = html`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><g stroke="#e0b45a" stroke-width="2.6" stroke-linecap="round"><line x1="4" y1="6.5" x2="20" y2="6.5"/><line x1="4" y1="12" x2="20" y2="12"/><line x1="4" y1="17.5" x2="20" y2="17.5"/></g></svg>`;

function skeleton(bar) {
  setMarkup(
    bar,
    html`
    <a class="brand" href="/#/" aria-label="Taverna">${BRAND_SVG}<span>Taverna</span></a>
    <button type="button" class="nav-toggle" id="nav-toggle" aria-expanded="false" aria-controls="nav">${MENU_SVG}<span id="nav-toggle-label"></span></button>
    <nav id="nav" aria-label="Taverna"></nav>
    <div class="topbar-right">
      <span id="net" class="net" role="status" aria-live="polite"></span>
      <span id="who" class="who"></span>
      <label class="lang"><span class="sr-only" id="lang-label"></span>
        <select id="lang" aria-labelledby="lang-label"></select></label>
    </div>`,
  );
  bar.querySelector('#lang').onchange = (e) => setLanguage(e.target.value);
  menu(bar);
}

/** Where the bar is too narrow for them (a phone, a tablet: css/taverna.css, `.nav-toggle`,
 * `.menu-open`) the pages are behind a button that opens and closes them; Escape closes
 * them too (the focus back on the button), and so do a click or the focus elsewhere and
 * following a link. */
function menu(bar) {
  const toggle = bar.querySelector('#nav-toggle');
  const nav = bar.querySelector('#nav');
  const open = (on) => {
    bar.classList.toggle('menu-open', on);
    toggle.setAttribute('aria-expanded', String(on));
  };
  toggle.addEventListener('click', () => open(!bar.classList.contains('menu-open')));
  nav.addEventListener('click', (e) => {
    if (e.target.closest('a')) open(false); // a route of this page (the lobby) does not reload it
  });
  bar.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !bar.classList.contains('menu-open')) return;
    open(false);
    toggle.focus();
  });
  bar.addEventListener('focusout', (e) => {
    if (e.relatedTarget && !toggle.contains(e.relatedTarget) && !nav.contains(e.relatedTarget)) open(false);
  });
  document.addEventListener('click', (e) => {
    if (!bar.contains(e.target)) open(false);
  });
}

/** A member's chips in words: "1,000 chips". */
export function chipsText(n) {
  return tn('chrome.chips_n', n, { n: num(n) });
}

/**
 * Draw the top bar (`header.topbar`) in the language of the moment: `current` is the
 * page it marks ('lobby', 'rules', 'ranking', 'tournaments', 'account', 'moderation' or
 * null), `player` who is here (null before anybody has a name), with `chips` when
 * registered and `role` 'moderator' for a moderator.
 */
export function topbar(current, player) {
  const bar = document.querySelector('header.topbar');
  if (!bar) return;
  if (!bar.querySelector('#nav')) skeleton(bar);
  const pages = PAGES.filter(([, , , shown]) => !shown || shown(player));
  setMarkup(
    bar.querySelector('#nav'),
    html`${pages.map(
      ([key, href, label], i) =>
        html`${i ? ' ' : ''}<a href="${href}"${key === current ? html` aria-current="page"` : ''}>${t(label)}</a>`,
    )}`,
  );
  bar.querySelector('#nav-toggle-label').textContent = t('nav.menu');
  const skip = document.getElementById('skip-link');
  if (skip) skip.textContent = t('nav.skip');
  if (skip && !skip.dataset.bound) {
    // pages route by the hash: move the focus to the content, leave the hash be
    skip.dataset.bound = '1';
    skip.addEventListener('click', (e) => {
      e.preventDefault();
      document.getElementById('app')?.focus();
    });
  }
  bar.querySelector('#lang-label').textContent = t('nav.language');
  setMarkup(
    bar.querySelector('#lang'),
    html`${Object.entries(LANGUAGES).map(
      ([code, name]) =>
        html`<option value="${code}"${code === language() ? html` selected` : ''} lang="${code}">${name}</option>`,
    )}`,
  );
  const who = bar.querySelector('#who');
  if (!player) {
    who.replaceChildren();
    who.title = '';
    return;
  }
  const chips = player.registered && typeof player.chips === 'number' ? chipsText(player.chips) : '';
  who.title = t('nav.playing_as', { name: player.name });
  setMarkup(
    who,
    player.registered
      ? html`<a href="/account"><span class="who-name">${player.name}</span>${
          chips ? html`<span class="who-chips"><span class="who-dot" aria-hidden="true"> · </span>${chips}</span>` : ''
        }</a>`
      : html`<span class="who-name">${player.name}</span>`,
  );
}

/** The connection's state in the top bar (a page's socket says it): lost, the server
 * restarting, back (said a moment, then gone). */
export function setNet(status) {
  const el = document.getElementById('net');
  if (!el) return;
  el.className = `net ${status}`;
  const words = { lost: 'net.lost', restarting: 'net.restarting', reconnected: 'net.back' };
  el.textContent = words[status] ? t(words[status]) : '';
  if (status === 'reconnected') {
    el.dataset.reconnected = String(Number(el.dataset.reconnected || 0) + 1);
    setTimeout(() => {
      if (el.classList.contains('reconnected')) {
        el.className = 'net';
        el.textContent = '';
      }
    }, 4000);
  }
}
