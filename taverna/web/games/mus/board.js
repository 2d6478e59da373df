// Mus at the table (docs/rules.md §3): four seats, partners facing each other, mano
// marked; the lance being played and the betting so far; Mus / No mus, discards,
// Paso, Envido with an amount, Órdago, Quiero, No quiero; the showdown with each
// lance's result; stones as amarracos (fives) and stones, games and cows.

import { t, tn } from '/static/js/i18n.js';
import { html } from '/static/js/html.js';
import { actor, nameText, thing } from '/static/js/ui.js';
import { spanishBack, spanishCard, spanishChip } from './deck.js';
import { handSummary } from './summary.js';
import { cardLabel, lanceName, pairName, pairOf, pairShort, say, statusText } from './words.js';
import { stones } from './stones.js';

const LANCES = ['grande', 'chica', 'pares', 'juego'];
const MAX_BET = 40;

/** The federation's señas (docs/rules.md §3.8.1), by their Spanish names in every language (what
 * each means is said in the page's language, lang/*.json mus.sena.*). */
const SIGNS = {
  dos_reyes: 'dos reyes',
  dos_ases: 'dos ases',
  medias_reyes: 'medias de reyes',
  medias_ases: 'medias de ases',
  medias: 'medias',
  duples: 'duples',
  treinta_y_una: 'treinta y una',
  juego: 'juego',
  treinta: 'treinta',
  veintinueve: 'veintinueve',
  ciego: 'ciego',
};
const signName = (sign) => SIGNS[sign] ?? sign;

/** Seats around the table from where I sit: me at the bottom, partner at the top. */
function around(c) {
  const me = c.me ?? 0;
  return { bottom: me, right: (me + 1) % 4, top: (me + 2) % 4, left: (me + 3) % 4 };
}

