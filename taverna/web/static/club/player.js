// A player's public profile: standings per game, finished games with their replays.
import { GAMES, api, date, esc, header, signed, t, whoami } from './club.js';

async function main() {
  const name = decodeURIComponent(location.pathname.split('/')[2] || '');
  const me = await whoami();
  header(me, null);
  const root = document.getElementById('profile');
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    root.innerHTML = `<h1>${esc(name)}</h1><p class="error">${esc(e.status === 404 ? t('no_player') : e.message)}</p>`;
    return;
  }
  const p = data.player;
  document.title = `Taverna · ${p.name}`;
  const standings = GAMES.filter((g) => p.ratings[g])
    .map((g) => {
      const r = p.ratings[g];
      return `<tr><td><a href="/ranking/${g}">${esc(t(g))}</a></td><td class="num">${r.points}</td>
        <td class="num">${r.games}</td><td class="num">${r.wins}</td><td class="num">${r.losses}</td>
        <td class="num">${r.abandons}</td></tr>`;
    })
    .join('');
  const games = data.history
    .map(
      (h) => `<tr>
        <td>${esc(date(h.finished_at))}</td>
        <td>${esc(t(h.game))} <span class="muted">(${esc(t(h.official ? 'official' : 'casual'))})</span></td>
        <td>${esc((h.players || []).join(', '))}</td>
        <td>${esc(t(h.outcome))}</td>
        <td class="num">${h.official ? signed(h.points) : ''}</td>
        <td><a href="/#/replay/${encodeURIComponent(h.table)}">${esc(t('replay'))}</a></td>
      </tr>`,
    )
    .join('');
  root.innerHTML = `
    <h1>${esc(p.name)}</h1>
    <p class="muted">${esc(t('since', { date: date(p.registered_at) }))}</p>
    <h2>${esc(t('standing'))}</h2>
    ${
      standings
        ? `<table><thead><tr><th>${esc(t('game'))}</th><th class="num">${esc(t('points'))}</th>
            <th class="num">${esc(t('games'))}</th><th class="num">${esc(t('wins'))}</th>
            <th class="num">${esc(t('losses'))}</th><th class="num">${esc(t('abandons'))}</th></tr></thead>
            <tbody>${standings}</tbody></table>`
        : `<p class="muted">${esc(t('nobody'))}</p>`
    }
    <h2>${esc(t('history'))}</h2>
    ${
      games
        ? `<table><thead><tr><th>${esc(t('when'))}</th><th>${esc(t('game'))}</th><th>${esc(t('player'))}</th>
            <th>${esc(t('outcome'))}</th><th class="num">${esc(t('points'))}</th><th></th></tr></thead>
            <tbody>${games}</tbody></table>`
        : `<p class="muted">${esc(t('no_games'))}</p>`
    }`;
}

main();
