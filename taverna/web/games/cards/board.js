// Muggins cards at the table (docs/rules.md §2): the pile with its running total and
// the limit, the stock, go, a Claim button after your scoring play and a
// Muggins! button for everyone else while a score is unclaimed (view.pending).

import { t, tn } from '/static/js/i18n.js';
import { html } from '/static/js/html.js';
import { actor, nameText, thing } from '/static/js/ui.js';
import { frenchBack, frenchCard, frenchChip, parseFrench } from './deck.js';

const SUIT_KEYS = { S: 'fr.spades', H: 'fr.hearts', D: 'fr.diamonds', C: 'fr.clubs' };
const RANK_KEYS = { A: 'fr.ace', J: 'fr.jack', Q: 'fr.queen', K: 'fr.king' };

function cardLabel(card) {
  const { rank, suit } = parseFrench(card);
  return t('fr.card', { rank: RANK_KEYS[rank] ? t(RANK_KEYS[rank]) : rank, suit: t(SUIT_KEYS[suit]) });
}

const mini = (card) => frenchChip(card);

function seatsFrom(c) {
  const start = c.me ?? 0;
  return Array.from({ length: c.seats }, (_, i) => (start + i) % c.seats);
}

function playOf(c, card) {
  return c.legal.find((a) => a.type === 'play' && a.card === card && !a.claim);
}

function claimingPlayOf(c, card) {
  return c.legal.find((a) => a.type === 'play' && a.card === card && a.claim);
}

let claimWithPlay = null;
function claimPref() {
  if (claimWithPlay === null) {
    try {
      claimWithPlay = localStorage.getItem('taverna.claimWithPlay') === '1';
    } catch {
      claimWithPlay = false;
    }
  }
  return claimWithPlay;
}

function setClaimPref(on) {
  claimWithPlay = on;
  try {
    localStorage.setItem('taverna.claimWithPlay', on ? '1' : '0');
  } catch {
    /* not remembered */
  }
}

function credit(c, seat, points, why) {
  c.notes.round ??= { n: 0, items: [] };
  c.notes.round.items.push({ seat, points, why });
}

