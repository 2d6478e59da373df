// The Spanish deck of Mus, drawn as SVG (no assets): faces (oros, copas, espadas,
// bastos; the figures), backs and the small chips of running text. Its suits and the
// back's pattern join the page's sprite once (js/svg.js), referenced by <use>.

import { html } from '/static/js/html.js';
import { NS, addShapes, cardBack, cardChip, exposed } from '/static/js/svg.js';

const SPANISH_SUITS = {
  // oros: a gold coin
  o: html`<circle cx="50" cy="50" r="46" fill="#e9b425" stroke="#8a5a06" stroke-width="4"/>
      <circle cx="50" cy="50" r="34" fill="none" stroke="#b07a0c" stroke-width="3"/>
      <circle cx="50" cy="50" r="15" fill="#c9361e" stroke="#8a5a06" stroke-width="3"/>
      <path d="M50 20v10M50 70v10M20 50h10M70 50h10M29 29l7 7M64 64l7 7M71 29l-7 7M36 64l-7 7" stroke="#8a5a06" stroke-width="4"/>`,
  // copas: a goblet
  c: html`<path d="M18 8h64c0 30-12 46-26 50v14c0 6 14 8 20 16H24c6-8 20-10 20-16V58C30 54 18 38 18 8z"
      fill="#cf3b2b" stroke="#7d1c10" stroke-width="4" stroke-linejoin="round"/>
      <path d="M18 8h64" stroke="#e9b425" stroke-width="8" stroke-linecap="round"/>
      <path d="M30 22c2 12 8 22 20 26" fill="none" stroke="#f2c9a0" stroke-width="4" stroke-linecap="round"/>
      <rect x="40" y="62" width="20" height="6" rx="2" fill="#e9b425"/>`,
  // espadas: a sword, point down
  e: html`<path d="M44 30h12v52l-6 16-6-16z" fill="#9bb8d8" stroke="#26446e" stroke-width="3" stroke-linejoin="round"/>
      <path d="M50 32v58" stroke="#26446e" stroke-width="2"/>
      <rect x="26" y="24" width="48" height="8" rx="4" fill="#e9b425" stroke="#8a5a06" stroke-width="3"/>
      <rect x="45" y="8" width="10" height="16" rx="3" fill="#2f5fa0" stroke="#26446e" stroke-width="3"/>
      <circle cx="50" cy="7" r="6" fill="#e9b425" stroke="#8a5a06" stroke-width="3"/>`,
  // bastos: a knotted club
  b: html`<path d="M40 96c-3-26-6-52-2-78 1-8 7-14 13-14s13 6 14 14c3 26-2 52-7 78z"
      fill="#3f8a3a" stroke="#1f4a1c" stroke-width="4" stroke-linejoin="round"/>
      <circle cx="44" cy="34" r="5" fill="#7a4a1e"/><circle cx="57" cy="50" r="5" fill="#7a4a1e"/>
      <circle cx="46" cy="66" r="4" fill="#7a4a1e"/><circle cx="55" cy="80" r="4" fill="#7a4a1e"/>
      <path d="M48 10c-3 8-4 16-4 20" stroke="#8fd07e" stroke-width="3" fill="none" stroke-linecap="round"/>`,
};

addShapes(
  'spanish',
  html`<linearGradient id="g-spanish" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#fffaf0"/><stop offset="1" stop-color="#f3e8d2"/>
    </linearGradient>
    <pattern id="p-back-blue" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="14" height="14" fill="#1f4e8c"/><circle cx="7" cy="7" r="3" fill="#e9b425"/>
    </pattern>
    ${Object.entries(SPANISH_SUITS).map(([k, d]) => html`<symbol id="ss-${k}" viewBox="0 0 100 100">${d}</symbol>`)}`,
);

const SX1 = 72, SX2 = 120, SX3 = 168;
const ES_LAYOUT = {
  2: [[SX2, 100], [SX2, 270]],
  3: [[SX2, 82], [SX2, 185], [SX2, 288]],
  4: [[SX1, 100], [SX3, 100], [SX1, 270], [SX3, 270]],
  5: [[SX1, 92], [SX3, 92], [SX2, 185], [SX1, 278], [SX3, 278]],
  6: [[SX1, 82], [SX3, 82], [SX1, 185], [SX3, 185], [SX1, 288], [SX3, 288]],
  7: [[SX1, 82], [SX3, 82], [SX2, 134], [SX1, 185], [SX3, 185], [SX1, 288], [SX3, 288]],
};
const SUIT_INK = { o: '#b07a0c', c: '#b4291c', e: '#26446e', b: '#2f6b2a' };
const ROBE = { o: '#e0a52a', c: '#c4362a', e: '#3566a8', b: '#3f8a3a' };

export function parseSpanish(card) {
  return { rank: Number(card.slice(0, -1)), suit: card.slice(-1) };
}

