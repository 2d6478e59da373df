// Mus in words, as the board, its log and its hand summary say it: cards, lances,
// pairs, calls and how a lance ended.

import { t } from '/static/js/i18n.js';
import { html } from '/static/js/html.js';
import { spanishCard } from './deck.js';

const SUIT_KEYS = { o: 'es.oros', c: 'es.copas', e: 'es.espadas', b: 'es.bastos' };
const RANK_KEYS = { 10: 'es.sota', 11: 'es.caballo', 12: 'es.rey', 1: 'es.as' };

export function cardLabel(card) {
  const rank = Number(card.slice(0, -1));
  const suit = card.slice(-1);
  return t('es.card', { rank: RANK_KEYS[rank] ? t(RANK_KEYS[rank]) : rank, suit: t(SUIT_KEYS[suit]) });
}

export const mini = (card) => html`<span class="mini-card spanish">${spanishCard(card)}</span>`;
export const lanceName = (l) => t(`mus.lance.${l}`);
export const pairOf = (seat) => seat % 2;

export function pairName(c, team) {
  return t('pair.names', { a: c.name(team), b: c.name(team + 2) });
}

/** A pair in few words: "us" and "them" for a seated player, else pair A and B. */
export function pairShort(c, team) {
  if (c.me !== null) return t(team === pairOf(c.me) ? 'mus.us_cap' : 'mus.them');
  return t(team ? 'pair.b' : 'pair.a');
}

export function say(type, amount) {
  switch (type) {
    case 'pass':
      return t('mus.paso');
    case 'bet':
      return t('mus.envido_n', { n: amount });
    case 'raise':
      return t('mus.raise_n', { n: amount });
    case 'ordago':
      return t('mus.ordago');
    case 'accept':
      return t('mus.quiero');
    case 'reject':
      return t('mus.no_quiero');
    case 'mus':
      return t('mus.mus');
    case 'no_mus':
      return t('mus.no_mus');
    default:
      return type;
  }
}

export function statusText(item) {
  switch (item.status) {
    case 'pass':
      return t('mus.status.pass');
    case 'accepted':
      return t('mus.status.accepted', { n: item.stake });
    case 'refused':
      return t('mus.status.refused');
    case 'skipped':
      return t('mus.status.skipped');
    case 'alone':
      return t('mus.status.alone');
    case 'ordago':
      return t('mus.status.ordago');
    default:
      return item.status;
  }
}
