// The French deck of Muggins cards, drawn as SVG (no assets): faces, backs and the small
// chips of running text. Its suits and the back's pattern join the page's sprite once
// (js/svg.js), referenced by <use>.

import { html } from '/static/js/html.js';
import { NS, addShapes, cardBack, cardChip, exposed } from '/static/js/svg.js';

const FRENCH_SUITS = {
  // heart, diamond, spade, club in a 100x100 box
  H: html`<path d="M50 92C22 68 4 52 4 31 4 15 16 4 30 4c9 0 16 5 20 13 4-8 11-13 20-13 14 0 26 11 26 27 0 21-18 37-46 61z"/>`,
  D: html`<path d="M50 2 88 50 50 98 12 50z"/>`,
  S: html`<path d="M50 4C36 22 6 40 6 62c0 14 11 23 23 23 9 0 15-4 19-10-1 9-4 15-9 21h22c-5-6-8-12-9-21 4 6 10 10 19 10 12 0 23-9 23-23C94 40 64 22 50 4z"/>`,
  C: html`<circle cx="50" cy="27" r="20"/><circle cx="27" cy="60" r="20"/><circle cx="73" cy="60" r="20"/><path d="M44 50h12c0 22 3 33 11 46H33c8-13 11-24 11-46z"/>`,
};

addShapes(
  'french',
  html`<linearGradient id="g-card" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f1ede4"/>
    </linearGradient>
    <pattern id="p-back-red" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="16" height="16" fill="#9d2330"/><path d="M0 8h16M8 0v16" stroke="#c8505a" stroke-width="3"/>
    </pattern>
    ${Object.entries(FRENCH_SUITS).map(([k, d]) => html`<symbol id="fs-${k}" viewBox="0 0 100 100">${d}</symbol>`)}`,
);

const RED = '#c0262d', BLACK = '#1d1d1f';
const X1 = 78, X2 = 125, X3 = 172;
const FR_LAYOUT = {
  2: [[X2, 72], [X2, 278]],
  3: [[X2, 72], [X2, 175], [X2, 278]],
  4: [[X1, 72], [X3, 72], [X1, 278], [X3, 278]],
  5: [[X1, 72], [X3, 72], [X2, 175], [X1, 278], [X3, 278]],
  6: [[X1, 72], [X3, 72], [X1, 175], [X3, 175], [X1, 278], [X3, 278]],
  7: [[X1, 72], [X3, 72], [X2, 124], [X1, 175], [X3, 175], [X1, 278], [X3, 278]],
  8: [[X1, 72], [X3, 72], [X2, 124], [X1, 175], [X3, 175], [X2, 226], [X1, 278], [X3, 278]],
  9: [[X1, 72], [X3, 72], [X1, 140], [X3, 140], [X2, 175], [X1, 210], [X3, 210], [X1, 278], [X3, 278]],
  10: [[X1, 72], [X3, 72], [X2, 106], [X1, 140], [X3, 140], [X1, 210], [X3, 210], [X2, 244], [X1, 278], [X3, 278]],
};

const CROWN = {
  K: 'M70 130l14-40 22 26 19-36 19 36 22-26 14 40z',
  Q: 'M82 130l8-32 20 20 15-28 15 28 20-20 8 32z',
  J: 'M84 130c0-28 18-44 41-44s41 16 41 44z',
};

export function parseFrench(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** A French card ("10H", "QS", "AC"); named `label` when given (see `exposed`). */
export function frenchCard(card, { cls = '', label = '' } = {}) {
  const { rank, suit } = parseFrench(card);
  const color = suit === 'H' || suit === 'D' ? RED : BLACK;
  const use = (x, y, s, flip) =>
    html`<use href="#fs-${suit}" x="${x - s / 2}" y="${y - s / 2}" width="${s}" height="${s}"${
      flip ? html` transform="rotate(180 ${x} ${y})"` : ''
    }/>`;
  let middle;
  if (rank === 'A') {
    middle = use(125, 175, 120, false);
  } else if (FR_LAYOUT[rank]) {
    middle = FR_LAYOUT[rank].map(([x, y]) => use(x, y, 46, y > 175));
  } else {
    middle = html`<rect x="52" y="62" width="146" height="226" rx="10" fill="${
      color === RED ? '#fbe9e3' : '#e9edf3'
    }" stroke="${color}" stroke-width="3"/>
      <path d="${CROWN[rank]}" fill="#e9b425" stroke="#8a5a06" stroke-width="3" stroke-linejoin="round"/>
      ${rank === 'J' ? html`<path d="M160 100c14-10 22-24 20-34" stroke="#8a5a06" stroke-width="4" fill="none"/>` : ''}
      <text x="125" y="222" text-anchor="middle" font-family="Georgia, serif" font-size="92" font-weight="700">${rank}</text>
      ${use(125, 258, 40, false)}`;
  }
  const corner = html`<text x="27" y="48" text-anchor="middle" font-family="Georgia, serif" font-size="${
    rank === '10' ? 34 : 40
  }" font-weight="700">${rank}</text>${use(27, 74, 30, false)}`;
  return html`<svg ${NS} class="card french ${cls}" viewBox="0 0 250 350" ${exposed(label)}>
    <rect x="2" y="2" width="246" height="346" rx="18" fill="url(#g-card)" stroke="#b9b2a4" stroke-width="3"/>
    <g fill="${color}">${corner}<g transform="rotate(180 125 175)">${corner}</g>${middle}</g>
  </svg>`;
}

/** The back of a French card (a hidden card). */
export function frenchBack({ cls = '' } = {}) {
  return cardBack({ deck: 'french', width: 250, height: 350, pattern: 'p-back-red', ink: '#9d2330', cls });
}

/** A French card as a small chip for running text: rank and suit symbol. */
export function frenchChip(card) {
  const { rank, suit } = parseFrench(card);
  return cardChip(rank, `fs-${suit}`, { cls: suit === 'H' || suit === 'D' ? 'red' : '' });
}
