// Tiles, cards, score sheets and stones, drawn as SVG by our own code (no assets).
//
// Every function returns SVG markup (js/html.js). Shared shapes (suits, gradients)
// live in one sprite added to the page once (installSprite), referenced by <use>.

import { html, setMarkup } from './html.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const NS = html`xmlns="${SVG_NS}"`;

// ------------------------------------------------------------------ sprite

const FRENCH_SUITS = {
  // heart, diamond, spade, club in a 100x100 box
  H: html`<path d="M50 92C22 68 4 52 4 31 4 15 16 4 30 4c9 0 16 5 20 13 4-8 11-13 20-13 14 0 26 11 26 27 0 21-18 37-46 61z"/>`,
  D: html`<path d="M50 2 88 50 50 98 12 50z"/>`,
  S: html`<path d="M50 4C36 22 6 40 6 62c0 14 11 23 23 23 9 0 15-4 19-10-1 9-4 15-9 21h22c-5-6-8-12-9-21 4 6 10 10 19 10 12 0 23-9 23-23C94 40 64 22 50 4z"/>`,
  C: html`<circle cx="50" cy="27" r="20"/><circle cx="27" cy="60" r="20"/><circle cx="73" cy="60" r="20"/><path d="M44 50h12c0 22 3 33 11 46H33c8-13 11-24 11-46z"/>`,
};

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

export function installSprite() {
  if (document.getElementById('taverna-sprite')) return;
  const suits = Object.entries(FRENCH_SUITS).map(
    ([k, d]) => html`<symbol id="fs-${k}" viewBox="0 0 100 100">${d}</symbol>`,
  );
  const spanish = Object.entries(SPANISH_SUITS).map(
    ([k, d]) => html`<symbol id="ss-${k}" viewBox="0 0 100 100">${d}</symbol>`,
  );
  // hidden by its class (css/taverna.css): the page's policy allows no inline style
  const sprite = document.createElementNS(SVG_NS, 'svg');
  sprite.id = 'taverna-sprite';
  sprite.setAttribute('class', 'sprite');
  sprite.setAttribute('aria-hidden', 'true');
  sprite.setAttribute('focusable', 'false');
  setMarkup(
    sprite,
    html`<defs>
      <linearGradient id="g-ivory" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#eee4cc"/>
      </linearGradient>
      <linearGradient id="g-card" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#f1ede4"/>
      </linearGradient>
      <linearGradient id="g-spanish" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#fffaf0"/><stop offset="1" stop-color="#f3e8d2"/>
      </linearGradient>
      <pattern id="p-back-red" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="16" height="16" fill="#9d2330"/><path d="M0 8h16M8 0v16" stroke="#c8505a" stroke-width="3"/>
      </pattern>
      <pattern id="p-back-blue" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="14" height="14" fill="#1f4e8c"/><circle cx="7" cy="7" r="3" fill="#e9b425"/>
      </pattern>
      <linearGradient id="g-bone-back" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#3a2a20"/><stop offset="1" stop-color="#1d140e"/>
      </linearGradient>
      ${suits}${spanish}
    </defs>`,
  );
  document.body.prepend(sprite);
}

// --------------------------------------------------------------- dominoes

const A = 27, B = 50, C = 73;
const PIPS = {
  0: [],
  1: [[B, B]],
  2: [[A, A], [C, C]],
  3: [[A, A], [B, B], [C, C]],
  4: [[A, A], [C, A], [A, C], [C, C]],
  5: [[A, A], [C, A], [B, B], [A, C], [C, C]],
  6: [[A, A], [B, A], [C, A], [A, C], [B, C], [C, C]],
};

function pips(n, ox, oy, vertical) {
  return PIPS[n].map(([x, y]) => {
    const [px, py] = vertical ? [y, x] : [x, y];
    return html`<circle cx="${ox + px}" cy="${oy + py}" r="9"/>`;
  });
}

/** A domino tile "a-b": `a` on the left (or top when vertical). */
export function domino(tile, { vertical = false, cls = '' } = {}) {
  const [a, b] = tile.split('-').map(Number);
  const w = vertical ? 104 : 204, h = vertical ? 204 : 104;
  const divider = vertical
    ? html`<line x1="16" y1="102" x2="88" y2="102"/>`
    : html`<line x1="102" y1="16" x2="102" y2="88"/>`;
  const second = vertical ? pips(b, 2, 102, true) : pips(b, 102, 2, false);
  return html`<svg ${NS} class="tile ${cls}" viewBox="0 0 ${w} ${h}" aria-hidden="true">
    <rect x="2" y="2" width="${w - 4}" height="${h - 4}" rx="14" fill="url(#g-ivory)" stroke="#6b5842" stroke-width="3"/>
    <g stroke="#8d7a62" stroke-width="4" stroke-linecap="round">${divider}</g>
    <g fill="#1e1a16">${pips(a, 2, 2, vertical)}${second}</g>
  </svg>`;
}

/** The back of a domino tile (a hidden tile). */
export function dominoBack({ vertical = true, cls = '' } = {}) {
  const w = vertical ? 104 : 204, h = vertical ? 204 : 104;
  return html`<svg ${NS} class="tile back ${cls}" viewBox="0 0 ${w} ${h}" aria-hidden="true">
    <rect x="2" y="2" width="${w - 4}" height="${h - 4}" rx="14" fill="url(#g-bone-back)" stroke="#0d0906" stroke-width="3"/>
    <circle cx="${w / 2}" cy="${h / 2}" r="12" fill="none" stroke="#b8893a" stroke-width="4"/>
  </svg>`;
}