const cards = {
  game: 'muggins-cards',

  // ----------------------------------------------------- in the lobby

  illustration() {
    return html`<span class="ill-c">${frenchCard('5H')}</span><span class="ill-d">${frenchCard('KS')}</span>`;
  },

  settingsSummary(settings) {
    const out = [t('cards.set.target_n', { n: settings.target }), t('cards.set.limit_n', { n: settings.limit })];
    if (settings.hand_size === 7) out.push(t('cards.set.deal_seven'));
    if (!settings.muggins) out.push(t('cards.set.no_muggins'));
    if (settings.muggins_on_last) out.push(t('cards.set.muggins_on_last'));
    return out;
  },

  /** A card or tile in notation, in words (messages about it). */
  thingLabel: cardLabel,

  /** An action in words, its card drawn as at the table (replays; markup). */
  describe(a) {
    if (a.type !== 'play') return html`${t(`replay.action.${a.type}`)}`;
    const claim = a.claim ? ` + ${t('replay.action.claim')}` : '';
    return html`${t('replay.action.play')} ${thing(mini(a.card), cardLabel(a.card))}${claim}`;
  },

  /** Why a hint suggests its move (the server's `why`), in the game's words; null for
   * the reasons every game shares (js/table.js says those). */
  whyText(w) {
    return w.key === 'scores' ? t('cards.why.scores', { points: w.points }) : null;
  },

  learn(e, c) {
    const n = c.notes;
    switch (e.type) {
      case 'deal':
        n.round = { n: e.round, items: [] };
        n.last = null;
        break;
      case 'play':
        n.last = { card: e.card, seat: e.seat };
        if (e.credit) credit(c, e.seat, e.credit, ['cards.why.play', { total: e.total }]);
        break;
      case 'claim':
        if (e.credit) credit(c, e.seat, e.credit, ['cards.why.claim', {}]);
        break;
      case 'muggins':
        if (e.credit) credit(c, e.seat, e.credit, ['cards.why.muggins', { from: e.from }]);
        break;
      case 'pile_closed':
        if (e.credit) credit(c, e.seat, e.credit, ['cards.why.last', {}]);
        break;
      case 'lost':
        credit(c, e.seat, 0, ['cards.why.lost', { n: e.points }]);
        break;
      case 'round_end':
        n.lastRound = { ...(n.round || { items: [] }), n: e.round, scores: e.scores };
        break;
      default:
    }
  },

  narrate(e, c) {
    const who = actor(c, e.seat);
    switch (e.type) {
      case 'deal':
        return {
          kind: 'deal',
          cls: 'sep',
          html: html`${t('cards.log.deal', { n: e.round + 1, dealer: c.name(e.dealer), leader: c.name(e.leader) })}`,
        };
      case 'play': {
        let tail = '';
        if (e.credit) tail = html` <span class="plus">+${e.credit}</span>`;
        else if (e.pending) tail = html` <span class="pending">${t('cards.log.unclaimed', { n: e.pending })}</span>`;
        return {
          kind: 'play',
          cls: e.credit ? 'scored' : '',
          html: html`${who} ${t('cards.log.play')} ${mini(e.card)} · ${t('cards.log.total', { n: e.total })}${tail}`,
        };
      }
      case 'draw':
        return e.card
          ? { kind: 'draw', cls: 'minor', html: html`${who} ${t('cards.log.draw')} ${mini(e.card)}` }
          : null;
      case 'go':
        return { kind: 'go', html: html`${who} ${t('cards.log.go')}` };
      case 'claim':
        return {
          kind: 'claim',
          cls: 'scored',
          html: html`${who} ${t('cards.log.claim', { n: e.points })} <span class="plus">+${e.credit}</span>`,
        };
      case 'muggins':
        return {
          kind: 'muggins',
          cls: 'scored big',
          html: html`<b>${t('cards.muggins')}</b> ${t('cards.log.muggins', { name: c.name(e.seat), from: c.name(e.from), n: e.points })} <span class="plus">+${e.credit}</span>`,
        };
      case 'lost':
        return { kind: 'lost', html: html`${tn('cards.log.lost', e.points, { name: c.name(e.seat) })}` };
      case 'pile_closed': {
        let text;
        if (e.reason === 'limit') text = t('cards.log.closed_limit', { total: e.total, name: c.name(e.seat) });
        else if (e.reason === 'go') text = t('cards.log.closed_go', { name: c.name(e.seat), n: e.last });
        else text = t('cards.log.closed_last', { name: c.name(e.seat), n: e.last });
        const tail = e.credit ? html` <span class="plus">+${e.credit}</span>` : '';
        return { kind: 'pile_closed', cls: e.credit ? 'scored' : '', html: html`${text}${tail}` };
      }
      case 'round_end':
        return { kind: 'round_end', cls: 'big', html: html`${t('cards.log.round_end', { n: e.round + 1 })}` };
      case 'game_end':
        return {
          kind: 'game_end',
          cls: 'big win',
          html: html`${t('log.wins', { name: c.name(e.winner), score: e.scores[e.winner] })}`,
        };
      default:
        return null;
    }
  },

  board(c) {
    const v = c.view;
    const others = seatsFrom(c).filter((s) => s !== c.me);
    const plates = others
      .map((s) => {
        const n = v.hand_sizes[s];
        const shown = c.hands?.[s];
        const fan = shown
          ? shown.map((x) => html`<span class="card-small">${frenchCard(x)}</span>`)
          : Array.from({ length: n }, () => html`<span class="card-small">${frenchBack()}</span>`);
        // one picture of the cards held: how many, and which when they are shown (a replay)
        const held = shown ? `${tn('cards.cards_n', shown.length)}: ${shown.map(cardLabel).join(', ')}` : tn('cards.cards_n', n);
        const tags = [
          v.dealer === s ? html`<span class="tag dealer" title="${t('cards.dealer')}">${t('cards.dealer_short')}</span>` : '',
          v.gone.includes(s) ? html`<span class="tag go">${t('cards.go')}</span>` : '',
          v.pending?.seat === s ? html`<span class="tag pending">${t('cards.unclaimed_short', { n: v.pending.points })}</span>` : '',
        ];
        return html`<div class="plate${v.turn === s ? ' turn' : ''}" data-seat="${s}">
          <div class="plate-name">${nameText(c.label(s))} ${tags}</div>
          <div class="plate-cards fan" role="img" aria-label="${held}">${fan}</div>
          <div class="plate-score">${tn('cards.points_n', v.scores[s])}</div>
        </div>`;
      });
    const last = c.notes.last;
    const pile = v.pile
      .map(
        (card, i) =>
          html`<span class="pile-card${last && last.card === card && i === v.pile.length - 1 ? ' last' : ''}" data-piece="${card}" data-vars="--i: ${i}" role="listitem" aria-label="${cardLabel(card)}">${frenchCard(card)}</span>`,
      );
    const pct = Math.min(100, (100 * v.total) / v.limit);
    const fives = v.total > 0 && v.total % 5 === 0;
    return html`<div class="plates">${plates}</div>
      <div class="cards-center">
        <div class="stock" aria-label="${tn('cards.stock_n', v.stock)}">
          <span class="stock-card">${v.stock ? frenchBack() : ''}</span>
          <span>${t('cards.stock')} <b>${v.stock}</b></span>
        </div>
        <div class="pile-wrap">
          ${
            pile.length
              ? html`<div class="pile" role="list" aria-label="${t('cards.pile')}">${pile}</div>`
              : html`<div class="pile"><span class="pile-empty">${t('cards.new_pile')}</span></div>`
          }
        </div>
        <div class="total-box${fives ? ' fives' : ''}${v.total === v.limit ? ' limit' : ''}" aria-label="${t('cards.total_of', { n: v.total, limit: v.limit })}">
          <span class="total-label">${t('cards.total')}</span>
          <span class="total-num">${v.total}</span>
          <span class="total-limit">/ ${v.limit}</span>
          <span class="total-bar" aria-hidden="true"><span data-vars="--pct: ${pct}%"></span></span>
        </div>
      </div>
      ${
        v.pending
          ? html`<div class="pending-box" role="alert">${t('cards.pending', { name: c.name(v.pending.seat), n: v.pending.points })}</div>`
          : ''
      }`;
  },

  controls(c) {
    const v = c.view;
    if (c.me === null) return c.hands ? '' : html`<p class="muted center">${t('table.spectating')}</p>`;
    const hand = c.hands?.[c.me] ?? v.hand ?? [];
    const myTurn = v.turn === c.me && c.interactive;
    const cardsHtml = hand
      .map((card) => {
        const ok = myTurn && !!playOf(c, card);
        // named by its picture; focusable even when it cannot be played (aria-disabled), so
        // the focus stays in the hand while the others play
        return html`<button class="hand-card${ok ? ' playable' : ''}" data-card="${card}" data-key="card-${card}"
          ${ok ? '' : html`aria-disabled="true"`}>${frenchCard(card, { label: cardLabel(card) })}${
            myTurn && !ok ? html`<span class="sr-only">, ${t('cards.cannot_play')}</span>` : ''
          }</button>`;
      });
    const has = (type) => c.legal.some((a) => a.type === type);
    const buttons = [];
    if (has('claim')) {
      buttons.push(html`<button class="btn action claim pulse" data-act="claim" data-key="act-claim">${t('cards.claim_n', { n: v.pending?.points ?? '' })} <kbd>C</kbd></button>`);
    }
    if (has('muggins')) {
      buttons.push(html`<button class="btn action muggins pulse" data-act="muggins" data-key="act-muggins">${t('cards.muggins')} <kbd>M</kbd></button>`);
    }
    if (has('go')) {
      buttons.push(html`<button class="btn action" data-act="go" data-key="act-go">${t('cards.go')} <kbd>G</kbd></button>`);
    }
    const muggins = v.settings.muggins;
    let hint = '';
    if (myTurn && has('go')) hint = t('cards.hint_go', { limit: v.limit });
    else if (myTurn) hint = t('cards.hint_play', { limit: v.limit });
    return html`<div class="me-plate${v.turn === c.me ? ' turn' : ''}">
        <span class="plate-name">${nameText(c.label(c.me))}${v.dealer === c.me ? html` <span class="tag dealer">${t('cards.dealer_short')}</span>` : ''}</span>
        <span class="plate-score">${tn('cards.points_n', v.scores[c.me])}</span>
      </div>
      <div class="hand cards-hand" role="group" aria-label="${t('cards.your_cards')}">${cardsHtml}</div>
      <div class="actions">${buttons}</div>
      ${
        muggins && !c.hands
          ? html`<label class="check inline"><input type="checkbox" data-claim-pref${claimPref() ? html` checked` : ''}><span>${t('cards.claim_with_play')}</span></label>`
          : ''
      }
      <p class="hint" aria-live="polite">${hint}</p>`;
  },

  bind(root, c) {
    root.querySelectorAll('.hand-card.playable').forEach((b) => {
      b.onclick = () => {
        const card = b.dataset.card;
        const play = (claimPref() && claimingPlayOf(c, card)) || playOf(c, card);
        if (!play) return;
        c.act(play); // the legal move as the server listed it
      };
    });
    root.querySelectorAll('[data-act]').forEach((b) => (b.onclick = () => c.act({ type: b.dataset.act })));
    const pref = root.querySelector('[data-claim-pref]');
    if (pref) pref.onchange = () => setClaimPref(pref.checked);
  },

  key(k, c) {
    const type = { g: 'go', c: 'claim', m: 'muggins' }[k];
    if (type && c.legal.some((a) => a.type === type)) {
      c.act({ type });
      return true;
    }
    return false;
  },

  scores(c) {
    const v = c.view;
    return html`<ul class="score-list">${[...Array(c.seats).keys()]
      .map((s) => {
        const pct = Math.max(0, Math.min(100, (100 * v.scores[s]) / v.target));
        return html`<li class="${v.turn === s ? 'turn' : ''}${v.winner === s ? ' winner' : ''}">
          <div class="score-row"><span class="score-name">${nameText(c.label(s))}</span><span class="score-num">${v.scores[s]}</span></div>
          <div class="progress" aria-hidden="true"><span data-vars="--pct: ${pct}%"></span></div></li>`;
      })}</ul>
      <p class="muted small">${t('cards.set.target_n', { n: v.target })} · ${t('cards.round_n', { n: v.round + 1 })}</p>
      ${roundList(c, c.notes.round, t('cards.this_round'), { newestFirst: true })}`;
  },

  summaryKey(c) {
    const r = c.notes.lastRound;
    return r ? `round-${r.n}` : null;
  },

  summary(c) {
    const r = c.notes.lastRound;
    if (!r) return '';
    const totals = Array(c.seats).fill(0);
    for (const it of r.items) totals[it.seat] += it.points;
    return html`<h3>${t('cards.summary_title', { n: r.n + 1 })}</h3>
      <table class="summary-table"><thead><tr><th scope="col">${t('summary.player')}</th><th scope="col">${t('cards.this_round_points')}</th><th scope="col">${t('summary.score')}</th></tr></thead>
      <tbody>${totals
        .map((p, s) => html`<tr><th scope="row">${c.name(s)}</th><td>+${p}</td><td><b>${r.scores?.[s] ?? ''}</b></td></tr>`)}</tbody></table>
      ${roundList(c, r, t('cards.how'))}`;
  },

  winnerText(c) {
    const w = c.view.winner;
    if (w === null || w === undefined) return t('table.game_over');
    return w === c.me ? t('result.you_win') : t('result.wins', { name: c.name(w) });
  },

  finalScores(c) {
    const v = c.view;
    const order = [...Array(c.seats).keys()].sort((a, b) => v.scores[b] - v.scores[a]);
    return html`<ol class="final">${order
      .map((s) => html`<li${s === v.winner ? html` class="winner"` : ''}><span>${c.name(s)}</span><b>${v.scores[s]}</b></li>`)}</ol>`;
  },
};

/** How a credit came about, told in the language of the moment. */
function why(c, [key, params]) {
  return t(key, 'from' in params ? { ...params, name: c.name(params.from) } : params);
}

/** The credits of a round. While it is played the newest comes first, so it is the one in
 * sight (the list scrolls, and is drawn again on every move); the summary tells it in order. */
function roundList(c, round, title, { newestFirst = false } = {}) {
  if (!round || !round.items.length) return '';
  const items = round.items.slice(-40).map(
    (it, i, all) =>
      html`<li${i === all.length - 1 ? html` class="newest"` : ''}><b>${c.name(it.seat)}</b> ${
        it.points ? html`<span class="plus">+${it.points}</span>` : ''
      } <span class="muted">${why(c, it.why)}</span></li>`,
  );
  if (newestFirst) items.reverse();
  // the list scrolls in a box that takes the focus, so that a keyboard scrolls it too
  return html`<details class="credits" open><summary>${title}</summary><div class="credits-scroll" role="log" aria-live="off"
    aria-label="${title}" tabindex="0" data-key="credits-${newestFirst ? 'round' : 'summary'}"><ol${newestFirst ? html` class="newest-first"` : ''}>${items}</ol></div></details>`;
}

export default cards;
