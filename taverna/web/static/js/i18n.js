// Four languages: English, Italian, Dutch, Spanish. Chosen from the browser, switchable,
// remembered. Strings live in one JSON file per language (lang/xx.json), and each game
// brings its own (js/games.js adds them); `{name}` placeholders are filled from the
// parameters.

export const LANGUAGES = {
  en: 'English',
  it: 'Italiano',
  nl: 'Nederlands',
  es: 'Español',
};

const tables = {};
let current = 'en';

function fromBrowser() {
  const wanted = [...(navigator.languages || []), navigator.language || ''];
  for (const tag of wanted) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return 'en';
}

export async function loadLanguages() {
  await Promise.all(
    Object.keys(LANGUAGES).map(async (code) => {
      const r = await fetch(`/static/js/lang/${code}.json`);
      addStrings(code, await r.json());
    }),
  );
  let saved = null;
  try {
    saved = localStorage.getItem('taverna.lang');
  } catch {
    saved = null;
  }
  setLanguage(saved in LANGUAGES ? saved : fromBrowser(), false);
}

/** Add strings to a language (a game's, js/games.js). */
export function addStrings(code, strings) {
  tables[code] = Object.assign(tables[code] || {}, strings);
}

export function language() {
  return current;
}

export function setLanguage(code, remember = true) {
  current = code in LANGUAGES ? code : 'en';
  document.documentElement.lang = current;
  if (remember) {
    try {
      localStorage.setItem('taverna.lang', current);
    } catch {
      /* private mode: not remembered */
    }
  }
  window.dispatchEvent(new CustomEvent('taverna:language'));
}

/** The string `key` in the current language, `{x}` filled from `params`. */
export function t(key, params = {}) {
  let s = tables[current]?.[key] ?? tables.en?.[key];
  if (s === undefined) {
    console.warn('missing string', key);
    s = key;
  }
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Whether `key` has a string (in the current language or in English). */
export function has(key) {
  return (tables[current]?.[key] ?? tables.en?.[key]) !== undefined;
}

/** Pick `key_one` or `key_other` by count (all four languages need only these two). */
export function tn(key, n, params = {}) {
  return t(n === 1 ? `${key}_one` : `${key}_other`, { n, ...params });
}

/** A number as the page's language writes it: 1,000 (en), 1.000 (it, nl), 1000 (es). */
export function num(n) {
  return typeof n === 'number' ? new Intl.NumberFormat(current).format(n) : String(n ?? '');
}
