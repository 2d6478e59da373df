// Register, log in and out; for the player themself: chips and the chip ledger.
import { api, date, esc, header, signed, t, whoami } from './club.js';

const root = document.getElementById('account');

function form(kind) {
  const hint = kind === 'register';
  return `<form id="${kind}-form" novalidate>
    <h2>${esc(t(kind))}</h2>
    <label>${esc(t('username'))}
      <input name="username" autocomplete="username" required minlength="3" maxlength="20">
      ${hint ? `<span class="hint">${esc(t('username_hint'))}</span>` : ''}</label>
    <label>${esc(t('password'))}
      <input name="password" type="password" required
        autocomplete="${kind === 'register' ? 'new-password' : 'current-password'}">
      ${hint ? `<span class="hint">${esc(t('password_hint'))}</span>` : ''}</label>
    <p class="error" role="alert"></p>
    <button type="submit">${esc(t(kind))}</button>
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
  if (!me || !me.registered) {
    root.innerHTML = `<h1>${esc(t('account'))}</h1>
      ${me ? `<p>${esc(t('guest_as', { name: me.name }))}</p>` : ''}
      <div class="forms">${form('register')}${form('login')}</div>`;
    wire('register');
    wire('login');
    return;
  }
  const ledger = await api('/api/me/ledger');
  const rows = ledger.entries
    .map(
      (e) => `<tr><td>${esc(date(e.at))}</td><td>${esc(t(e.reason))}</td>
        <td>${e.table ? `<a href="/#/table/${encodeURIComponent(e.table)}">${esc(e.table)}</a>` : ''}</td>
        <td class="num">${signed(e.delta)}</td><td class="num">${e.balance}</td></tr>`,
    )
    .join('');
  root.innerHTML = `<h1>${esc(t('logged_in', { name: me.name }))}</h1>
    <p><strong>${esc(t('chips'))}: <span id="chips">${ledger.chips}</span></strong>
      · <a href="/players/${encodeURIComponent(me.name)}">${esc(t('my_profile'))}</a></p>
    <p><button id="logout">${esc(t('logout'))}</button></p>
    <h2>${esc(t('ledger'))}</h2>
    <table id="ledger"><thead><tr><th>${esc(t('when'))}</th><th>${esc(t('reason'))}</th><th>${esc(t('table'))}</th>
      <th class="num">${esc(t('change'))}</th><th class="num">${esc(t('balance'))}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
  document.getElementById('logout').onclick = async () => {
    await api('/api/logout', { method: 'POST' });
    await render();
  };
}

render();