// ---------------------------------------------------------- French cards

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

/** How a drawn card is exposed: an image named `label` (a card standing alone: a button's
 * content, whose name it gives), or hidden from assistive technology (a card named by what
 * holds it, or shown beside words that say it). Its printed indices are part of the
 * picture, like the letters of a photographed card: the image has a name, not text. */
function exposed(label) {
  return label ? html`role="img" aria-label="${label}"` : html`aria-hidden="true"`;
}

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

export function cardBack({ spanish = false, cls = '' } = {}) {
  const w = spanish ? 240 : 250, h = spanish ? 370 : 350;
  return html`<svg ${NS} class="card back ${spanish ? 'spanish' : 'french'} ${cls}" viewBox="0 0 ${w} ${h}" aria-hidden="true">
    <rect x="2" y="2" width="${w - 4}" height="${h - 4}" rx="18" fill="#fbf8f1" stroke="#b9b2a4" stroke-width="3"/>
    <rect x="16" y="16" width="${w - 32}" height="${h - 32}" rx="10" fill="url(#${
      spanish ? 'p-back-blue' : 'p-back-red'
    })"/>
    <circle cx="${w / 2}" cy="${h / 2}" r="34" fill="#fbf8f1" opacity=".9"/>
    <text x="${w / 2}" y="${h / 2 + 14}" text-anchor="middle" font-family="Georgia, serif" font-size="40"
      font-weight="700" fill="${spanish ? '#1f4e8c' : '#9d2330'}">T</text>
  </svg>`;
}

// --------------------------------------------------------- Spanish cards

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

// ------------------------------------------------------- the score sheet

/** One 50-point symbol with `strokes` of its ten strokes drawn (docs/rules.md §1.8).
 * The big X first (two strokes), then a small x in each of the four spaces (two strokes each). */
function fifty(strokes, x0) {
  const lines = [
    [x0 + 6, 6, x0 + 74, 74],
    [x0 + 74, 6, x0 + 6, 74],
  ];
  // the four spaces around the X: top, right, bottom, left; each small x as big as its
  // space allows (its half strokes, 15, 25, …, are read at a glance, not guessed)
  const spaces = [
    [x0 + 40, 15],
    [x0 + 65, 40],
    [x0 + 40, 65],
    [x0 + 15, 40],
  ];
  const h = 7;
  for (const [cx, cy] of spaces) {
    lines.push([cx - h, cy - h, cx + h, cy + h], [cx + h, cy - h, cx - h, cy + h]);
  }
  return lines
    .slice(0, strokes)
    .map(([a, b, c, d], i) => html`<line x1="${a}" y1="${b}" x2="${c}" y2="${d}" stroke-width="${i < 2 ? 5.5 : 4.5}"/>`);
}

/** A score as the seed's paper sheet: a stroke is 5, ten strokes (X and four x) are 50. */
export function scoreSheet(score, label) {
  const negative = score < 0;
  const strokes = Math.floor(Math.abs(score) / 5);
  const full = Math.floor(strokes / 10);
  const part = strokes % 10;
  const n = full + (part ? 1 : 0);
  const body = [];
  for (let i = 0; i < full; i++) body.push(fifty(10, i * 86));
  if (part) body.push(fifty(part, full * 86));
  const width = Math.max(86, n * 86);
  return html`<svg ${NS} class="sheet${negative ? ' negative' : ''}" viewBox="-4 0 ${width} 80" role="img" aria-label="${label}">
    <g stroke="${negative ? '#b3261e' : '#22304a'}" stroke-linecap="round" fill="none">${
      n ? body : html`<line x1="10" y1="40" x2="60" y2="40" stroke-width="2" stroke-dasharray="4 6" opacity=".4"/>`
    }</g></svg>`;
}

// ----------------------------------------------------- Mus stones

/** Stones as amarracos (each worth five) and single stones. */
export function stones(count, label) {
  const amarracos = Math.floor(count / 5);
  const single = count % 5;
  let x = 4;
  const out = [];
  for (let i = 0; i < amarracos; i++) {
    out.push(html`<rect class="amarraco" x="${x}" y="6" width="16" height="36" rx="7"/>`);
    x += 22;
  }
  if (amarracos && single) x += 6;
  for (let i = 0; i < single; i++) {
    out.push(html`<circle class="stone" cx="${x + 8}" cy="${i % 2 ? 16 : 32}" r="7.5"/>`);
    x += 13;
  }
  const width = Math.max(x + 6, 30);
  return html`<svg ${NS} class="stones" viewBox="0 0 ${width} 48" role="img" aria-label="${label}">${out}</svg>`;
}

/** A card as a small chip for running text: rank and suit symbol. */
export function cardChip(card, { spanish = false } = {}) {
  const suit = card.slice(-1);
  const rank = card.slice(0, -1);
  const red = spanish ? false : suit === 'H' || suit === 'D';
  const sprite = spanish ? `ss-${suit}` : `fs-${suit}`;
  return html`<span class="card-chip${red ? ' red' : ''}${spanish ? ' spanish' : ''}">${rank}<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#${sprite}"/></svg></span>`;
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
