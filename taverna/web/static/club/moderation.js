// Moderators' page: reported chat messages, pairs of accounts worth a look, bans and
// silences with their reasons, and the log of every moderator's action.
import { api, date, header, html, num, page, setMarkup, t, whoami } from './club.js';

const root = document.getElementById('moderation');

function list(items, line) {
  return items.length ? html`<ul class="mod-list">${items.map((x) => html`<li>${line(x)}</li>`)}</ul>` : html`<p class="muted">${t('mod.none')}</p>`;
}

async function render() {
  const me = await whoami();
  header(me, 'moderation');
  document.title = `${t('nav.moderation')} · Taverna`;
  let reports;
  let pairs;
  let entries;
  try {
    [{ reports }, { pairs }, { entries }] = await Promise.all([
      api('/api/moderation/reports'),
      api('/api/moderation/suspicious'),
      api('/api/moderation/log'),
    ]);
  } catch (e) {
    setMarkup(root, html`<h1 class="page-title">${t('nav.moderation')}</h1><section class="panel"><p class="error" role="alert">${e.message}</p></section>`);
    return;
  }
  setMarkup(
    root,
    html`<h1 class="page-title">${t('nav.moderation')}</h1>
    <section class="panel"><h2>${t('mod.act')}</h2>
      <form class="mod-form" data-restrict>
        <label for="mod-player">${t('mod.player')}</label> <input id="mod-player" name="player" required maxlength="40" autocomplete="off">
        <label for="mod-minutes">${t('mod.minutes')}</label> <input id="mod-minutes" name="minutes" type="number" min="1" value="60">
        <label for="mod-reason">${t('mod.reason')}</label> <input id="mod-reason" name="reason" required maxlength="300">
        <span class="mod-buttons">${['ban', 'silence', 'unban', 'unsilence'].map(
          (a) => html`<button class="btn ${a === 'ban' ? 'primary' : 'ghost'} small" type="submit" value="${a}">${t(`mod.${a}`)}</button>`,
        )}</span>
      </form><p class="mod-said" role="status"></p></section>
    <section class="panel"><h2>${t('mod.reports')}</h2>${list(
      reports,
      (r) => html`<strong>${r.name ?? ''}</strong>: <q>${r.text ?? r.phrase ?? ''}</q> <span class="muted">· ${t('mod.reporters', { reporters: num(r.reporters), reports: num(r.reports) })} · ${date(r.at)} · <a href="/#/replay/${encodeURIComponent(r.table)}">${r.table}</a></span>`,
    )}</section>
    <section class="panel"><h2>${t('mod.suspicious')}</h2>${list(
      pairs,
      (p) => html`${p.players.join(' · ')} <span class="muted">— ${t(`mod.why_${p.why}`, { n: num(p.tables), chips: num(p.chips ?? 0) })}</span>`,
    )}</section>
    <section class="panel"><h2>${t('mod.log')}</h2>${list(
      entries,
      (e) => html`${date(e.at)} · <strong>${e.moderator ?? '—'}</strong> ${e.action}${e.target ? html` ${e.target}` : ''}${e.until ? html` → ${date(e.until)}` : ''}${e.reason ? html` <span class="muted">(${e.reason})</span>` : ''}${e.allowed ? '' : html` <span class="error">✗</span>`}`,
    )}</section>`,
  );
  const form = root.querySelector('[data-restrict]');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const action = ev.submitter?.value || 'ban';
    const body = { player: form.player.value, reason: form.reason.value };
    if (action === 'ban' || action === 'silence') body.minutes = Number(form.minutes.value);
    const said = root.querySelector('.mod-said');
    try {
      await api(`/api/moderation/${action}`, { method: 'POST', body });
      said.textContent = t('mod.done');
      render();
    } catch (e) {
      said.textContent = e.message;
    }
  });
}

page(render);
