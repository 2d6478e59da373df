// The ranking (classifica) of each game: /ranking/{game}?offset=0
import { GAMES, api, esc, gameTitle, header, num, page, t, whoami } from './club.js';

const PAGE = 50;
const root = document.getElementById('ranking');

function tabs(game) {
  return `<nav class="tabs club-tabs" aria-label="${esc(t('club.game'))}">${GAMES.map(
    (g) => `<a class="tab" href="/ranking/${g}"${g === game ? ' aria-current="page"' : ''}>${esc(gameTitle(g))}</a>`,
  ).join('')}</nav>`;
}

/** /ranking/chess: say there is no such game here, and offer ours (never another's ranking). */
function unknownGame(name) {
  document.title = `${t('nav.ranking')} · Taverna`;
  root.innerHTML = `
    <h1 class="page-title">${esc(t('nav.ranking'))}</h1>
    <section class="panel">
      <p class="error" role="alert">${esc(t('club.unknown_game', { game: name }))}</p>
      ${tabs(null)}
    </section>`;
}

let data = null; // the page of the ranking, kept for a change of language

async function render() {
  const fromPath = decodeURIComponent(location.pathname.split('/')[2] || '');
  const me = await whoami();
  header(me, 'ranking');
  if (fromPath && !GAMES.includes(fromPath)) {
    unknownGame(fromPath);
    return;
  }
  const game = fromPath || GAMES[0];
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get('offset')) || 0);
  if (!data) {
    try {
      data = await api(`/api/ranking/${game}?limit=${PAGE}&offset=${offset}`);
    } catch (e) {
      root.innerHTML = `<h1 class="page-title">${esc(t('nav.ranking'))}</h1>
        <section class="panel"><p class="error" role="alert">${esc(e.message)}</p>${tabs(game)}</section>`;
      return;
    }
  }
  document.title = `${t('nav.ranking')} · ${gameTitle(game)} · Taverna`;
  const rows = data.ranking
    .map(
      (r) => `<tr${me && me.name === r.player ? ' class="me"' : ''}>
        <td class="num">${esc(num(r.rank))}</td>
        <td class="name"><a href="/players/${encodeURIComponent(r.player)}" title="${esc(r.player)}">${esc(r.player)}</a></td>
        <td class="num">${esc(num(r.points))}</td><td class="num">${esc(num(r.games))}</td>
        <td class="num">${esc(num(r.wins))}</td><td class="num">${esc(num(r.losses))}</td><td class="num">${esc(
          num(r.abandons),
        )}</td>
      </tr>`,
    )
    .join('');
  const pager = [
    offset > 0 ? `<a class="btn ghost small" href="?offset=${Math.max(0, offset - PAGE)}">${esc(t('club.previous'))}</a>` : '',
    offset + PAGE < data.total ? `<a class="btn ghost small" href="?offset=${offset + PAGE}">${esc(t('club.next'))}</a>` : '',
  ].join(' ');
  root.innerHTML = `
    <h1 class="page-title">${esc(t('nav.ranking'))}: ${esc(gameTitle(game))}</h1>
    <section class="panel">
    ${tabs(game)}
    ${
      data.ranking.length
        ? `<div class="table-scroll"><table><thead><tr><th class="num">${esc(t('club.rank'))}</th><th>${esc(t('club.player'))}</th>
            <th class="num">${esc(t('club.points'))}</th><th class="num">${esc(t('club.games'))}</th>
            <th class="num">${esc(t('club.wins'))}</th><th class="num">${esc(t('club.losses'))}</th>
            <th class="num">${esc(t('club.abandons'))}</th></tr></thead><tbody>${rows}</tbody></table></div>
            <p class="pager">${pager}</p>`
        : `<p class="muted">${esc(t('club.nobody'))}</p>`
    }
    </section>`;
}

page(render);
