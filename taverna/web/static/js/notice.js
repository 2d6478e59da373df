// The turn notice: a short chime made here with the Web Audio API (nothing is
// downloaded), the page's title (table.js), and a browser notification when the tab is
// hidden, if the player asked for one. Sounds can be muted; both choices are remembered
// in this browser.

import { t } from './i18n.js';

const SOUND = 'taverna.sound';
const NOTIFY = 'taverna.notify';

/** What was played or shown (tests read it). */
export const heard = { sounds: [], notifications: 0 };

let audio = null;

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage refused (private mode): the defaults
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* not remembered, still applied */
  }
}

export function soundOn() {
  return stored(SOUND) !== 'off';
}

export function setSound(on) {
  store(SOUND, on ? 'on' : 'off');
}

export function notifySupported() {
  return typeof window.Notification === 'function';
}

export function notifyOn() {
  return notifySupported() && stored(NOTIFY) === 'on' && Notification.permission === 'granted';
}

/** Turn the notification on (asking the browser's permission) or off; whether it is on. */
export async function setNotify(on) {
  if (!on || !notifySupported()) {
    store(NOTIFY, 'off');
    return false;
  }
  const answer = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  store(NOTIFY, answer === 'granted' ? 'on' : 'off');
  return answer === 'granted';
}

/** The notes of each sound: [frequency Hz, start s, length s]. */
const TUNES = {
  turn: [
    [660, 0, 0.12],
    [880, 0.13, 0.18],
  ],
  over: [
    [523, 0, 0.14],
    [659, 0.15, 0.14],
    [784, 0.3, 0.26],
  ],
};

/** Play one of the table's sounds, unless they are muted. */
export function chime(kind) {
  if (!soundOn()) return;
  heard.sounds.push(kind);
  try {
    audio ??= new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const now = audio.currentTime;
    for (const [freq, at, length] of TUNES[kind] ?? []) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
  } catch {
    /* no audio here: the title and the status line still say it */
  }
}

/** It has just become this player's turn at `game`. */
export function yourTurn(game) {
  chime('turn');
  if (document.hidden && notifyOn()) {
    try {
      const n = new Notification(t('notice.your_turn', { game }), { tag: 'taverna-turn', silent: true });
      n.onclick = () => {
        window.focus();
        n.close();
      };
      heard.notifications++;
    } catch {
      /* some browsers allow notifications from a service worker only */
    }
  }
}
