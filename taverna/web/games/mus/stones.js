// Mus stones as the table counts them (docs/rules.md §3.2), drawn as SVG.

import { html } from '/static/js/html.js';
import { NS } from '/static/js/svg.js';

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
