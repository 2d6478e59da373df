// The ranking (classifica) of each game: /ranking/{game}?offset=0
import { GAMES, api, esc, header, t, whoami } from './club.js';

const PAGE = 50;

function tabs(game) {
  return `<nav class="tabs" aria-label="${esc(t('game'))}">${GAMES.map(
    (g) => `<a href="/ranking/${g}"${g === game ? ' aria-current="page"' : ''}>${esc(t(g))}</a>`,
  ).join('')}</nav>`;
}

/** /ranking/chess: say there is no such game here, and offer ours (never another's ranking). */
function unknownGame(name) {
  document.title = `Taverna · ${t('ranking')}`;
  document.getElementById('ranking').innerHTML = `
    <h1>${esc(t('ranking'))}</h1>
    <p class="error" role="alert">${esc(t('unknown_game', { game: name }))}</p>
    ${tabs(null)}`;
}

async function main() {
  const fromPath = decodeURIComponent(location.pathname.split('/')[2] || '');
  if (fromPath && !GAMES.includes(fromPath)) {
    header(await whoami(), 'ranking');
    unknownGame(fromPath);
    return;
  }
  const game = fromPath || GAMES[0];
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get('offset')) || 0);
  const me = await whoami();
  header(me, 'ranking');
  let data;
  try {
    data = await api(`/api/ranking/${game}?limit=${PAGE}&offset=${offset}`);
  } catch (e) {
    document.getElementById('ranking').innerHTML = `<h1>${esc(t('ranking'))}</h1>
      <p class="error" role="alert">${esc(e.message)}</p>${tabs(game)}`;
    return;
  }
  document.title = `Taverna · ${t('ranking')} · ${t(game)}`;
  const rows = data.ranking
    .map(
      (r) => `<tr${me && me.name === r.player ? ' class="me"' : ''}>
        <td class="num">${r.rank}</td>
        <td><a href="/players/${encodeURIComponent(r.player)}">${esc(r.player)}</a></td>
        <td class="num">${r.points}</td><td class="num">${r.games}</td>
        <td class="num">${r.wins}</td><td class="num">${r.losses}</td><td class="num">${r.abandons}</td>
      </tr>`,
    )
    .join('');
  const pager = [
    offset > 0 ? `<a href="?offset=${Math.max(0, offset - PAGE)}">${esc(t('previous'))}</a>` : '',
    offset + PAGE < data.total ? `<a href="?offset=${offset + PAGE}">${esc(t('next'))}</a>` : '',
  ].join(' ');
  document.getElementById('ranking').innerHTML = `
    <h1>${esc(t('ranking'))}: ${esc(t(game))}</h1>
    ${tabs(game)}
    ${
      data.ranking.length
        ? `<table><thead><tr><th class="num">${esc(t('rank'))}</th><th>${esc(t('player'))}</th>
            <th class="num">${esc(t('points'))}</th><th class="num">${esc(t('games'))}</th>
            <th class="num">${esc(t('wins'))}</th><th class="num">${esc(t('losses'))}</th>
            <th class="num">${esc(t('abandons'))}</th></tr></thead><tbody>${rows}</tbody></table>${pager}`
        : `<p class="muted">${esc(t('nobody'))}</p>`
    }`;
}

main();
