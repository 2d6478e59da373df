// Shared by the club pages: the API, escaping, a few strings in four languages, the header.
// The server's refusals are said as in the main client (js/errors.js, js/lang/*.json).

import { explainHttp } from '../js/errors.js';
import { loadLanguages, setLanguage } from '../js/i18n.js';

const STRINGS = {
  en: {
    unknown_game: 'There is no game called “{game}” here: choose one of ours.',
    club: 'Taverna', lobby: 'Lobby', ranking: 'Ranking', account: 'Account',
    'muggins-dominoes': 'Muggins dominoes', 'muggins-cards': 'Muggins cards', mus: 'Mus',
    rank: '#', player: 'Player', points: 'Points', games: 'Games', wins: 'Won', losses: 'Lost',
    abandons: 'Abandoned', nobody: 'Nobody is ranked yet: play an official game.',
    previous: 'Previous', next: 'Next',
    register: 'Register', login: 'Log in', logout: 'Log out', username: 'Username',
    password: 'Password', username_hint: '3–20 letters, digits, . - _',
    password_hint: 'At least 10 characters, not your username, not a common password.',
    guest_as: 'You play as the guest {name}: register to keep your games and get 1,000 chips.',
    logged_in: 'Logged in as {name}', chips: 'Chips', ledger: 'Chip ledger', when: 'When',
    reason: 'Reason', table: 'Table', change: 'Change', balance: 'Balance',
    welcome: 'Welcome gift', stake: 'Stake held', win: 'Won', refund: 'Stake returned',
    profile: 'Profile', since: 'Registered {date}', history: 'Games', game: 'Game',
    outcome: 'Outcome', won: 'won', lost: 'lost', abandoned: 'abandoned', draw: 'draw',
    replay: 'Replay', official: 'official', casual: 'casual', no_games: 'No finished games yet.',
    no_player: 'There is no registered player of that name.', standing: 'Standings',
    my_profile: 'My profile',
  },
  it: {
    unknown_game: 'Qui non c’è nessun gioco chiamato «{game}»: scegline uno dei nostri.',
    club: 'Taverna', lobby: 'Sala', ranking: 'Classifica', account: 'Account',
    'muggins-dominoes': 'Domino Muggins', 'muggins-cards': 'Carte Muggins', mus: 'Mus',
    rank: '#', player: 'Giocatore', points: 'Punti', games: 'Partite', wins: 'Vinte', losses: 'Perse',
    abandons: 'Abbandonate', nobody: 'Ancora nessuno in classifica: gioca una partita ufficiale.',
    previous: 'Precedenti', next: 'Successivi',
    register: 'Registrati', login: 'Entra', logout: 'Esci', username: 'Nome utente',
    password: 'Password', username_hint: '3–20 lettere, cifre, . - _',
    password_hint: 'Almeno 10 caratteri, non il nome utente, non una password comune.',
    guest_as: 'Giochi come ospite {name}: registrati per tenere le tue partite e ricevere 1.000 fiches.',
    logged_in: 'Sei entrato come {name}', chips: 'Fiches', ledger: 'Movimenti fiches', when: 'Quando',
    reason: 'Causa', table: 'Tavolo', change: 'Variazione', balance: 'Saldo',
    welcome: 'Regalo di benvenuto', stake: 'Posta trattenuta', win: 'Vinto', refund: 'Posta restituita',
    profile: 'Profilo', since: 'Registrato il {date}', history: 'Partite', game: 'Gioco',
    outcome: 'Esito', won: 'vinta', lost: 'persa', abandoned: 'abbandonata', draw: 'pari',
    replay: 'Rivedi', official: 'ufficiale', casual: 'amichevole', no_games: 'Nessuna partita finita.',
    no_player: 'Nessun giocatore registrato con questo nome.', standing: 'Classifiche',
    my_profile: 'Il mio profilo',
  },
  nl: {
    unknown_game: 'Hier is geen spel dat ‘{game}’ heet: kies een van de onze.',
    club: 'Taverna', lobby: 'Lobby', ranking: 'Ranglijst', account: 'Account',
    'muggins-dominoes': 'Muggins domino', 'muggins-cards': 'Muggins kaarten', mus: 'Mus',
    rank: '#', player: 'Speler', points: 'Punten', games: 'Partijen', wins: 'Gewonnen', losses: 'Verloren',
    abandons: 'Verlaten', nobody: 'Nog niemand in de ranglijst: speel een officiële partij.',
    previous: 'Vorige', next: 'Volgende',
    register: 'Registreren', login: 'Inloggen', logout: 'Uitloggen', username: 'Gebruikersnaam',
    password: 'Wachtwoord', username_hint: '3–20 letters, cijfers, . - _',
    password_hint: 'Minstens 10 tekens, niet je gebruikersnaam, geen veelgebruikt wachtwoord.',
    guest_as: 'Je speelt als gast {name}: registreer om je partijen te bewaren en 1.000 fiches te krijgen.',
    logged_in: 'Ingelogd als {name}', chips: 'Fiches', ledger: 'Fichesoverzicht', when: 'Wanneer',
    reason: 'Reden', table: 'Tafel', change: 'Wijziging', balance: 'Saldo',
    welcome: 'Welkomstcadeau', stake: 'Inzet vastgehouden', win: 'Gewonnen', refund: 'Inzet terug',
    profile: 'Profiel', since: 'Geregistreerd {date}', history: 'Partijen', game: 'Spel',
    outcome: 'Uitslag', won: 'gewonnen', lost: 'verloren', abandoned: 'verlaten', draw: 'gelijk',
    replay: 'Terugkijken', official: 'officieel', casual: 'vrij', no_games: 'Nog geen afgelopen partijen.',
    no_player: 'Er is geen geregistreerde speler met die naam.', standing: 'Ranglijsten',
    my_profile: 'Mijn profiel',
  },
  es: {
    unknown_game: 'Aquí no hay ningún juego llamado «{game}»: elige uno de los nuestros.',
    club: 'Taverna', lobby: 'Sala', ranking: 'Clasificación', account: 'Cuenta',
    'muggins-dominoes': 'Dominó Muggins', 'muggins-cards': 'Cartas Muggins', mus: 'Mus',
    rank: '#', player: 'Jugador', points: 'Puntos', games: 'Partidas', wins: 'Ganadas', losses: 'Perdidas',
    abandons: 'Abandonadas', nobody: 'Aún no hay nadie clasificado: juega una partida oficial.',
    previous: 'Anteriores', next: 'Siguientes',
    register: 'Registrarse', login: 'Entrar', logout: 'Salir', username: 'Usuario',
    password: 'Contraseña', username_hint: '3–20 letras, cifras, . - _',
    password_hint: 'Al menos 10 caracteres, no tu usuario, no una contraseña común.',
    guest_as: 'Juegas como invitado {name}: regístrate para guardar tus partidas y recibir 1.000 fichas.',
    logged_in: 'Has entrado como {name}', chips: 'Fichas', ledger: 'Movimientos de fichas', when: 'Cuándo',
    reason: 'Motivo', table: 'Mesa', change: 'Cambio', balance: 'Saldo',
    welcome: 'Regalo de bienvenida', stake: 'Apuesta retenida', win: 'Ganado', refund: 'Apuesta devuelta',
    profile: 'Perfil', since: 'Registrado el {date}', history: 'Partidas', game: 'Juego',
    outcome: 'Resultado', won: 'ganada', lost: 'perdida', abandoned: 'abandonada', draw: 'empate',
    replay: 'Repetición', official: 'oficial', casual: 'amistosa', no_games: 'Aún no hay partidas terminadas.',
    no_player: 'No hay ningún jugador registrado con ese nombre.', standing: 'Clasificaciones',
    my_profile: 'Mi perfil',
  },
};

