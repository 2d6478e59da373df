// Domino tiles, face up and face down, drawn as SVG (no assets): the dominoes board's
// pieces. Their gradients join the page's sprite once (js/svg.js).

import { html } from '/static/js/html.js';
import { NS, addShapes } from '/static/js/svg.js';

addShapes(
  'dominoes',
  html`<linearGradient id="g-ivory" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#eee4cc"/>
    </linearGradient>
    <linearGradient id="g-bone-back" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#3a2a20"/><stop offset="1" stop-color="#1d140e"/>
    </linearGradient>`,
);

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
