// The dominoes score sheet (docs/rules.md §1.8): a score as strokes on paper, drawn as SVG.

import { html } from '/static/js/html.js';
import { NS } from '/static/js/svg.js';

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