export const GAMES = ['muggins-dominoes', 'muggins-cards', 'mus'];

function pickLanguage() {
  const asked = new URLSearchParams(location.search).get('lang') || localStorage.getItem('taverna.lang');
  for (const code of [asked, ...(navigator.languages || [navigator.language])]) {
    const short = (code || '').slice(0, 2).toLowerCase();
    if (STRINGS[short]) return short;
  }
  return 'en';
}

export const lang = pickLanguage();
document.documentElement.lang = lang;
await loadLanguages();
setLanguage(lang, false);

export function t(key, vars = {}) {
  const text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
}

export function esc(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function signed(n) {
  const cls = n > 0 ? 'plus' : n < 0 ? 'minus' : '';
  return `<span class="${cls}">${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n)}</span>`;
}

export function date(iso) {
  return iso ? new Date(iso).toLocaleString(lang) : '';
}

/** Call the API: the parsed JSON, or an Error whose message says the server's refusal
 * in the page's language (`code`, `params` and the English `detail` kept). */
export async function api(path, { method = 'GET', body } = {}) {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    let detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join('; ') : data.detail;
    detail = detail || `${res.status} ${res.statusText}`;
    const error = new Error(explainHttp({ code: data.code, params: data.params || {}, detail }));
    Object.assign(error, { status: res.status, code: data.code ?? null, params: data.params || {}, detail });
    throw error;
  }
  return data;
}

/** Who is here: the account or guest, or null (a first visit: no session yet, no error). */
export async function whoami() {
  try {
    const { player } = await api('/api/session');
    return player ? (await api('/api/me')).player : null;
  } catch {
    return null;
  }
}

/** The header: the club, the lobby, the ranking, the account. */
export function header(me, current) {
  const link = (href, key) =>
    `<a href="${href}"${current === key ? ' aria-current="page"' : ''}>${esc(t(key))}</a>`;
  const who = me
    ? `<a class="who" href="/account">${esc(me.name)}${me.registered ? ` · ${esc(me.chips)} ${esc(t('chips'))}` : ''}</a>`
    : `<a class="who" href="/account">${esc(t('login'))}</a>`;
  document.querySelector('header').innerHTML =
    `<a class="brand" href="/">${esc(t('club'))}</a>${link('/', 'lobby')}${link('/ranking', 'ranking')}${who}`;
}
