// Register, log in and out; for the player themself: chips and the chip ledger.
import { api, date, header, html, num, page, setMarkup, signed, t, whoami } from './club.js';

const root = document.getElementById('account');

function form(kind) {
  const hint = kind === 'register';
  return html`<form id="${kind}-form" class="panel club-form" novalidate>
    <h2>${t(`club.${kind}`)}</h2>
    <label class="field"><span>${t('club.username')}</span>
      <input name="username" autocomplete="username" required minlength="3" maxlength="20">
      ${hint ? html`<small class="field-hint">${t('club.username_hint')}</small>` : ''}</label>
    <label class="field"><span>${t('club.password')}</span>
      <input name="password" type="password" required
        autocomplete="${kind === 'register' ? 'new-password' : 'current-password'}">
      ${hint ? html`<small class="field-hint">${t('club.password_hint')}</small>` : ''}</label>
    <p class="error form-error" role="alert"></p>
    <button class="btn primary" type="submit">${t(`club.${kind}`)}</button>
  </form>`;
}

function wire(kind) {
  const el = document.getElementById(`${kind}-form`);
  el.onsubmit = async (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(el));
    try {
      await api(`/api/${kind}`, { method: 'POST', body: data });
      await render();
    } catch (e) {
      el.querySelector('.error').textContent = e.message;
    }
  };
}

/** A stake that came back says why: two players of the table on one address (PLATFORM.md:
 * the game counted for nobody), or a game without a winner. */
const REFUNDS = { shared_address: 'club.refund_shared_address', no_winner: 'club.refund_no_winner' };

function reason(entry) {
  if (entry.reason === 'refund' && REFUNDS[entry.why]) return t(REFUNDS[entry.why]);
  return t(`club.${entry.reason}`);
}

async function render() {
  const me = await whoami();
  header(me, 'account');
  document.title = `${t('nav.account')} · Taverna`;
  if (!me || !me.registered) {
    setMarkup(
      root,
      html`<h1 class="page-title">${t('nav.account')}</h1>
      ${me ? html`<p class="page-note">${t('club.guest_as', { name: me.name, chips: num(1000) })}</p>` : ''}
      <div class="forms">${form('register')}${form('login')}</div>`,
    );
    wire('register');
    wire('login');
    return;
  }
  const ledger = await api('/api/me/ledger');
  const rows = ledger.entries
    .map(
      (e) => html`<tr><td>${date(e.at)}</td><td>${reason(e)}</td>
        <td>${e.table ? html`<a href="/#/table/${encodeURIComponent(e.table)}">${e.table}</a>` : ''}</td>
        <td class="num">${signed(e.delta)}</td><td class="num">${num(e.balance)}</td></tr>`,
  );
  setMarkup(
    root,
    html`<h1 class="page-title">${t('club.logged_in', { name: me.name })}</h1>
    <section class="panel">
      <p><strong>${t('club.chips')}: <span id="chips">${num(ledger.chips)}</span></strong>
        · <a href="/players/${encodeURIComponent(me.name)}">${t('club.my_profile')}</a></p>
      <p><button class="btn ghost" id="logout">${t('club.logout')}</button></p>
    </section>
    <section class="panel">
      <h2>${t('club.ledger')}</h2>
      <div class="table-scroll" role="region" aria-label="${t('club.ledger')}" tabindex="0"><table id="ledger"><thead><tr><th>${t('club.when')}</th><th>${t('club.reason')}</th><th>${t('club.table')}</th>
        <th class="num">${t('club.change')}</th><th class="num">${t('club.balance')}</th></tr></thead>
        <tbody>${rows}</tbody></table></div>
    </section>`,
  );
  document.getElementById('logout').onclick = async () => {
    await api('/api/logout', { method: 'POST' });
    await render();
  };
}

page(render);
