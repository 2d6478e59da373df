// "How to play" (issue 14): /rules lists the three games, /rules/GAME tells one of them
// (GAME as records name it, or its short name: /rules/dominoes). The server answers all
// of these with this one page (404 for a game it does not know), and the page draws what
// its address asks for, in the visitor's language, like the club pages it sits beside.
//
// The texts are data, one file per language beside this module (rules/en.json, …): the
// page's own words (`page`) and the sections every game page ends with (`common`); each
// game brings its summary and sections in its own part (/api/games: web.rules), and a
// game without them in a language is not listed in it. A section is {id, title, blocks}; a
// block is one of
//   {p: item}   {list: [item]}   {steps: [item]}   {example: item}
//   {terms: [{lead, text}]}      {table: {head: [text], rows: [[text]]}}
// where an item is a text or {lead, text} (the lead in bold). Every text goes into the
// markup through `html`, so it stays text whatever it holds.

import { GAMES, gameTitle, header, html, page, setMarkup, t, whoami } from '../club/club.js';
import { gameFacts, gameNamed } from '../js/games.js';
import { language } from '../js/i18n.js';

const root = document.getElementById('app');
const texts = {}; // language -> its rules file, once fetched

async function fetched(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url} did not load (${r.status})`);
  return r.json();
}

/** The page's words in `lang`, with `games`: each game's rules that are written in it. */
async function rulesIn(lang) {
  if (!texts[lang]) {
    const told = GAMES.filter((g) => gameFacts(g).web?.rules?.[lang]);
    const [own, ...games] = await Promise.all([
      fetched(`/static/rules/${lang}.json`),
      ...told.map((g) => fetched(gameFacts(g).web.rules[lang])),
    ]);
    texts[lang] = { ...own, games: Object.fromEntries(told.map((g, i) => [g, games[i]])) };
  }
  return texts[lang];
}

// ---------------------------------------------------------------- the blocks

function item(x) {
  return typeof x === 'string' ? x : html`<strong>${x.lead}</strong> ${x.text}`;
}

const BLOCKS = {
  p: (x) => html`<p>${item(x)}</p>`,
  list: (xs) => html`<ul>${xs.map((x) => html`<li>${item(x)}</li>`)}</ul>`,
  steps: (xs) => html`<ol>${xs.map((x) => html`<li>${item(x)}</li>`)}</ol>`,
  example: (x, words) => html`<p class="rules-example"><strong>${words.example}</strong> ${item(x)}</p>`,
  terms: (xs) =>
    html`<dl class="rules-terms">${xs.map((x) => html`<div><dt>${x.lead}</dt><dd>${x.text}</dd></div>`)}</dl>`,
  table: (x) => html`<div class="table-scroll"><table class="rules-table">
    <thead><tr>${x.head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
    <tbody>${x.rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody>
  </table></div>`,
};

function block(b, words) {
  const [kind] = Object.keys(b);
  const draw = BLOCKS[kind];
  if (!draw) throw new TypeError(`rules: no such block as ${JSON.stringify(kind)}`);
  return draw(b[kind], words);
}

function section(s, words) {
  return html`<section id="${s.id}" aria-labelledby="${s.id}-title">
    <h2 id="${s.id}-title">${s.title}</h2>
    ${s.blocks.map((b) => block(b, words))}
  </section>`;
}

// ----------------------------------------------------------------- the pages

/** The three games as tabs, and the list of them first ("How to play"). */
function tabs(game, rules) {
  return html`<nav class="tabs club-tabs" aria-label="${rules.page.games}">
    <a class="tab" href="/rules">${rules.page.title}</a>
    ${Object.keys(rules.games).map(
      (g) =>
        html`<a class="tab" href="/rules/${g}"${g === game ? html` aria-current="page"` : ''}>${gameTitle(g)}</a>`,
    )}</nav>`;
}

/** /rules: the three games; `unknown` is the game asked for that is none of ours (or null). */
function index(rules, unknown) {
  document.title = `${rules.page.title} · Taverna`;
  setMarkup(
    root,
    html`
    <h1 class="page-title">${rules.page.title}</h1>
    ${
      unknown === null
        ? html`<p class="page-note">${rules.page.intro}</p>`
        : html`<section class="panel"><p class="error" role="alert">${t('club.unknown_game', { game: unknown })}</p></section>`
    }
    <ul class="rules-games">${Object.keys(rules.games).map(
      (g) => html`<li class="panel" data-game="${g}">
        <h2><a href="/rules/${g}">${gameTitle(g)}</a></h2>
        <p>${rules.games[g].summary}</p>
      </li>`,
    )}</ul>`,
  );
}

/** /rules/GAME: the game's sections, then the ones every game shares, with contents. */
function gamePage(game, rules) {
  const own = rules.games[game];
  const sections = [...own.sections, ...rules.common.sections];
  document.title = `${gameTitle(game)} · ${rules.page.title} · Taverna`;
  setMarkup(
    root,
    html`
    <h1 class="page-title">${rules.page.title}: ${gameTitle(game)}</h1>
    <p class="page-note">${own.summary}</p>
    ${tabs(game, rules)}
    <div class="rules-layout">
      <nav class="panel rules-toc" aria-labelledby="toc-title">
        <h2 id="toc-title">${rules.page.contents}</h2>
        <ol>${sections.map((s) => html`<li><a href="#${s.id}">${s.title}</a></li>`)}</ol>
      </nav>
      <article class="panel rules-text" data-game="${game}">${sections.map((s) => section(s, rules.page))}</article>
    </div>`,
  );
}

/** A part of the address as typed; a broken escape is kept as it is (a name nobody has). */
function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

let me; // who is here (null: nobody yet), asked once
let drawn = 0; // the latest drawing: a language switched while texts load wins
let arrived = false; // the address's #section, scrolled to once the text is there

async function render() {
  const ticket = ++drawn;
  if (me === undefined) me = await whoami();
  header(me, 'rules');
  const rules = await rulesIn(language());
  if (ticket !== drawn) return;
  const name = decoded(location.pathname.split('/')[2] || '');
  const game = gameNamed(name) ?? name;
  if (!name) index(rules, null);
  else if (rules.games[game]) gamePage(game, rules);
  else index(rules, name);
  if (!arrived && location.hash.length > 1) {
    document.getElementById(decoded(location.hash.slice(1)))?.scrollIntoView();
  }
  arrived = true;
}

page(render);