// the frame's breaks ("pintas") tell the suit: oros none, copas one, espadas two, bastos three
function pintas(suit) {
  const gaps = { o: 0, c: 1, e: 2, b: 3 }[suit];
  const segs = [];
  const left = 18, right = 222;
  const cuts = [];
  for (let i = 0; i < gaps; i++) cuts.push(left + ((right - left) * (i + 1)) / (gaps + 1));
  let x = left;
  for (const c of cuts) {
    segs.push([x, c - 9]);
    x = c + 9;
  }
  segs.push([x, right]);
  const line = (y) => segs.map(([a, b]) => html`<line x1="${a}" y1="${y}" x2="${b}" y2="${y}"/>`);
  return html`<g stroke="${SUIT_INK[suit]}" stroke-width="4" stroke-linecap="round">
    ${line(18)}${line(352)}<line x1="18" y1="18" x2="18" y2="352"/><line x1="222" y1="18" x2="222" y2="352"/></g>`;
}

function figure(rank, suit) {
  const robe = ROBE[suit];
  const sym = (x, y, s) => html`<use href="#ss-${suit}" x="${x}" y="${y}" width="${s}" height="${s}"/>`;
  const head = (x, y) =>
    html`<circle cx="${x}" cy="${y}" r="20" fill="#f3d2b0" stroke="#5a3b22" stroke-width="3"/>
     <circle cx="${x - 7}" cy="${y - 3}" r="2.5" fill="#3a2616"/><circle cx="${x + 7}" cy="${y - 3}" r="2.5" fill="#3a2616"/>`;
  if (rank === 11) {
    // caballo: a rider on a horse
    return html`<g stroke="#3a2616" stroke-width="3" stroke-linejoin="round">
      <path d="M60 250c0-30 22-46 58-46h40c10-20 14-40 30-52l10 10-6 8 8 6c-6 14-14 22-22 34v40c0 12-8 18-18 18H80c-12 0-20-8-20-18z" fill="#c89b6d"/>
      <path d="M78 262l-8 58M104 266l-4 54M150 266l4 54M170 258l10 60" stroke-width="8" stroke-linecap="round"/>
      <path d="M186 156l14-10" stroke-width="4"/>
      <path d="M96 206c-4-26 2-50 24-58h18c18 8 22 30 18 58z" fill="${robe}"/>
      ${head(128, 124)}
      <path d="M108 112c4-20 36-20 40 0z" fill="${robe}"/>
    </g>${sym(54, 150, 54)}`;
  }
  const crown =
    rank === 12
      ? html`<path d="M98 90l6-22 12 14 8-20 8 20 12-14 6 22z" fill="#e9b425" stroke="#8a5a06" stroke-width="3"/>`
      : html`<path d="M96 94c6-22 42-22 48 0z" fill="${robe}" stroke="#3a2616" stroke-width="3"/>
         <path d="M140 84c12-8 20-18 18-30" stroke="#b4291c" stroke-width="4" fill="none"/>`;
  const beard = rank === 12 ? html`<path d="M108 116c4 18 20 18 24 0z" fill="#8a6a48"/>` : '';
  return html`<g stroke="#3a2616" stroke-width="3" stroke-linejoin="round">
      <path d="M80 318l12-150c6-22 50-22 56 0l12 150z" fill="${robe}"/>
      <path d="M92 200h56M88 250h64" stroke="#e9b425" stroke-width="5"/>
      <path d="M120 150v168" stroke-width="2" opacity=".5"/>
      ${head(120, 110)}${beard}${crown}
    </g>${sym(rank === 12 ? 138 : 52, rank === 12 ? 176 : 170, 62)}`;
}

/** A Spanish card ("12o", "1e", "7c"): oros, copas, espadas, bastos; named `label` when
 * given (see `exposed`). */
export function spanishCard(card, { cls = '', label = '' } = {}) {
  const { rank, suit } = parseSpanish(card);
  const sym = (x, y, s) => html`<use href="#ss-${suit}" x="${x - s / 2}" y="${y - s / 2}" width="${s}" height="${s}"/>`;
  let middle;
  if (rank === 1) middle = sym(120, 185, 150);
  else if (ES_LAYOUT[rank]) {
    const tall = suit === 'e' || suit === 'b';
    const size = tall ? (rank > 5 ? 92 : 104) : rank > 5 ? 70 : 80;
    middle = ES_LAYOUT[rank].map(([x, y]) => sym(x, y, size));
  }
  else middle = figure(rank, suit);
  const num = (x, y) =>
    html`<text x="${x}" y="${y}" text-anchor="middle" font-family="Georgia, serif" font-size="30" font-weight="700" fill="${SUIT_INK[suit]}">${rank}</text>`;
  return html`<svg ${NS} class="card spanish ${cls}" viewBox="0 0 240 370" ${exposed(label)}>
    <rect x="2" y="2" width="236" height="366" rx="16" fill="url(#g-spanish)" stroke="#a89d88" stroke-width="3"/>
    ${pintas(suit)}
    <rect x="26" y="30" width="32" height="34" rx="6" fill="#fffaf0"/>${num(42, 57)}
    <rect x="182" y="306" width="32" height="34" rx="6" fill="#fffaf0"/>${num(198, 333)}
    ${middle}
  </svg>`;
}

/** The back of a Spanish card (a hidden card). */
export function spanishBack({ cls = '' } = {}) {
  return cardBack({ deck: 'spanish', width: 240, height: 370, pattern: 'p-back-blue', ink: '#1f4e8c', cls });
}

/** A Spanish card as a small chip for running text: rank and suit symbol. */
export function spanishChip(card) {
  return cardChip(card.slice(0, -1), `ss-${card.slice(-1)}`, { cls: 'spanish' });
}
