// HTTP calls to the server (docs/protocol.md) and the guest session.

import { explainHttp } from './errors.js';
import { t } from './i18n.js';

/** A refused call: `message` in the page's language, `detail` the server's English,
 * `code` and `params` as the server sent them (docs/protocol.md, Errors). */
export class ApiError extends Error {
  constructor(status, message, { code = null, params = {}, detail = message } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
    this.detail = detail;
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, init);
  } catch {
    throw new ApiError(0, t('error.network'));
  }
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) {
    let detail = data?.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg).join('; ');
    detail = detail || `HTTP ${r.status}`;
    const code = data?.code ?? null;
    const params = data?.params ?? {};
    throw new ApiError(r.status, explainHttp({ code, params, detail }), { code, params, detail });
  }
  return data;
}

export const session = { player: null };

/** Who is here: `{player: null}` before anybody has given a name (not an error). */
export async function loadSession() {
  try {
    session.player = (await api('GET', '/api/session')).player ?? null;
  } catch {
    session.player = null;
  }
  return session.player;
}

export async function startSession(name) {
  session.player = (await api('POST', '/api/session', { name })).player;
  window.dispatchEvent(new CustomEvent('taverna:session'));
  return session.player;
}

/** The session, asking for a name first when there is none; null if the person cancels. */
export async function ensureSession() {
  if (session.player) return session.player;
  return askName();
}

/** Ask for a name and start a session with it; a refused name (say, a registered
 * player's) is explained in the dialog, which stays open for another. */
function askName() {
  return new Promise((resolve) => {
    const dialog = document.getElementById('name-dialog');
    const form = dialog.querySelector('form');
    const input = dialog.querySelector('input');
    const error = dialog.querySelector('.form-error');
    dialog.querySelector('h2').textContent = t('name.title');
    dialog.querySelector('p:not(.form-error)').textContent = t('name.why');
    dialog.querySelector('label span').textContent = t('name.label');
    dialog.querySelector('[value=ok]').textContent = t('name.ok');
    dialog.querySelector('[value=cancel]').textContent = t('cancel');
    input.value = '';
    error.textContent = '';
    input.removeAttribute('aria-invalid');
    const done = (value) => {
      form.onsubmit = null;
      dialog.onclose = null;
      resolve(value);
    };
    // Cancel is not a submit button: Enter in the name field is OK (the form's default button)
    dialog.querySelector('[value=cancel]').onclick = () => dialog.close();
    form.onsubmit = async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) {
        input.focus();
        return;
      }
      try {
        const player = await startSession(name);
        dialog.onclose = null;
        dialog.close();
        done(player);
      } catch (err) {
        error.textContent = err.message;
        input.setAttribute('aria-invalid', 'true');
        input.select();
        input.focus();
      }
    };
    dialog.onclose = () => done(null);
    dialog.showModal();
    input.focus();
  });
}