const mus = {
  game: 'mus',

  // ----------------------------------------------------- in the lobby

  illustration() {
    return html`<span class="ill-c">${spanishCard('1o')}</span><span class="ill-d">${spanishCard('12e')}</span>`;
  },

  settingsSummary(settings) {
    const out = [tn('mus.set.cows_n', settings.cows), tn('mus.set.games_per_cow_n', settings.games_per_cow)];
    if (settings.real_31) out.push(t('mus.set.real_31'));
    return out;
  },

  /** A finished match in the lobby's list: each pair's cows. */
  resultScores(result) {
    return (result.cows || []).map((n) => tn('mus.set.cows_n', n));
  },

  /** A card or tile in notation, in words (messages about it). */
  thingLabel: cardLabel,

  /** A seña by its Spanish name (messages about it). */
  signName,

  /** A seña someone made, in words (text): "Carla signals dos reyes". */
  signalText(x, c) {
    const line = t('mus.log.sena', { name: c.name(x.seat), sign: signName(x.sign) });
    const mine = c.me !== null && c.me !== undefined;
    return mine && x.seat !== c.me && pairOf(x.seat) !== pairOf(c.me) ? `${line} · ${t('mus.sena_you_caught')}` : line;
  },

  /** An action in the game's own words, its cards drawn as at the table (replays; HTML). */
  describe(a) {
    if (a.type === 'discard') {
      const cards = a.cards.map((x) => thing(spanishChip(x), cardLabel(x)));
      return html`${t('replay.action.discard')} ${cards}`;
    }
    return html`${say(a.type, a.amount)}`;
  },

  /** A hint's move made ready (js/table.js): a bet or a raise of the amount it says. */
  takeHint(a, c) {
    if (a.amount) c.ui.amount = a.amount;
  },

  /** Why a hint suggests its move (the server's `why`), in the game's words; null for
   * the reasons every game shares (js/table.js says those). */
  whyText(w) {
    if (w.key !== 'pair_wins' && w.key !== 'pair_loses') return null;
    return t(`mus.why.${w.key}`, { lance: lanceName(w.lance), chance: w.chance });
  },

  learn(e, c) {
    const n = c.notes;
    n.said ??= {};
    switch (e.type) {
      case 'deal':
        n.said = {};
        n.changed = {};
        break;
      case 'mus':
      case 'no_mus':
        n.said[e.seat] = [e.type];
        break;
      case 'discard':
        n.said[e.seat] = ['discards', e.count];
        break;
      case 'lance':
        n.said = {};
        break;
      case 'pass':
      case 'bet':
      case 'raise':
      case 'ordago':
      case 'accept':
      case 'reject':
        n.said[e.seat] = [e.type, e.amount];
        break;
      default:
    }
  },

  narrate(e, c) {
    const who = actor(c, e.seat);
    switch (e.type) {
      case 'deal':
        return { kind: 'deal', cls: 'sep', html: html`${t('mus.log.deal', { n: e.hand + 1, name: c.name(e.mano) })}` };
      case 'mus':
      case 'no_mus':
      case 'pass':
      case 'bet':
      case 'raise':
      case 'ordago':
      case 'accept':
      case 'reject':
        return {
          kind: e.type,
          cls: e.type === 'ordago' ? 'big' : '',
          html: html`${who} <span class="speech">${say(e.type, e.amount)}</span>${
            e.stake ? html` <span class="muted">(${t('mus.stake_n', { n: e.stake })})</span>` : ''
          }`,
        };
      case 'discard': {
        const chip = (x) => spanishChip(x);
        const own = e.cards ? html` ${e.cards.map(chip)} → ${(e.drawn || []).map(chip)}` : '';
        return { kind: 'discard', html: html`${who} ${t('mus.log.discard', { n: e.count })}${own}` };
      }
      case 'reshuffle':
        return { kind: 'reshuffle', html: html`${t('mus.log.reshuffle')}` };
      case 'signal':
        return { kind: 'signal', cls: 'sena-line', html: html`${mus.signalText(e, c)}${caughtNote(c, e)}` };
      case 'announce': {
        const names = e.holders.map((s) => c.name(s)).join(', ');
        const key = e.lance === 'pares' ? 'pares' : 'juego';
        return {
          kind: 'announce',
          html: html`${e.holders.length ? t(`mus.log.has_${key}`, { names }) : t(`mus.log.no_${key}`)}`,
        };
      }
      case 'lance':
        if (e.skipped) return { kind: 'lance', html: html`${t('mus.log.skipped', { lance: lanceName(e.lance) })}` };
        if (e.team !== undefined && e.team !== null && !(e.speakers || []).length) {
          return { kind: 'lance', html: html`${t('mus.log.alone', { lance: lanceName(e.lance), pair: pairName(c, e.team) })}` };
        }
        return { kind: 'lance', cls: 'sep', html: html`<b>${lanceName(e.lance)}</b>` };
      case 'credit':
        return {
          kind: 'credit',
          cls: 'scored',
          html: html`${pairName(c, e.team)} <span class="plus">+${e.stones}</span> <span class="muted">${lanceName(e.lance)} · ${t(`mus.reason.${e.reason}`)}</span>`,
        };
      case 'hand_end':
        return {
          kind: 'hand_end',
          cls: 'big',
          html: html`${
            e.reason === 'showdown' ? t('mus.log.showdown') : e.reason === 'ordago' ? t('mus.log.ordago_shown') : t('mus.log.game_won')
          }`,
        };
      case 'game_end':
        return { kind: 'game_end', cls: 'big', html: html`${t('mus.log.game_end', { pair: pairName(c, e.team) })}` };
      case 'cow_end':
        return { kind: 'cow_end', cls: 'big', html: html`${t('mus.log.cow_end', { pair: pairName(c, e.team) })}` };
      case 'match_end':
        return { kind: 'match_end', cls: 'big win', html: html`${t('mus.log.match_end', { pair: pairName(c, e.winner) })}` };
      default:
        return null;
    }
  },

  /** The status line in words (text): who is to speak, and what about. */
  status(c) {
    const v = c.view;
    if (v.turn === null || v.turn === undefined) return null;
    const name = v.turn === c.me ? t('turn.you') : c.name(v.turn);
    if (v.phase === 'mus') return t('mus.status_mus', { name });
    if (v.phase === 'discard') return t('mus.status_discard', { name });
    if (v.phase === 'answer') {
      return t('mus.status_answer', { name, lance: lanceName(v.lance), n: v.ordago ? t('mus.ordago') : v.stake });
    }
    return t('mus.status_speak', { name, lance: lanceName(v.lance) });
  },

  board(c) {
    const v = c.view;
    const pos = around(c);
    // the hand just played out, when the table stays on it (the match is over): its
    // cards as the showdown or an accepted órdago showed them
    const lh = v.last_hand;
    const revealed = lh?.hands && lh.hand === v.hand_no && (v.over || v.phase === 'idle') ? lh.hands : null;
    const plate = (s, where) => {
      const shown = c.hands?.[s] ?? revealed?.[s];
      const cardsHtml =
        where === 'bottom' && c.me !== null
          ? ''
          : html`<div class="plate-cards mus-cards">${
              shown
                ? shown.map((x) => html`<span class="card-small">${spanishCard(x)}</span>`)
                : Array.from({ length: 4 }, () => html`<span class="card-small">${spanishBack()}</span>`)
            }</div>`;
      const said = said_(c, s);
      const ann = v.announced || {};
      const badges = ['pares', 'juego']
        .map((k) =>
          ann[k]
            ? html`<span class="tag ${ann[k].includes(s) ? 'yes' : 'no'}">${ann[k].includes(s) ? t(`mus.has.${k}`) : t(`mus.hasnt.${k}`)}</span>`
            : '',
        );
      return html`<div class="mus-seat ${where} pair-${pairOf(s)}${v.turn === s ? ' turn' : ''}${shown ? ' shown' : ''}" data-seat="${s}">
        <div class="plate-name">${nameText(c.label(s))}
          ${v.mano === s ? html`<span class="tag mano" title="${t('mus.mano_title')}">${t('mus.mano')}</span>` : ''}</div>
        <div class="badges">${badges}</div>
        ${senaList(c, s)}
        ${cardsHtml}
        ${said ? html`<div class="bubble" aria-label="${t('mus.said', { name: c.name(s), what: said })}">${said}</div>` : ''}
      </div>`;
    };
    const settled = new Map((v.lances || []).map((x) => [x.lance === 'punto' ? 'juego' : x.lance, x]));
    const track = LANCES.map((l) => {
      const label = l === 'juego' && v.punto ? lanceName('punto') : lanceName(l);
      const item = settled.get(l);
      const current = (v.phase === 'speak' || v.phase === 'answer') && (v.lance === l || (l === 'juego' && v.lance === 'punto'));
      const team = item && item.team !== undefined && item.team !== null ? ` · ${pairShort(c, item.team)}` : '';
      return html`<li class="lance${current ? ' current' : ''}${item ? ' done' : ''}" ${current ? html`aria-current="step"` : ''}>
        <span class="lance-name">${label}</span>
        <span class="lance-state">${item ? statusText(item) + team : current ? t('mus.now') : ''}</span></li>`;
    });
    const betting = (v.betting || [])
      .map((b) => html`<li><b>${c.name(b.seat)}</b> ${say(b.type, b.amount)}</li>`);
    let center;
    if (v.phase === 'mus' || v.phase === 'discard') {
      center = html`<div class="mus-phase"><b>${v.phase === 'mus' ? t('mus.phase_mus') : t('mus.phase_discard')}</b>
        <span class="muted" data-deck>${t('mus.round_n', { n: v.mus_round + 1 })} · ${tn('mus.deck_n', v.deck)}</span></div>`;
    } else {
      center = html`<div class="bets">${
        v.phase === 'answer'
          ? html`<div class="stake">${v.ordago ? t('mus.ordago') : t('mus.stake_n', { n: v.stake })}</div>`
          : ''
      }${betting.length ? html`<ol class="bet-list" aria-label="${t('mus.betting')}">${betting}</ol>` : ''}</div>`;
    }
    return html`<div class="mus-table">
      ${plate(pos.top, 'top')}${plate(pos.left, 'left')}
      <div class="mus-center">
        <ol class="lances" aria-label="${t('mus.lances')}">${track}</ol>
        ${center}
      </div>
      ${plate(pos.right, 'right')}${plate(pos.bottom, 'bottom')}
    </div>`;
  },

  controls(c) {
    const v = c.view;
    if (c.me === null) return c.hands ? '' : html`<p class="muted center">${t('table.spectating')}</p>`;
    const ui = c.ui;
    const hand = c.hands?.[c.me] ?? v.hand ?? [];
    const has = (type) => c.legal.some((a) => a.type === type);
    const discarding = has('discard');
    if (!discarding) ui.discard = [];
    ui.discard ??= [];
    const cardsHtml = hand
      .map((card) => {
        const sel = ui.discard.includes(card);
        return discarding
          ? html`<button class="hand-card spanish playable${sel ? ' selected' : ''}" data-card="${card}" data-key="card-${card}"
              aria-pressed="${sel}">${spanishCard(card, { label: cardLabel(card) })}</button>`
          : html`<span class="hand-card spanish" role="img" aria-label="${cardLabel(card)}">${spanishCard(card)}</span>`;
      });
    const buttons = [];
    const amountMin = Math.min(...c.legal.filter((a) => a.amount).map((a) => a.amount), 2);
    ui.amount = Math.max(amountMin, Math.min(MAX_BET, ui.amount || amountMin));
    const stepper = html`<span class="stepper" role="group" aria-label="${t('mus.amount')}">
      <button class="btn step" data-step="-1" data-key="step-down" aria-label="${t('mus.less')}"${ui.amount <= amountMin ? html` aria-disabled="true"` : ''}>−</button>
      <output aria-live="polite">${ui.amount}</output>
      <button class="btn step" data-step="1" data-key="step-up" aria-label="${t('mus.more')}"${ui.amount >= MAX_BET ? html` aria-disabled="true"` : ''}>+</button></span>`;
    const btn = (type, label, cls = '') =>
      html`<button class="btn action ${cls}" data-act="${type}" data-key="act-${type}">${label}</button>`;
    if (has('mus')) buttons.push(btn('mus', t('mus.mus'), 'primary'));
    if (has('no_mus')) buttons.push(btn('no_mus', t('mus.no_mus')));
    if (discarding) {
      const ok = c.legal.some((a) => a.type === 'discard' && sameSet(a.cards, ui.discard));
      buttons.push(html`<button class="btn action primary" data-discard data-key="act-discard"${ok ? '' : html` disabled`}>${t('mus.discard_n', { n: ui.discard.length })}</button>`);
    }
    if (has('accept')) buttons.push(btn('accept', t('mus.quiero'), 'primary'));
    if (has('pass')) buttons.push(btn('pass', t('mus.paso')));
    if (has('bet')) buttons.push(html`<span class="bet-group">${btn('bet', t('mus.envido_n', { n: ui.amount }))}${stepper}</span>`);
    if (has('raise')) buttons.push(html`<span class="bet-group">${btn('raise', t('mus.raise_n', { n: ui.amount }))}${stepper}</span>`);
    if (has('ordago')) buttons.push(btn('ordago', t('mus.ordago'), 'danger'));
    if (has('reject')) buttons.push(btn('reject', t('mus.no_quiero')));
    let hint = '';
    if (discarding) hint = t('mus.hint_discard');
    return html`<div class="me-plate pair-${pairOf(c.me)}${v.turn === c.me ? ' turn' : ''}">
        <span class="plate-name">${nameText(c.label(c.me))}${v.mano === c.me ? html` <span class="tag mano">${t('mus.mano')}</span>` : ''}</span>
        ${said_(c, c.me) ? html`<span class="bubble mine">${said_(c, c.me)}</span>` : ''}
        ${senaList(c, c.me)}
      </div>
      <div class="hand cards-hand mus-hand" role="group" aria-label="${t('mus.your_cards')}">${cardsHtml}</div>
      <div class="actions mus-actions">${buttons}</div>
      <p class="hint" aria-live="polite">${hint}</p>
      ${senaBar(c)}`;
  },

  bind(root, c) {
    const ui = c.ui;
    root.querySelectorAll('.hand-card.playable[data-card]').forEach((b) => {
      b.onclick = () => {
        const card = b.dataset.card;
        ui.discard = ui.discard.includes(card) ? ui.discard.filter((x) => x !== card) : [...ui.discard, card];
        c.rerender();
      };
    });
    root.querySelectorAll('[data-step]').forEach(
      (b) =>
        (b.onclick = () => {
          ui.amount = Math.max(2, Math.min(MAX_BET, ui.amount + Number(b.dataset.step)));
          c.rerender();
        }),
    );
    root.querySelectorAll('[data-act]').forEach((b) => {
      b.onclick = () => {
        const type = b.dataset.act;
        if (type === 'bet' || type === 'raise') c.act({ type, amount: ui.amount });
        else c.act({ type });
      };
    });
    root.querySelectorAll('[data-sena]').forEach((b) => {
      b.onclick = () => c.signal?.(b.dataset.sena);
    });
    const d = root.querySelector('[data-discard]');
    if (d) {
      d.onclick = () => {
        const choice = c.legal.find((a) => a.type === 'discard' && sameSet(a.cards, ui.discard));
        if (!choice) return;
        ui.discard = [];
        c.act({ type: 'discard', cards: choice.cards });
      };
    }
  },

  key(k, c) {
    const map = { m: 'mus', n: 'no_mus', p: 'pass', q: 'accept', o: 'ordago', x: 'reject' };
    const type = map[k];
    if (type && c.legal.some((a) => a.type === type)) {
      c.act({ type });
      return true;
    }
    return false;
  },

  scores(c) {
    const v = c.view;
    const s = v.settings;
    return html`<div class="pairs">${[0, 1]
      .map(
        (team) => html`<div class="pair-score pair-${team}${c.me !== null && pairOf(c.me) === team ? ' us' : ''}${
          v.winner === team ? ' winner' : ''
        }">
        <div class="score-row"><span class="score-name" title="${pairName(c, team)}">${pairName(c, team)}${
          c.me !== null && pairOf(c.me) === team ? html` <span class="tag">${t('mus.us')}</span>` : ''
        }</span><span class="score-num">${v.stones[team]}<small>/40</small></span></div>
        <div class="stones-row">${stones(v.stones[team], stonesLabel(v.stones[team]))}</div>
        <div class="games-cows">
          <span>${t('mus.games')} <b>${v.games[team]}</b>/${s.games_per_cow}</span>
          <span>${t('mus.cows')} <b>${v.cows[team]}</b>/${s.cows}</span>
        </div></div>`,
      )}</div>
      <p class="muted small">${t('mus.stones_hint')}</p>
      <p class="muted small">${t('mus.hand_n', { n: v.hand_no + 1 })} · ${t('mus.game_n', { n: v.game_no + 1 })}</p>`;
  },

  summaryKey(c) {
    const h = c.view.last_hand;
    return h ? `hand-${h.hand}` : null;
  },

  summary(c) {
    return handSummary(c);
  },

  winnerText(c) {
    const w = c.view.winner;
    if (w === null || w === undefined) return t('table.game_over');
    if (c.me !== null && pairOf(c.me) === w) return t('result.we_win');
    return t('result.pair_won', { names: pairName(c, w) });
  },

  finalScores(c) {
    const v = c.view;
    return html`<ol class="final">${[0, 1]
      .map(
        (team) => html`<li${team === v.winner ? html` class="winner"` : ''}><span>${pairName(c, team)}</span>
          <b>${t('mus.cows')} ${v.cows[team]} · ${t('mus.games')} ${v.games[team]}</b></li>`,
      )}</ol>`;
  },
};

