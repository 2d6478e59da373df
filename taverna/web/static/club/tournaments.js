// Tournaments: /tournaments (upcoming, running, finished) and /tournaments/{id} (sign up,
// the rounds with their tables to watch, the standings).
import { api, date, gameTitle, header, html, num, page, setMarkup, t, whoami } from './club.js';
import { sides } from '../js/games.js';

const root = document.getElementById('tournaments');
const STATUSES = ['running', 'upcoming', 'finished'];

function points(n) {
  return Number.isInteger(n) ? num(n) : `${num(Math.floor(n))}½`.replace(/^0½$/, '½');
}

async function list(me) {
  const { tournaments } = await api('/api/tournaments');
  document.title = `${t('nav.tournaments')} · Taverna`;
  setMarkup(
    root,
    html`<h1 class="page-title">${t('nav.tournaments')}</h1>
    ${STATUSES.map((status) => {
      const rows = tournaments.filter((x) => x.status === status);
      return html`<section class="panel" aria-labelledby="t-${status}">
        <h2 id="t-${status}">${t(`tour.${status}`)}</h2>
        ${
          rows.length
            ? html`<ul class="tournament-list">${rows.map(
                (x) => html`<li><a href="/tournaments/${encodeURIComponent(x.id)}">${x.name}</a>
                  <span class="muted"> · ${gameTitle(x.game)} · ${t(`tour.format_${x.format}`)} · ${date(x.starts_at)} · ${t('tour.entries_n', { n: x.entries })}</span></li>`,
              )}</ul>`
            : html`<p class="muted">${t('tour.none')}</p>`
        }</section>`;
    })}`,
  );
  header(me, 'tournaments');
}

function entryName(entry) {
  return entry.players.map((p) => p.name).join(' & ');
}

async function one(me, id) {
  let data;
  try {
    data = (await api(`/api/tournaments/${encodeURIComponent(id)}`)).tournament;
  } catch (e) {
    setMarkup(root, html`<h1 class="page-title">${t('nav.tournaments')}</h1><section class="panel"><p class="error" role="alert">${e.message}</p></section>`);
    return;
  }
  document.title = `${data.name} · Taverna`;
  const entries = Object.fromEntries(data.entries.map((e) => [e.id, e]));
  const mine = me && data.entries.find((e) => e.players.some((p) => p.id === me.id));
  const pairs = !!sides(data.game); // a game of sides (Mus): entries are pairs
  const signUp =
    data.status !== 'upcoming'
      ? ''
      : !me?.registered
        ? html`<p class="muted">${t('tour.register_first')}</p>`
        : mine
          ? html`<p class="signed-up" role="status">${t(mine.confirmed ? 'tour.signed_up' : 'tour.waiting_partner')}</p>
              <button class="btn ghost" data-withdraw>${t('tour.withdraw')}</button>`
          : html`<form class="sign-up" data-sign-up>
              ${pairs ? html`<label for="partner">${t('tour.partner')}</label> <input id="partner" name="partner" required maxlength="40" autocomplete="off">` : ''}
              <button class="btn primary" type="submit">${t('tour.sign_up')}</button></form>`;
  const rounds = [...new Set(data.games.map((g) => g.round))].sort((a, b) => a - b);
  const roundHtml = rounds.map(
    (r) => html`<section class="panel round" aria-labelledby="round-${r}"><h2 id="round-${r}">${t('tour.round_n', { n: r })}</h2><ul>${data.games
      .filter((g) => g.round === r)
      .map((g) => {
        const who = g.sides.map((e) => (entries[e] ? entryName(entries[e]) : '?'));
        const score = g.points ? ` — ${g.sides.map((e) => points(g.points[e] ?? 0)).join(' : ')}` : '';
        const how = g.how && g.how !== 'played' ? html` <span class="muted">(${t(`tour.how_${g.how}`)})</span>` : '';
        const watch = g.table ? html` <a href="/#/table/${encodeURIComponent(g.table)}">${t(g.points ? 'lobby.replay' : 'lobby.watch')}</a>` : '';
        return html`<li>${who.join(' — ')}${score}${how}${watch}</li>`;
      })}</ul></section>`,
  );
  const standings = data.standings.length
    ? html`<div class="table-scroll" role="region" aria-label="${t('tour.standings')}" tabindex="0"><table class="standings"><thead><tr>
        <th class="num">${t('club.rank')}</th><th>${t('club.player')}</th><th class="num">${t('tour.points')}</th>
        <th class="num"><abbr title="${t('tour.buchholz_hint')}">${t('tour.buchholz')}</abbr></th><th class="num">${t('club.wins')}</th></tr></thead>
        <tbody>${data.standings.map(
          (s) => html`<tr><td class="num">${num(s.rank)}</td><td>${s.players.join(' & ')}</td><td class="num">${points(s.points)}</td>
            <td class="num">${points(s.buchholz)}</td><td class="num">${num(s.wins)}</td></tr>`,
        )}</tbody></table></div>`
    : html`<p class="muted">${t('tour.no_entries')}</p>`;
  setMarkup(
    root,
    html`<h1 class="page-title">${data.name}</h1>
    <p class="page-note">${gameTitle(data.game)} · ${t(`tour.format_${data.format}`)}${
      data.format === 'swiss' ? html` · ${t('tour.rounds_n', { n: data.rounds })}` : ''
    } · ${data.stake ? t('tour.stake', { n: num(data.stake) }) : t('tour.no_stake')} · ${date(data.starts_at)} · <strong>${t(`tour.${data.status}`)}</strong></p>
    ${data.note ? html`<p class="muted">${data.note}</p>` : ''}
    <section class="panel">${signUp}</section>
    <section class="panel"><h2 id="standings-title">${t('tour.standings')}</h2>${standings}</section>
    ${roundHtml.reverse()}`,
  );
  header(me, 'tournaments');
  root.querySelector('[data-sign-up]')?.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const partner = root.querySelector('#partner')?.value || null;
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}/entries`, { method: 'POST', body: { partner } });
    } catch (e) {
      alertLine(e.message);
      return;
    }
    await render();
  });
  root.querySelector('[data-withdraw]')?.addEventListener('click', async () => {
    try {
      await api(`/api/tournaments/${encodeURIComponent(id)}/entries`, { method: 'DELETE' });
    } catch (e) {
      alertLine(e.message);
      return;
    }
    await render();
  });
}

function alertLine(text) {
  const p = document.createElement('p');
  p.className = 'error';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  root.querySelector('.panel')?.append(p);
}

let timer = null;

async function render() {
  const me = await whoami();
  const id = decodeURIComponent(location.pathname.split('/')[2] || '');
  if (id) await one(me, id);
  else await list(me);
  // a running tournament moves on by itself: looked at again every few seconds
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (!root.contains(document.activeElement) || document.activeElement === root) render();
  }, 5000);
}

page(render);
