// The one way the client turns text into markup (issue 13: a player's name is text,
// never markup, wherever it is shown).
//
//   html`<li class="${cls}">${name}</li>`   markup, every value in it escaped
//   setMarkup(element, markup)              the only place that assigns innerHTML
//
// A value is escaped for text and for a quoted attribute value alike (& < > " ' `),
// unless it is itself markup made by `html` (a nested template) or an array of such
// (joined); null, undefined and false are left out. Inside a tag but outside quotes
// only markup (or nothing) may stand, `<input ${on ? html`checked` : ''}>`, since
// text there could become an attribute of its own; inside a quoted value only text.
// A value in the wrong place throws, so a mistake shows the first time it is drawn.
//
// No style="…" in markup: the Content-Security-Policy refuses inline styles. A
// CSS custom property comes instead as data-vars="--name: value; …", set by
// `setMarkup` through the CSSOM (which the policy allows).

/** Markup made by `html`: only this module makes one, so data (JSON) never is one. */
class Html {
  #markup;

  constructor(markup) {
    this.#markup = markup;
    Object.freeze(this);
  }

  toString() {
    return this.#markup;
  }
}

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

function escapeText(value) {
  return String(value).replace(/[&<>"'`]/g, (ch) => ESCAPES[ch]);
}

// Where each value of a template stands: 'text' (between tags), 'tag' (inside a
// tag, outside quotes) or 'value' (inside a quoted attribute value). Worked out
// once per template: its strings are the same array on every call.
const PLACES = new WeakMap();

function places(strings) {
  let found = PLACES.get(strings);
  if (found) return found;
  found = [];
  let state = 'text';
  let quote = '';
  for (let i = 0; i < strings.length - 1; i++) {
    const s = strings[i];
    for (let j = 0; j < s.length; j++) {
      const ch = s[j];
      if (state === 'text') {
        if (ch === '<' && /[A-Za-z/!]/.test(s[j + 1] ?? '')) state = 'tag';
      } else if (state === 'tag') {
        if (ch === '"' || ch === "'") {
          state = 'value';
          quote = ch;
        } else if (ch === '>') state = 'text';
      } else if (ch === quote) state = 'tag';
    }
    found.push(state);
  }
  PLACES.set(strings, found);
  return found;
}

function piece(value, place) {
  if (value === null || value === undefined) return '';
  if (place === 'value') {
    if (value instanceof Html || Array.isArray(value)) {
      throw new TypeError(`html: markup inside an attribute value: ${value}`);
    }
    return escapeText(value);
  }
  if (value === false) return '';
  if (value instanceof Html) return value.toString();
  if (Array.isArray(value)) return value.map((v) => piece(v, place)).join('');
  if (place === 'tag') {
    if (value === '') return '';
    throw new TypeError(`html: text inside a tag, outside quotes: ${JSON.stringify(value)}`);
  }
  return escapeText(value);
}

/** Markup from a template literal, every value escaped (see the top of this module). */
export function html(strings, ...values) {
  const where = places(strings);
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += piece(values[i], where[i]) + strings[i + 1];
  return new Html(out);
}

/** Put `markup` (made by `html`) into `element`, replacing what it held. */
export function setMarkup(element, markup) {
  if (!(markup instanceof Html)) throw new TypeError('setMarkup: only markup made by html`…`');
  element.innerHTML = markup.toString();
  for (const el of element.querySelectorAll('[data-vars]')) {
    for (const pair of el.dataset.vars.split(';')) {
      const at = pair.indexOf(':');
      const name = pair.slice(0, at).trim();
      if (at > 0 && name.startsWith('--')) el.style.setProperty(name, pair.slice(at + 1).trim());
    }
  }
}
