// The hand summary: what a hand came to, as the game's board module sums it up
// (`summary(c)`), opened by itself when a new hand's summary comes (`summaryKey(c)`)
// and closed or opened again by the player.

import { t } from '../i18n.js';
import { html } from '../html.js';
import { ctx, game } from './state.js';

/** Open the summary by itself when the game has a new one (not on opening the page:
 * `quiet`, unless the page has already seen one). */
export function noteSummary(page, quiet) {
  const { S } = page;
  const g = game(page);
  if (!g?.summaryKey || !S.view) return;
  const key = g.summaryKey(ctx(page));
  if (key && key !== S.summaryKey) {
    if (S.summaryKey !== null || !quiet) {
      S.summaryOpen = true;
      S.summaryNew = true;
    }
    S.summaryKey = key;
  }
}

/** The summary's panel at the top of the side, while it is open. */
export function summaryPanel(page, summary) {
  if (!summary || !page.S.summaryOpen) return '';
  return html`<section class="panel hand-summary" aria-labelledby="summary-title">
                <h2 class="sr-only" id="summary-title">${t('summary.title')}</h2>
                <button class="close" data-close-summary data-key="close-summary" aria-label="${t('close')}">×</button>
                ${summary}</section>`;
}

/** The way to open it again, below the scores, while it is closed. */
export function summaryButton(page, summary) {
  if (!summary || page.S.summaryOpen) return '';
  return html`<section class="panel"><h2>${t('summary.title')}</h2>
                <button class="btn ghost small" data-open-summary data-key="open-summary">${t('summary.show')}</button></section>`;
}

/** Its buttons: close, open again. */
export function bindSummary(page) {
  const show = (open) => () => {
    page.S.summaryOpen = open;
    page.render();
  };
  page.app.querySelectorAll('[data-close-summary]').forEach((b) => (b.onclick = show(false)));
  page.app.querySelectorAll('[data-open-summary]').forEach((b) => (b.onclick = show(true)));
}
