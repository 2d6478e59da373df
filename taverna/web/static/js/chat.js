// A table's chat panel (docs/protocol.md, Chat): free text and quick phrases, the
// table's own words about its seats, mute (remembered in this browser) and report.
//
// The panel is one element made once per table page and put back into the page after
// each redraw (table.js), so what is being typed, the focus and the scroll survive the
// table's updates. A message is always text: every line is built with textContent,
// never markup.

import { api, session } from './api.js';
import { has, language, t } from './i18n.js';
import { html, setMarkup } from './html.js';
import { toast } from './ui.js';

/** The quick phrases, as the server knows them (taverna/server/chat.py PHRASES). */
export const PHRASES = [
  'hello',
  'good_luck',
  'nice_hand',
  'well_played',
  'good_game',
  'thanks',
  'sorry',
  'oops',
  'hurry_up',
  'bye',
];
const MAX_TEXT = 300;
const KEEP = 200; // messages kept in the page
const MUTED_KEY = 'taverna.muted';

/** The people this browser has muted: [{id, name}] (localStorage; none if it is off). */
export function mutedPeople() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) || '[]');
    return Array.isArray(list) ? list.filter((p) => p && typeof p.id === 'string') : [];
  } catch {
    return [];
  }
}

function saveMuted(list) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify(list));
  } catch {
    /* private browsing: muted for this page only */
  }
}

/** A message's words in the page's language: its text, its phrase, or the table's event. */
export function messageWords(m) {
  if (m.event) {
    const key = `chat.event.${m.event.type}`;
    return has(key) ? t(key, { name: m.event.name ?? m.name ?? '' }) : '';
  }
  if (m.phrase) return has(`chat.phrase.${m.phrase}`) ? t(`chat.phrase.${m.phrase}`) : m.phrase;
  return m.text ?? '';
}

