// The club's own drawings as SVG by our own code (no assets), and what the games' drawings
// share: the page's sprite, a card's back and a card as a chip in running text.
//
// Every function returns SVG markup (js/html.js). Shared shapes (suits, gradients)
// live in one sprite added to the page once (installSprite), referenced by <use>; each
// game adds its own shapes to it (addShapes) from its drawing modules
// (web/games/<game>/), which draw its tiles, cards and stones.

import { html, setMarkup } from './html.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The namespace attribute of an SVG drawn inline. */
export const NS = html`xmlns="${SVG_NS}"`;

// ------------------------------------------------------------------ sprite

/** The page's sprite: hidden by its class (css/taverna.css), since the page's policy
 * allows no inline style. */
export function installSprite() {
  const found = document.getElementById('taverna-sprite');
  if (found) return found;
  const sprite = document.createElementNS(SVG_NS, 'svg');
  sprite.id = 'taverna-sprite';
  sprite.setAttribute('class', 'sprite');
  sprite.setAttribute('aria-hidden', 'true');
  sprite.setAttribute('focusable', 'false');
  document.body.prepend(sprite);
  return sprite;
}

/** Add a game's shapes (symbols, gradients, patterns: SVG markup) to the page's sprite,
 * once for each `name`, so that its drawings refer to them by id. */
export function addShapes(name, markup) {
  const sprite = installSprite();
  if (sprite.querySelector(`defs[data-shapes="${CSS.escape(name)}"]`)) return;
  const defs = document.createElementNS(SVG_NS, 'defs');
  defs.dataset.shapes = name;
  setMarkup(defs, markup);
  sprite.append(defs);
}

// ------------------------------------------------------------------ cards

/** How a drawn card is exposed: an image named `label` (a card standing alone: a button's
 * content, whose name it gives), or hidden from assistive technology (a card named by what
 * holds it, or shown beside words that say it). Its printed indices are part of the
 * picture, like the letters of a photographed card: the image has a name, not text. */
export function exposed(label) {
  return label ? html`role="img" aria-label="${label}"` : html`aria-hidden="true"`;
}

/** The back of a playing card of a `deck` (its class), `width` by `height`, filled with
 * the sprite's `pattern`, its mark in `ink`. */
export function cardBack({ deck, width: w, height: h, pattern, ink, cls = '' }) {
  return html`<svg ${NS} class="card back ${deck} ${cls}" viewBox="0 0 ${w} ${h}" aria-hidden="true">
    <rect x="2" y="2" width="${w - 4}" height="${h - 4}" rx="18" fill="#fbf8f1" stroke="#b9b2a4" stroke-width="3"/>
    <rect x="16" y="16" width="${w - 32}" height="${h - 32}" rx="10" fill="url(#${pattern})"/>
    <circle cx="${w / 2}" cy="${h / 2}" r="34" fill="#fbf8f1" opacity=".9"/>
    <text x="${w / 2}" y="${h / 2 + 14}" text-anchor="middle" font-family="Georgia, serif" font-size="40"
      font-weight="700" fill="${ink}">T</text>
  </svg>`;
}

/** A card as a small chip for running text: its `rank` and its suit, the sprite's
 * `symbol`; `cls` one more class ('red', a deck's). */
export function cardChip(rank, symbol, { cls = '' } = {}) {
  return html`<span class="card-chip${cls ? ` ${cls}` : ''}">${rank}<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#${symbol}"/></svg></span>`;
}

// ------------------------------------------------------- the official mark

/** The mark of an official (ranked) game: a sword on a brass medallion, as the Mus seed
 * shows it ("with a boxing glove or a sword"); `label` is its accessible name. */
export function officialMark(label) {
  return html`<svg ${NS} class="official-mark" viewBox="0 0 100 100" role="img" aria-label="${label}" focusable="false">
    <title>${label}</title>
    <circle cx="50" cy="50" r="46" fill="#7a1f1a" stroke="#e0b45a" stroke-width="7"/>
    <g transform="rotate(-35 50 50)" stroke-linejoin="round">
      <path d="M50 10 58 24V62H42V24z" fill="#e6edf4" stroke="#26446e" stroke-width="4"/>
      <path d="M50 20V58" stroke="#26446e" stroke-width="2.5"/>
      <rect x="28" y="61" width="44" height="9" rx="4.5" fill="#e9b425" stroke="#8a5a06" stroke-width="3"/>
      <rect x="45" y="70" width="10" height="14" rx="2" fill="#5a3b22" stroke="#2a1b12" stroke-width="2"/>
      <circle cx="50" cy="88" r="6" fill="#e9b425" stroke="#8a5a06" stroke-width="3"/>
    </g>
  </svg>`;
}

// -------------------------------------------------------- the table's bell

/** The table's sound switch: a brass bell, as the club draws its brass (the official
 * mark's guard, the oros), struck through in red when the sounds are off. Drawn, not a
 * character, so that it shows whatever fonts the device has; decorative (`aria-hidden`):
 * the button it sits in says what it is and whether it is on. */
export function bell(on) {
  return html`<svg ${NS} class="bell${on ? '' : ' off'}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="12" cy="2.9" r="1.5" fill="#e9b425" stroke="#8a5a06" stroke-width="1.1"/>
    <path d="M12 4.2c-3.5 0-5.8 2.6-5.8 6.1v3.4L4.1 17.2v1.1h15.8v-1.1l-2.1-3.5v-3.4c0-3.5-2.3-6.1-5.8-6.1z"
      fill="#e9b425" stroke="#8a5a06" stroke-width="1.5" stroke-linejoin="round"/>
    <path d="M9.2 8.4c.5-1.3 1.5-2.1 2.8-2.3" fill="none" stroke="#fff3c4" stroke-width="1.3" stroke-linecap="round"/>
    <circle cx="12" cy="20.3" r="1.9" fill="#5a3b22" stroke="#2a1b12" stroke-width="0.9"/>
    ${
      on
        ? ''
        : html`<path d="M4 3.5 20 20.5" stroke="#fffaf0" stroke-width="4.2" stroke-linecap="round"/>
      <path d="M4 3.5 20 20.5" stroke="#b3261e" stroke-width="2.2" stroke-linecap="round"/>`
    }
  </svg>`;
}
