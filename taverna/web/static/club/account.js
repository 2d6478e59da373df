// Register, log in and out; for the player themself: chips and the chip ledger.
import { api, date, esc, header, num, page, signed, t, whoami } from './club.js';

const root = document.getElementById('account');

function form(kind) {
  const hint = kind === 'register';
  return `<form id="${kind}-form" class="panel club-form" novalidate>
    <h2>${esc(t(`club.${kind}`))}</h2>
    <label class="field"><span>${esc(t('club.username'))}</span>
      <input name="username" autocomplete="username" required minlength="3" maxlength="20">
      ${hint ? `<small class="field-hint">${esc(t('club.username_hint'))}</small>` : ''}</label>
    <label class="field"><span>${esc(t('club.password'))}</span>
      <input name="password" type="password" required
        autocomplete="${kind === 'register' ? 'new-password' : 'current-password'}">
      ${hint ? `<small class="field-hint">${esc(t('club.password_hint'))}</small>` : ''}</label>
    <p class="error form-error" role="alert"></p>
    <button class="btn primary" type="submit">${esc(t(`club.${kind}`))}</button>
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

async function render() {
  const me = await whoami();
  header(me, 'account');
  document.title = `${t('nav.account')} · Taverna`;
  if (!me || !me.registered) {
    root.innerHTML = `<h1 class="page-title">${esc(t('nav.account'))}</h1>
      ${me ? `<p class="page-note">${esc(t('club.guest_as', { name: me.name, chips: num(1000) }))}</p>` : ''}
      <div class="forms">${form('register')}${form('login')}</div>`;
    wire('register');
    wire('login');
    return;
  }
  const ledger = await api('/api/me/ledger');
  const rows = ledger.entries
    .map(
      (e) => `<tr><td>${esc(date(e.at))}</td><td>${esc(t(`club.${e.reason}`))}</td>
        <td>${e.table ? `<a href="/#/table/${encodeURIComponent(e.table)}">${esc(e.table)}</a>` : ''}</td>
        <td class="num">${signed(e.delta)}</td><td class="num">${esc(num(e.balance))}</td></tr>`,
    )
    .join('');
  root.innerHTML = `<h1 class="page-title">${esc(t('club.logged_in', { name: me.name }))}</h1>
    <section class="panel">
      <p><strong>${esc(t('club.chips'))}: <span id="chips">${esc(num(ledger.chips))}</span></strong>
        · <a href="/players/${encodeURIComponent(me.name)}">${esc(t('club.my_profile'))}</a></p>
      <p><button class="btn ghost" id="logout">${esc(t('club.logout'))}</button></p>
    </section>
    <section class="panel">
      <h2>${esc(t('club.ledger'))}</h2>
      <div class="table-scroll"><table id="ledger"><thead><tr><th>${esc(t('club.when'))}</th><th>${esc(
        t('club.reason'),
      )}</th><th>${esc(t('club.table'))}</th>
        <th class="num">${esc(t('club.change'))}</th><th class="num">${esc(t('club.balance'))}</th></tr></thead>
        <tbody>${rows}</tbody></table></div>
    </section>`;
  document.getElementById('logout').onclick = async () => {
    await api('/api/logout', { method: 'POST' });
    await render();
  };
}

page(render);