function clock(at) {
  return new Date(at * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** One message as a list item, built as text (the name and the words never become markup). */
export function messageItem(m, { spectatorLabel = false, tools = null } = {}) {
  const li = document.createElement('li');
  li.className = `chat-line${m.event ? ' chat-event' : ''}${m.room === 'spectators' ? ' from-spectator' : ''}`;
  li.dataset.id = String(m.id);
  if (m.player) li.dataset.player = m.player;
  const time = document.createElement('time');
  time.className = 'chat-time';
  time.textContent = clock(m.at);
  li.append(time, ' ');
  if (!m.event) {
    const who = document.createElement('bdi');
    who.className = 'chat-name';
    who.textContent = m.name ?? '';
    li.append(who);
    if (spectatorLabel && m.room === 'spectators') {
      const tag = document.createElement('span');
      tag.className = 'chat-tag';
      tag.textContent = t('chat.from_spectator');
      li.append(' ', tag);
    }
    li.append(': ');
  }
  const words = document.createElement('span');
  words.className = m.phrase ? 'chat-text chat-phrase' : 'chat-text';
  words.dir = 'auto';
  words.textContent = messageWords(m);
  li.append(words);
  if (tools) li.append(tools);
  return li;
}

/**
 * The chat of the table page. `get()` answers `{table, seat, view}` as the page has
 * them; `socket()` the table's socket (or null).
 */
export function createChat({ tableId, get, socket }) {
  let messages = [];
  let muted = mutedPeople();
  const reported = new Set();
  let stick = true; // the list follows the newest message unless the reader scrolled up
  let top = 0;
  let saidIn = language(); // the language the list was drawn in (phrases, events)

  const root = document.createElement('section');
  root.className = 'panel chat';
  root.setAttribute('aria-labelledby', 'chat-title');
  setMarkup(
    root,
    html`<div class="chat-head"></div>
    <p class="chat-note" hidden></p>
    <div class="chat-scroll" tabindex="0" data-key="chat-log" role="log" aria-live="polite" aria-labelledby="chat-title">
      <ol class="chat-list"></ol></div>
    <div class="chat-muted" hidden></div>
    <div class="chat-phrases" role="group" aria-labelledby="chat-phrases-title"></div>
    <form class="chat-form" autocomplete="off">
      <label class="sr-only" for="chat-input"></label>
      <input id="chat-input" name="text" maxlength="${MAX_TEXT}" data-key="chat-input" enterkeyhint="send">
      <button class="btn primary small" type="submit" data-key="chat-send"></button>
    </form>`,
  );
  const $ = (sel) => root.querySelector(sel);
  const scroller = $('.chat-scroll');
  const input = $('#chat-input');
  scroller.addEventListener('scroll', () => {
    top = scroller.scrollTop;
    stick = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 8;
  });
  $('.chat-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send({ text })) input.value = '';
  });
  root.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b || !root.contains(b)) return;
    if (b.dataset.phrase) send({ phrase: b.dataset.phrase });
    else if (b.dataset.mute) mute(b.dataset.mute, b.dataset.name || '');
    else if (b.dataset.unmute) unmute(b.dataset.unmute);
    else if (b.dataset.report) report(Number(b.dataset.report));
    else if ('chatSwitch' in b.dataset) switchChat(b.dataset.chatSwitch !== 'on');
  });
  window.addEventListener('storage', onStorage);

  function onStorage(e) {
    if (e.key !== MUTED_KEY) return;
    muted = mutedPeople();
    drawList();
  }

  function send(body) {
    const s = socket();
    if (!s || !s.chat(body)) {
      toast(t('net.offline_act'), 'error');
      return false;
    }
    return true;
  }

  function mute(id, name) {
    if (muted.some((p) => p.id === id)) return;
    muted = [...mutedPeople().filter((p) => p.id !== id), { id, name }];
    saveMuted(muted);
    drawList();
  }

  function unmute(id) {
    muted = mutedPeople().filter((p) => p.id !== id);
    saveMuted(muted);
    drawList();
  }

  async function report(id) {
    try {
      await api('POST', `/api/tables/${encodeURIComponent(tableId)}/chat/${id}/report`, {});
      reported.add(id);
      toast(t('chat.reported'));
      drawList();
    } catch (e) {
      toast(e.message, 'error');
    }
  }

  async function switchChat(on) {
    try {
      await api('PUT', `/api/tables/${encodeURIComponent(tableId)}/chat`, { on });
    } catch (e) {
      toast(e.message, 'error');
    }
  }

  /** What may be written now: 'text' (and phrases), 'phrases', or null, and why not. */
  function allowed() {
    const { table, view } = get();
    if (!table) return { can: null, note: '' };
    if (table.options?.chat === false) return { can: null, note: t('chat.off') };
    if (table.official) {
      const inHand = !!view && !view.over && (view.to_act?.length ?? 0) > 0;
      return { can: inHand ? 'phrases' : null, note: t('chat.official') };
    }
    return { can: 'text', note: '' };
  }

  function tools(m) {
    const me = session.player?.id;
    if (m.event || !m.player || m.player === me) return null;
    const box = document.createElement('span');
    box.className = 'chat-tools';
    const muteBtn = document.createElement('button');
    muteBtn.type = 'button';
    muteBtn.className = 'btn ghost tiny';
    muteBtn.dataset.mute = m.player;
    muteBtn.dataset.name = m.name ?? '';
    muteBtn.textContent = t('chat.mute');
    muteBtn.setAttribute('aria-label', t('chat.mute_label', { name: m.name ?? '' }));
    const reportBtn = document.createElement('button');
    reportBtn.type = 'button';
    reportBtn.className = 'btn ghost tiny';
    reportBtn.dataset.report = String(m.id);
    reportBtn.textContent = t('chat.report');
    reportBtn.setAttribute('aria-label', t('chat.report_label', { name: m.name ?? '' }));
    if (reported.has(m.id)) reportBtn.disabled = true;
    box.append(' ', muteBtn, ' ', reportBtn);
    return box;
  }

  function drawList() {
    saidIn = language();
    const hidden = new Set(muted.map((p) => p.id));
    const { seat } = get();
    const list = $('.chat-list');
    const shown = messages.filter((m) => !(m.player && hidden.has(m.player)));
    list.replaceChildren(
      ...shown.map((m) => messageItem(m, { spectatorLabel: seat === null, tools: tools(m) })),
    );
    if (!shown.length) {
      const li = document.createElement('li');
      li.className = 'chat-empty muted';
      li.textContent = t('chat.empty');
      list.append(li);
    }
    const box = $('.chat-muted');
    box.hidden = !muted.length;
    box.replaceChildren();
    if (muted.length) {
      const label = document.createElement('span');
      label.textContent = t('chat.muted');
      box.append(label);
      for (const p of muted) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'btn ghost tiny';
        b.dataset.unmute = p.id;
        b.textContent = t('chat.unmute', { name: p.name });
        box.append(' ', b);
      }
    }
    follow();
  }

  function follow() {
    if (stick) scroller.scrollTop = scroller.scrollHeight;
    else scroller.scrollTop = top;
  }

  /** The parts that follow the table (its switch, the host) and the language. */
  function drawControls() {
    const { table, seat } = get();
    const host = !!table && !!session.player && table.owner === session.player.id;
    const off = table?.options?.chat === false;
    setMarkup(
      $('.chat-head'),
      html`<h2 id="chat-title">${t('chat.title')}</h2>${
        host
          ? html`<button type="button" class="btn ghost tiny" data-chat-switch="${off ? 'off' : 'on'}" data-key="chat-switch">${t(off ? 'chat.turn_on' : 'chat.turn_off')}</button>`
          : ''
      }`,
    );
    const { can, note } = allowed();
    const watching = seat === null && table?.status === 'playing' && !off;
    const said = note || (watching ? t('chat.spectators_note') : '');
    const p = $('.chat-note');
    p.hidden = !said;
    p.textContent = said;
    setMarkup(
      $('.chat-phrases'),
      html`<span class="sr-only" id="chat-phrases-title">${t('chat.phrases')}</span>${PHRASES.map(
        (k) =>
          html`<button type="button" class="btn ghost tiny" data-phrase="${k}" data-key="chat-phrase-${k}"${
            can ? '' : html` disabled`
          }>${t(`chat.phrase.${k}`)}</button>`,
      )}`,
    );
    const form = $('.chat-form');
    form.hidden = can !== 'text';
    $('.chat-form label').textContent = t('chat.input_label');
    input.placeholder = t('chat.placeholder');
    $('.chat-form button').textContent = t('chat.send');
  }

  return {
    element: root,
    /** A welcome's recent chat: what this connection may read (it replaces the list). */
    welcome(recent) {
      messages = [...(recent || [])];
      stick = true;
      drawList();
    },
    /** A new message (or the table's own words). */
    add(m) {
      if (messages.some((x) => x.id === m.id)) return;
      messages.push(m);
      if (messages.length > KEEP) messages.splice(0, messages.length - KEEP);
      drawList();
    },
    /** Put the panel into the freshly drawn page: the side of the table, or below the seats. */
    place(app) {
      const where = app.querySelector('.table-layout .side') || app.querySelector('.table-page');
      if (!where || app.querySelector('.not-found')) return;
      drawControls();
      if (saidIn !== language()) drawList(); // the page's language changed
      if (root.parentNode !== where) where.append(root);
      follow();
    },
    unmount() {
      window.removeEventListener('storage', onStorage);
      root.remove();
    },
  };
}

