// Eleven at the table (a plug-in game: tests/plugins/eleven/README.md). The club loads
// this module through its registry (/api/games: web.board) and calls what it exports,
// as it does for its own games; its words are in lang/*.json beside it.

import { t, tn } from '/static/js/i18n.js';
import { html } from '/static/js/html.js';
import { actor, nameText } from '/static/js/ui.js';

const colour = (card) => (card.endsWith('a') ? 'amber' : 'blue');
const cardText = (card) => t(`eleven.card_${colour(card)}`, { n: card.slice(0, -1) });
const chip = (card) => html`<span class="eleven-card ${colour(card)}">${cardText(card)}</span>`;

const eleven = {
  illustration() {
    return html`<span class="eleven-ill">${chip('5a')}${chip('6b')}</span>`;
  },

  settingsSummary(settings) {
    return [t('eleven.target_n', { n: settings.target })];
  },

  board(c) {
    const v = c.view;
    const seats = Array.from({ length: c.seats }, (_, s) => s);
    return html`<div class="eleven-board">
      <ul class="eleven-seats">${seats.map(
        (s) => html`<li class="eleven-seat${v.turn === s ? ' turn' : ''}" data-seat="${s}">
          ${nameText(c.label(s))} · ${tn('eleven.points_n', v.scores[s])} · ${tn('eleven.cards_n', v.hand_sizes[s])}</li>`,
      )}</ul>
      <p class="eleven-total" aria-live="polite">${t('eleven.total', { n: v.total })}
        · ${t('eleven.stock', { n: v.stock })}</p>
      <p class="eleven-pile">${v.played.length ? v.played.map(chip) : t('eleven.empty')}</p>
    </div>`;
  },

  controls(c) {
    const v = c.view;
    if (!v.hand) return '';
    const plays = c.legal.filter((a) => a.type === 'play');
    const claim = c.legal.find((a) => a.type === 'claim');
    return html`<div class="eleven-hand" role="group" aria-label="${t('eleven.your_hand')}">${v.hand.map((card) => {
      const ok = plays.some((a) => a.card === card);
      return html`<button type="button" class="btn eleven-play" data-card="${card}" data-key="card-${card}"${
        ok ? '' : html` aria-disabled="true"`
      }>${chip(card)}</button>`;
    })}</div>${
      claim ? html`<button type="button" class="btn primary" data-claim data-key="claim">${t('eleven.claim')}</button>` : ''
    }`;
  },

  bind(root, c) {
    root.querySelectorAll('.eleven-play').forEach((b) => {
      b.onclick = () => {
        const a = c.legal.find((x) => x.type === 'play' && x.card === b.dataset.card);
        if (a) c.act(a);
      };
    });
    const claim = root.querySelector('[data-claim]');
    if (claim) claim.onclick = () => c.act(c.legal.find((x) => x.type === 'claim'));
  },

  narrate(e, c) {
    if (e.type === 'deal') return { kind: 'deal', cls: 'sep', html: html`${t('eleven.log.deal', { n: e.hand + 1, name: c.name(e.dealer) })}` };
    if (e.type === 'play') {
      const made = e.eleven ? html` <b>${t('eleven.log.eleven')}</b>` : '';
      return { kind: 'play', html: html`${actor(c, e.seat)} ${t('eleven.log.play', { card: cardText(e.card), n: e.total })}${made}` };
    }
    if (e.type === 'claim') return { kind: 'claim', html: html`${actor(c, e.seat)} ${t('eleven.log.claim', { n: e.points })}` };
    if (e.type === 'lapse') return { kind: 'lapse', html: html`${t('eleven.log.lapse', { name: c.name(e.seat) })}` };
    if (e.type === 'hand_end') return { kind: 'hand_end', html: html`${t('eleven.log.last', { name: c.name(e.last), n: e.points })}` };
    if (e.type === 'game_end') return { kind: 'game_end', html: html`${t('eleven.log.won', { name: c.name(e.winner) })}` };
    return null;
  },

  describe(action) {
    return action.type === 'claim' ? t('eleven.claim') : cardText(action.card);
  },

  winnerText(c) {
    const w = c.view.winner;
    if (w === null || w === undefined) return t('table.game_over');
    return w === c.me ? t('result.you_win') : t('result.wins', { name: c.name(w) });
  },

  finalScores(c) {
    const v = c.view;
    return html`<ol class="final">${v.scores.map(
      (p, s) => html`<li${s === v.winner ? html` class="winner"` : ''}><span>${c.name(s)}</span><b>${p}</b></li>`,
    )}</ol>`;
  },
};

export default eleven;
