// The ranking (classifica) of each game: /ranking/{game}?offset=0
import { GAMES, api, gameTitle, header, html, num, page, setMarkup, t, whoami } from './club.js';

const PAGE = 50;
const root = document.getElementById('ranking');

function tabs(game) {
  return html`<nav class="tabs club-tabs" aria-label="${t('club.game')}">${GAMES.map(
    (g) => html`<a class="tab" href="/ranking/${g}"${g === game ? html` aria-current="page"` : ''}>${gameTitle(g)}</a>`,
  )}</nav>`;
}

/** /ranking/chess: say there is no such game here, and offer ours (never another's ranking). */
function unknownGame(name) {
  document.title = `${t('nav.ranking')} · Taverna`;
  setMarkup(
    root,
    html`
    <h1 class="page-title">${t('nav.ranking')}</h1>
    <section class="panel">
      <p class="error" role="alert">${t('club.unknown_game', { game: name })}</p>
      ${tabs(null)}
    </section>`,
  );
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
  const query = new URLSearchParams(location.search);
  const offset = Math.max(0, Number(query.get('offset')) || 0);
  const by = query.get('by') === 'rating' ? 'rating' : 'points';
  if (!data) {
    try {
      data = await api(`/api/ranking/${game}?limit=${PAGE}&offset=${offset}&by=${by}`);
    } catch (e) {
      setMarkup(
        root,
        html`<h1 class="page-title">${t('nav.ranking')}</h1>
        <section class="panel"><p class="error" role="alert">${e.message}</p>${tabs(game)}</section>`,
      );
      return;
    }
  }
  document.title = `${t('nav.ranking')} · ${gameTitle(game)} · Taverna`;
  const who = (r) =>
    html`<td class="name"><a href="/players/${encodeURIComponent(r.player)}" title="${r.player}">${r.player}</a></td>`;
  const rows = data.ranking.map((r) =>
    by === 'rating'
      ? html`<tr${me && me.name === r.player ? html` class="me"` : ''}>
        <td class="num">${num(r.rank)}</td>${who(r)}
        <td class="num">${num(r.rating)}${
          r.provisional ? html` <abbr class="provisional" title="${t('club.provisional_hint')}">${t('club.provisional')}</abbr>` : ''
        }</td><td class="num">±${num(r.rd)}</td><td class="num">${num(r.rated_games)}</td>
      </tr>`
      : html`<tr${me && me.name === r.player ? html` class="me"` : ''}>
        <td class="num">${num(r.rank)}</td>${who(r)}
        <td class="num">${num(r.points)}</td><td class="num">${num(r.games)}</td>
        <td class="num">${num(r.wins)}</td><td class="num">${num(r.losses)}</td><td class="num">${num(r.abandons)}</td>
      </tr>`,
  );
  const sortBy = (key) => (key === 'rating' ? '&by=rating' : '');
  const previous =
    offset > 0
      ? html`<a class="btn ghost small" href="?offset=${Math.max(0, offset - PAGE)}${sortBy(by)}">${t('club.previous')}</a>`
      : '';
  const next =
    offset + PAGE < data.total
      ? html`<a class="btn ghost small" href="?offset=${offset + PAGE}${sortBy(by)}">${t('club.next')}</a>`
      : '';
  const head =
    by === 'rating'
      ? html`<tr><th class="num">${t('club.rank')}</th><th>${t('club.player')}</th>
            <th class="num">${t('club.rating')}</th><th class="num">${t('club.rd')}</th>
            <th class="num">${t('club.rated_games')}</th></tr>`
      : html`<tr><th class="num">${t('club.rank')}</th><th>${t('club.player')}</th>
            <th class="num">${t('club.points')}</th><th class="num">${t('club.games')}</th>
            <th class="num">${t('club.wins')}</th><th class="num">${t('club.losses')}</th>
            <th class="num">${t('club.abandons')}</th></tr>`;
  const sorts = html`<p class="sort-by">${t('club.sort_by')}: ${['points', 'rating'].map(
    (key) =>
      html` <a class="btn ghost small" href="?offset=0${sortBy(key)}"${key === by ? html` aria-current="true"` : ''}>${t(
        key === 'rating' ? 'club.by_rating' : 'club.by_points',
      )}</a>`,
  )}</p>`;
  setMarkup(
    root,
    html`
    <h1 class="page-title">${t('nav.ranking')}: ${gameTitle(game)}</h1>
    <section class="panel">
    ${tabs(game)}
    ${sorts}
    ${
      data.ranking.length
        ? html`<div class="table-scroll" role="region" aria-label="${t('nav.ranking')}" tabindex="0"><table><thead>${head}</thead><tbody>${rows}</tbody></table></div>
            <p class="pager">${previous} ${next}</p>`
        : html`<p class="muted">${t(by === 'rating' ? 'club.nobody_rated' : 'club.nobody')}</p>`
    }
    </section>`,
  );
}

page(render);