/** A table's chat as its replay page shows it (GET /api/tables/{id}/chat): each room
 * under its own heading, the spectators' only if they said something; the people this
 * browser muted stay muted. */
export function chatRecord(messages) {
  const hidden = new Set(mutedPeople().map((p) => p.id));
  const root = document.createElement('section');
  root.className = 'panel chat replay-chat';
  root.setAttribute('aria-labelledby', 'chat-title');
  const title = document.createElement('h2');
  title.id = 'chat-title';
  title.textContent = t('chat.title');
  root.append(title);
  for (const room of ['players', 'spectators']) {
    const said = messages.filter((m) => m.room === room && !(m.player && hidden.has(m.player)));
    if (room === 'spectators' && !said.length) continue;
    const head = document.createElement('h3');
    head.id = `chat-${room}`;
    head.textContent = t(room === 'players' ? 'chat.players' : 'chat.spectators');
    const scroll = document.createElement('div');
    scroll.className = 'chat-scroll';
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'log');
    scroll.setAttribute('aria-labelledby', head.id);
    scroll.dataset.room = room;
    const list = document.createElement('ol');
    list.className = 'chat-list';
    list.append(...said.map((m) => messageItem(m)));
    if (!said.length) {
      const li = document.createElement('li');
      li.className = 'chat-empty muted';
      li.textContent = t('chat.empty');
      list.append(li);
    }
    scroll.append(list);
    root.append(head, scroll);
  }
  return root;
}
