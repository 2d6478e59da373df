// The top bar that every page of the site shares — the lobby and its tables, the
// ranking, the account, a player's page: the club, its pages, who is here (a member's
// chips too) and the language.

import { LANGUAGES, language, num, setLanguage, t, tn } from './i18n.js';
import { esc } from './ui.js';

const BRAND_SVG =
  '<svg viewBox="0 0 64 40" aria-hidden="true"><rect x="2" y="4" width="60" height="32" rx="7" fill="#fffaf0" stroke="#e0b45a" stroke-width="3"/><line x1="32" y1="9" x2="32" y2="31" stroke="#6b5842" stroke-width="3"/><circle cx="17" cy="20" r="4" fill="#2a1b12"/><circle cx="42" cy="13" r="3.6" fill="#2a1b12"/><circle cx="47" cy="20" r="3.6" fill="#2a1b12"/><circle cx="52" cy="27" r="3.6" fill="#2a1b12"/></svg>';

/** The site's pages: [which, address, label]. */
const PAGES = [
  ['lobby', '/#/', 'nav.lobby'],
  ['ranking', '/ranking/muggins-dominoes', 'nav.ranking'],
  ['account', '/account', 'nav.account'],
];

function skeleton(bar) {
  bar.innerHTML = `
    <a class="brand" href="/#/" aria-label="Taverna">${BRAND_SVG}<span>Taverna</span></a>
    <nav id="nav" aria-label="Taverna"></nav>
    <div class="topbar-right">
      <span id="net" class="net" role="status" aria-live="polite"></span>
      <span id="who" class="who"></span>
      <label class="lang"><span class="sr-only" id="lang-label"></span>
        <select id="lang" aria-labelledby="lang-label"></select></label>
    </div>`;
  bar.querySelector('#lang').onchange = (e) => setLanguage(e.target.value);
}

/** A member's chips in words: "1,000 chips". */
export function chipsText(n) {
  return tn('chrome.chips_n', n, { n: num(n) });
}

/**
 * Draw the top bar (`header.topbar`) in the language of the moment: `current` is the
 * page it marks ('lobby', 'ranking', 'account' or null), `player` who is here (null
 * before anybody has a name), with `chips` when registered.
 */
export function topbar(current, player) {
  const bar = document.querySelector('header.topbar');
  if (!bar) return;
  if (!bar.querySelector('#nav')) skeleton(bar);
  bar.querySelector('#nav').innerHTML = PAGES.map(
    ([key, href, label]) =>
      `<a href="${href}"${key === current ? ' aria-current="page"' : ''}>${esc(t(label))}</a>`,
  ).join(' ');
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
  bar.querySelector('#lang').innerHTML = Object.entries(LANGUAGES)
    .map(([code, name]) => `<option value="${code}"${code === language() ? ' selected' : ''} lang="${code}">${name}</option>`)
    .join('');
  const who = bar.querySelector('#who');
  if (!player) {
    who.innerHTML = '';
    who.title = '';
    return;
  }
  const chips = player.registered && typeof player.chips === 'number' ? chipsText(player.chips) : '';
  who.title = t('nav.playing_as', { name: player.name });
  who.innerHTML = player.registered
    ? `<a href="/account"><span class="who-name">${esc(player.name)}</span>${
        chips ? ` <span class="who-chips">· ${esc(chips)}</span>` : ''
      }</a>`
    : `<span class="who-name">${esc(player.name)}</span>`;
}
