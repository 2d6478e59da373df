// A player's public profile: standings per game, finished games with their replays.
import { GAMES, api, date, gameTitle, header, html, num, page, setMarkup, signed, t, whoami } from './club.js';
import { botName, officialBadge } from '../js/ui.js';

const root = document.getElementById('profile');
let loaded = null; // {me, data} or {me, error}

async function load() {
  const name = decodeURIComponent(location.pathname.split('/')[2] || '');
  const me = await whoami();
  try {
    return { me, name, data: await api(`/api/players/${encodeURIComponent(name)}`) };
  } catch (error) {
    return { me, name, error };
  }
}

/** Who played a finished game, as its table shows them: people by the name they have
 * now (also where a bot played on for them), bots by seat name and level. */
function players(h) {
  if (!h.seating) return (h.players || []).join(', ');
  return h.seating.map((s) => s.player ?? (s.bot ? botName(s.seat, s.bot) : '')).join(', ');
}

async function render() {
  loaded ??= await load();
  const { me, name, data, error } = loaded;
  header(me, null);
  if (error) {
    document.title = `${name} · Taverna`;
    setMarkup(
      root,
      html`<h1 class="page-title">${name}</h1>
      <section class="panel"><p class="error">${error.status === 404 ? t('club.no_player') : error.message}</p></section>`,
    );
    return;
  }
  const p = data.player;
  document.title = `${p.name} · Taverna`;
  const standings = GAMES.filter((g) => p.ratings[g])
    .map((g) => {
      const r = p.ratings[g];
      return html`<tr><td><a href="/ranking/${g}">${gameTitle(g)}</a></td><td class="num">${num(r.points)}</td>
        <td class="num">${num(r.games)}</td><td class="num">${num(r.wins)}</td><td class="num">${num(r.losses)}</td>
        <td class="num">${num(r.abandons)}</td></tr>`;
    });
  const games = data.history
    .map(
      (h) => html`<tr>
        <td>${date(h.finished_at)}</td>
        <td>${gameTitle(h.game)} ${
          h.official ? officialBadge(h.stake) : html`<span class="muted">(${t('club.casual')})</span>`
        }</td>
        <td class="players">${players(h)}</td>
        <td>${t(`club.${h.outcome}`)}${
          h.voided ? html`<span class="voided">${t('club.voided')}</span>` : ''
        }</td>
        <td class="num">${h.official && !h.voided ? signed(h.points) : h.voided ? '—' : ''}</td>
        <td><a href="/#/replay/${encodeURIComponent(h.table)}">${t('lobby.replay')}</a></td>
      </tr>`,
  );
  setMarkup(
    root,
    html`
    <h1 class="page-title">${p.name}</h1>
    <p class="page-note">${t('club.since', { date: date(p.registered_at) })}</p>
    <section class="panel">
    <h2>${t('club.standing')}</h2>
    ${
      standings.length
        ? html`<div class="table-scroll" role="region" aria-label="${t('club.standing')}" tabindex="0"><table><thead><tr><th>${t('club.game')}</th><th class="num">${t('club.points')}</th>
            <th class="num">${t('club.games')}</th><th class="num">${t('club.wins')}</th>
            <th class="num">${t('club.losses')}</th><th class="num">${t('club.abandons')}</th></tr></thead>
            <tbody>${standings}</tbody></table></div>`
        : html`<p class="muted">${t('club.nobody')}</p>`
    }
    </section>
    <section class="panel">
    <h2>${t('club.history')}</h2>
    ${
      games.length
        ? html`<div class="table-scroll" role="region" aria-label="${t('club.history')}" tabindex="0"><table><thead><tr><th>${t('club.when')}</th><th>${t('club.game')}</th><th>${t('club.player')}</th>
            <th>${t('club.outcome')}</th><th class="num">${t('club.points')}</th><th><span class="sr-only">${t('lobby.replay')}</span></th></tr></thead>
            <tbody>${games}</tbody></table></div>`
        : html`<p class="muted">${t('club.no_games')}</p>`
    }
    </section>`,
  );
}

page(render);