/** "7 stones: 1 amarraco and 2 stones", in the language of the moment. */
function stonesLabel(n) {
  return t('mus.stones_label', {
    total: tn('mus.stones_n', n),
    amarracos: tn('mus.amarracos_n', Math.floor(n / 5)),
    stones: tn('mus.stones_n', n % 5),
  });
}

/** What a seat said last in this phase, in the language of the moment. */
function said_(c, seat) {
  const x = c.notes.said?.[seat];
  if (!x) return '';
  return x[0] === 'discards' ? t('mus.discards_n', { n: x[1] }) : say(x[0], x[1]);
}

/** Who caught a seña, for the one who made it (only the maker, and anybody once the
 * hand is over, knows: the entry has caught_by). */
function caughtNote(c, x) {
  if (!Array.isArray(x.caught_by)) return '';
  const said = x.caught_by.length
    ? t('mus.sena_caught_by', { names: x.caught_by.map((s) => c.name(s)).join(', ') })
    : t('mus.sena_unseen');
  return html` <small class="caught-by">(${said})</small>`;
}

/** A seat's señas this hand as the page's seat may see them: its own with who caught
 * them, its partner's, an opponent's it caught; each with what it means. */
function senaList(c, seat) {
  const made = (c.view.signals || []).filter((x) => x.seat === seat);
  if (!made.length) return '';
  const mine = c.me !== null && c.me !== undefined;
  const kind = !mine || seat === c.me ? '' : pairOf(seat) === pairOf(c.me) ? ' partner' : ' caught';
  return html`<ul class="senas-made" aria-label="${t('mus.senas_of', { name: c.name(seat) })}">${made.map(
    (x) => html`<li class="sena${kind}" title="${t(`mus.sena.${x.sign}`)}"><span lang="es">${signName(x.sign)}</span>${caughtNote(c, x)}</li>`,
  )}</ul>`;
}

/** The seña bar of a seated player at a table with señas: each of the federation's
 * señas, offered only while the hand allows it (view.may_signal, the server's word). */
function senaBar(c) {
  const v = c.view;
  if (!v.settings?.senas || c.me === null || v.over || !Array.isArray(v.may_signal)) return '';
  const may = v.may_signal;
  return html`<div class="sena-bar" role="group" aria-label="${t('mus.senas_bar')}">
    <span class="sena-title" aria-hidden="true">${t('mus.senas')}</span>
    ${Object.keys(SIGNS).map(
      (x) => html`<button class="btn small sena-btn" data-sena="${x}" data-key="sena-${x}" title="${t(`mus.sena.${x}`)}"${
        may.includes(x) ? '' : html` disabled`
      }><span lang="es">${signName(x)}</span></button>`,
    )}</div>`;
}

function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export default mus;
