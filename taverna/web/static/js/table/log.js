// The table's log: every event the page hears, kept as events and told at drawing time
// in the language of the moment (the game's board module says each, `narrate`).

import { t } from '../i18n.js';
import { html } from '../html.js';
import { plainName, toast } from '../ui.js';
import { ctx, game } from './state.js';

const LOG_SIZE = 300;
/** The lines of the log shown, the newest first. */
const LOG_SHOWN = 60;

/** Put events into the log and let the game module learn from them. */
export function tell(page, events, fresh) {
  const { S } = page;
  const g = game(page);
  if (!g || !events) return;
  const c = ctx(page);
  let timeout = null; // the server's {type: 'timeout', seat, bot}: told with the move it made
  for (const e of events) {
    if (e.type === 'timeout') {
      timeout = e;
      if (fresh && e.seat === S.seat) toast(t('table.you_timed_out'), 'info');
      continue;
    }
    g.learn?.(e, c);
    // the stand-in's move is the first event of the seat that ran out of time
    const standIn = timeout && e.seat === timeout.seat ? timeout : null;
    if (standIn) timeout = null;
    // kept as events and told at drawing time, in the language of the moment
    if (g.narrate(e, c)) S.log.push({ e, fresh, standIn });
  }
  if (timeout) S.log.push({ e: timeout, fresh, own: true }); // a timeout with no move of its own
  if (S.log.length > LOG_SIZE) S.log.splice(0, S.log.length - LOG_SIZE);
}

/** A line the table tells itself (not a game's event): a person's seat a bot has just
 * taken. */
export function tellReplaced(page, seat, name) {
  page.S.log.push({ e: { type: 'replaced', seat, name }, fresh: true, own: true });
}

/** A line of the log that the table tells itself (not a game's event). */
function ownLine(page, e) {
  if (e.type === 'timeout') {
    return { kind: 'timeout', cls: 'stand-in', html: html`${t('log.timeout_alone', { name: plainName(page.S.table, e.seat) })}` };
  }
  if (e.type === 'replaced') {
    return { kind: 'replaced', cls: 'stand-in', html: html`${t('log.replaced', { name: e.name })}` };
  }
  return null;
}

/** The log line of an entry, in the language of the moment; a move the timer made is
 * said as such: time ran out, and a bot played it for the seat. */
function logLine(page, entry, c) {
  if (entry.own) return ownLine(page, entry.e);
  const g = game(page);
  if (!entry.standIn) return g.narrate(entry.e, c);
  const l = g.narrate(entry.e, { ...c, standIn: entry.standIn });
  const name = c.name(entry.standIn.seat);
  return {
    ...l,
    cls: `${l.cls || ''} stand-in`,
    html: html`<span class="timeout-note">${t('log.timeout', { name })}</span> ${l.html}`,
  };
}

/** The log's panel beside the board. */
export function logPanel(page, c) {
  return html`<section class="panel log" aria-labelledby="log-title">
          <h2 id="log-title">${t('table.log')}</h2>
          <div class="log-scroll" role="log" aria-live="off" aria-labelledby="log-title" tabindex="0" data-key="log">
            <ol class="log-list">${page.S.log
              .slice(-LOG_SHOWN)
              .reverse()
              .map((entry) => {
                const l = logLine(page, entry, c);
                return html`<li class="${l.cls || ''}"${l.kind ? html` data-event="${l.kind}"` : ''}>${l.html}</li>`;
              })}</ol></div>
        </section>`;
}
