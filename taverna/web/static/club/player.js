// A player's public profile: standings per game, finished games with their replays.
import { GAMES, api, date, gameTitle, header, html, num, page, setMarkup, signed, t, whoami } from './club.js';
import { botName, officialBadge } from '../js/ui.js';
import { gameFacts } from '../js/games.js';
import { has } from '../js/i18n.js';

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

/** A rating over time as an SVG line (no chart service): one point per rated game,
 * with the band of its uncertainty (± RD). */
function plot(game, history) {
  const W = 560;
  const H = 160;
  const PAD = 28;
  if (!history.length) return '';
  const lows = history.map((e) => e.rating - e.rd);
  const highs = history.map((e) => e.rating + e.rd);
  const lo = Math.floor(Math.min(...lows, history[0].before) / 50) * 50;
  const hi = Math.ceil(Math.max(...highs, history[0].before) / 50) * 50;
  const n = history.length;
  const x = (i) => PAD + ((W - 2 * PAD) * (n === 1 ? 1 : i)) / (n === 1 ? 1 : n - 1);
  const y = (r) => H - PAD / 2 - ((H - PAD) * (r - lo)) / Math.max(1, hi - lo);
  const line = history.map((e, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(e.rating).toFixed(1)}`).join(' ');
  const band =
    history.map((e, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(e.rating + e.rd).toFixed(1)}`).join(' ') +
    ' ' +
    history
      .map((e, i) => [i, e])
      .reverse()
      .map(([i, e]) => `L${x(i).toFixed(1)},${y(e.rating - e.rd).toFixed(1)}`)
      .join(' ') +
    ' Z';
  const label = t('club.rating_plot', {
    game: gameTitle(game),
    from: num(Math.round(history[0].before)),
    to: num(Math.round(history[n - 1].rating)),
  });
  return html`<figure class="rating-plot"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}" data-points="${n}">
    <path class="band" d="${band}" fill="currentColor" fill-opacity="0.12" stroke="none"></path>
    <path class="line" d="${line}" fill="none" stroke="currentColor" stroke-width="2"></path>
    ${history.map((e, i) => html`<circle cx="${x(i).toFixed(1)}" cy="${y(e.rating).toFixed(1)}" r="3" fill="currentColor"><title>${num(Math.round(e.rating))} ± ${num(Math.round(e.rd))}</title></circle>`)}
    <text x="2" y="${y(hi) + 4}" font-size="10" fill="currentColor">${num(hi)}</text>
    <text x="2" y="${y(lo)}" font-size="10" fill="currentColor">${num(lo)}</text>
  </svg><figcaption>${label}</figcaption></figure>`;
}

/** The game's own figures (Muggins! calls, lances won…), as it declares them (`figures`
 * in /api/games) and labels them in its strings (`game.<name>.figure.<figure>`); a dash
 * for one not counted. */
function ownFigures(game, counted = {}) {
  return (gameFacts(game)?.figures || []).map((f) => {
    const key = `game.${game}.figure.${f}`;
    const n = counted[f];
    return html`<div data-figure="${f}"><dt>${has(key) ? t(key) : f}</dt><dd>${typeof n === 'number' ? num(n) : '—'}</dd></div>`;
  });
}

/** Per game: the skill rating and its plot, and the figures of the games listed. */
function skillSection(p) {
  const skills = p.skills || {};
  const stats = p.stats || {};
  const games = GAMES.filter((g) => skills[g] || stats[g]);
  if (!games.length) return '';
  return html`<section class="panel skills">
    <h2>${t('club.stats')}</h2>
    ${games.map((g) => {
      const s = skills[g];
      const st = stats[g];
      return html`<article class="skill" data-game="${g}"><h3>${gameTitle(g)}</h3>
        <dl class="figures">
          ${
            s
              ? html`<div><dt>${t('club.rating')}</dt><dd>${num(s.rating)} ±${num(s.rd)}${
                  s.provisional ? html` <abbr class="provisional" title="${t('club.provisional_hint')}">${t('club.provisional')}</abbr>` : ''
                }</dd></div>`
              : ''
          }
          ${
            st
              ? html`<div><dt>${t('club.games')}</dt><dd>${num(st.games)}</dd></div>
                <div><dt>${t('club.wins')}</dt><dd>${num(st.wins)}</dd></div>
                <div><dt>${t('club.win_rate')}</dt><dd>${st.win_rate === null ? '—' : `${Math.round(100 * st.win_rate)} %`}</dd></div>
                <div><dt>${t('club.average_score')}</dt><dd>${st.average_score === null ? '—' : num(st.average_score)}</dd></div>
                ${ownFigures(g, st.figures)}`
              : ''
          }
        </dl>
        ${s ? plot(g, s.history || []) : ''}</article>`;
    })}
  </section>`;
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
    ${skillSection(p)}
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
