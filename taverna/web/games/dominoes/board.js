// Muggins dominoes at the table (docs/rules.md §1): the line with doubles crosswise, laid
// as a snake that turns at the edge of the table (both open ends in sight); your tiles
// placed by click or drag on the end you mean; boneyard, the count of the ends, and
// the paper score sheet.

import { t, tn } from '/static/js/i18n.js';
import { html } from '/static/js/html.js';
import { actor, forScreen, nameText, thing } from '/static/js/ui.js';
import { scoreSheet } from './sheet.js';
import { domino, dominoBack } from './tiles.js';

/** "4-6" and "6-4" are the same tile. */
const same = (a, b) => a.split('-').sort().join() === b.split('-').sort().join();
const isDouble = (tile) => tile.split('-')[0] === tile.split('-')[1];

function placements(c, tile) {
  return c.legal.filter((a) => a.type === 'play' && same(a.tile, tile));
}

/** The placements of `tile` that make different positions: one where the two ends are
 * alike. Only the open ends count (docs/rules.md §1.4: no double opens a
 * branch, a double at an end counts both halves), so a tile that fits ends of the same
 * pips, both doubles or neither, leaves the same two ends at either: mirror images, no
 * choice to ask for. A double end and a plain one of the same pips are not alike (the
 * double counts twice until it is covered). */
function choices(c, tile) {
  const options = placements(c, tile);
  const v = c.view;
  const alike = !!v.ends && v.ends[0] === v.ends[1] && v.doubles_at_ends[0] === v.doubles_at_ends[1];
  return alike && options.length > 1 ? options.slice(0, 1) : options;
}

function tileLabel(tile) {
  const [a, b] = tile.split('-');
  return t('dom.tile', { a, b });
}

function mini(tile) {
  return html`<span class="mini-tile">${domino(tile)}</span>`;
}

function seatsInOrder(c) {
  const n = c.seats;
  const start = c.me ?? 0;
  return Array.from({ length: n }, (_, i) => (start + i) % n);
}

// ------------------------------------------------------------- the snake

/** The line laid out as players lay it: along the table, down at the edge, back again.
 *
 * `tiles` in line order, each "a-b" with a toward the left end; `width` of the table in
 * px. A tile is u × 2u, a double lies crosswise (2u across, u along); the largest u from
 * `max` down to `min` whose layout is at most `height` tall is taken. Returns u, the
 * height, per tile its box {x, y, w, h}, `vertical` and the tile as `shown` (its halves in
 * the order drawn, left to right or top to bottom), and the boxes of the two end targets:
 * the left end before the first tile, the right end past the last one.
 *
 *   layOut(['6-6', '6-4'], 400).tiles[1].shown === '6-4'
 */
export function layOut(tiles, width, { min = 24, max = 34, height = Infinity } = {}) {
  let u = Math.max(min, Math.min(max, Math.floor(width / 15)));
  for (;;) {
    const out = snakeAt(tiles, width, u);
    if (out.height <= height || u <= min) return out;
    u = Math.max(min, u - 2);
  }
}

function snakeAt(tiles, width, u) {
  // a margin of 2.5u each side: room for the left end's target, the column of a turn,
  // a double laid at a row's end and a double crosswise in the column
  const left = 2.5 * u;
  const right = width - 2.5 * u;
  const gap = Math.round(u / 5);
  const out = [];
  let dir = 1; // along a row: 1 to the right, -1 to the left; 0 down a turn's column
  let rowDir = 1;
  let x = left; // the open end: x along a row; y the row's middle line
  let y = u;
  let colX = 0; // a turn: its column's left edge, and how far down the end has come
  let down = 0;
  let run = 0;
  for (const tile of tiles) {
    const [a, b] = tile.split('-');
    const dbl = a === b;
    const len = dbl ? u : 2 * u;
    if (dir !== 0) {
      // a double always fits (the margin holds it); another tile if it ends in the row
      const fits = dir > 0 ? x + len <= right || (dbl && x <= right) : x - len >= left || (dbl && x >= left);
      if (fits) {
        const bx = dir > 0 ? x : x - len;
        out.push(
          dbl
            ? { x: bx, y: y - u, w: u, h: 2 * u, vertical: true, shown: tile }
            : { x: bx, y: y - u / 2, w: 2 * u, h: u, vertical: false, shown: dir > 0 ? `${a}-${b}` : `${b}-${a}` },
        );
        x += dir * len;
        continue;
      }
      // the turn: this tile's upper half beside the row's end, and on down
      colX = dir > 0 ? x : x - u;
      down = y - u / 2;
      rowDir = dir;
      dir = 0;
      run = 0;
    }
    out.push(
      dbl
        ? { x: colX - u / 2, y: down, w: 2 * u, h: u, vertical: false, shown: tile }
        : { x: colX, y: down, w: u, h: 2 * u, vertical: true, shown: `${a}-${b}` },
    );
    down += len;
    run += len;
    if (run >= 4 * u && !dbl) {
      // back along a new row, beside this tile's lower half, 3u or more below the last
      y = down - u / 2;
      dir = -rowDir;
      x = rowDir > 0 ? colX : colX + u;
    }
  }
  const bw = 2 * u;
  const bh = 2 * u;
  const first = out[0];
  const ends = { left: { x: left - gap - bw, y: first.y + first.h / 2 - bh / 2, w: bw, h: bh } };
  if (dir === 0) {
    ends.right = { x: colX + u / 2 - bw / 2, y: down + gap, w: bw, h: bh };
  } else {
    const ahead = dir > 0 ? x + gap : x - gap - bw;
    ends.right =
      ahead >= 0 && ahead + bw <= width
        ? { x: ahead, y: y - bh / 2, w: bw, h: bh }
        : { x: dir > 0 ? x - bw : x, y: y + u + gap, w: bw, h: bh }; // no room ahead: below
  }
  // centred across the table; the top at 0
  const boxes = [...out, ends.left, ends.right];
  const minX = Math.min(...boxes.map((q) => q.x));
  const maxX = Math.max(...boxes.map((q) => q.x + q.w));
  const minY = Math.min(...boxes.map((q) => q.y));
  const shift = Math.max(0, (width - (maxX - minX)) / 2) - minX;
  for (const q of boxes) {
    q.x = Math.round(q.x + shift);
    q.y = Math.round(q.y - minY);
  }
  const height = Math.max(...boxes.map((q) => q.y + q.h));
  return { u, height, tiles: out, ends };
}

/** The table's width before it was measured (the first drawing): about the felt's. */
function guessWidth() {
  const w = window.innerWidth;
  return Math.max(200, w > 980 ? Math.min(w, 1320) - 470 : w - 40);
}

/** Lay the line out again when the table's width changes (a turned phone, the first
 * drawing's guess), a few times a second at most. */
function watchWidth(root, c) {
  c.ui.observer?.disconnect();
  const board = root.querySelector('.snake-board');
  if (!board || typeof ResizeObserver === 'undefined') return;
  c.ui.observer = new ResizeObserver(([entry]) => {
    const w = Math.floor(entry.contentRect.width);
    if (!w || Math.abs(w - Number(board.dataset.width)) < 2) return;
    const now = Date.now();
    c.ui.relaid = (c.ui.relaid || []).filter((when) => now - when < 1000);
    if (c.ui.relaid.length >= 4) return; // a width that keeps changing with the layout
    c.ui.relaid.push(now);
    c.ui.lineWidth = w;
    c.rerender();
  });
  c.ui.observer.observe(board);
}

const dominoes = {
  game: 'muggins-dominoes',

  // ----------------------------------------------------- in the lobby

  illustration() {
    return html`<span class="ill-a">${domino('6-4')}</span><span class="ill-b">${domino('5-5', { vertical: true })}</span>`;
  },

  settingsSummary(settings) {
    return [t('dom.set.target_n', { n: settings.target })];
  },

  /** A card or tile in notation, in words (messages about it). */
  thingLabel: tileLabel,

  /** An action in words, its tile drawn as at the table (replays; markup). */
  describe(a) {
    if (a.type !== 'play') return html`${t(`replay.action.${a.type}`)}`;
    const where = a.end ? ` ${t(a.end === 'left' ? 'dom.on_left' : 'dom.on_right')}` : '';
    return html`${t('replay.action.play')} ${thing(mini(a.tile), tileLabel(a.tile))}${where}`;
  },

  /** Where a hint's move is marked: its tile in the hand (the action writes the tile
   * as it lies on the line, either way round). */
  hintMarks(a) {
    if (a.type !== 'play') return null;
    const [x, y] = a.tile.split('-');
    return [`.hand [data-tile="${x}-${y}"]`, `.hand [data-tile="${y}-${x}"]`];
  },

  /** Why a hint suggests its move (the server's `why`), in the game's words; null for
   * the reasons every game shares (js/table.js says those). */
  whyText(w) {
    if (w.key === 'scores') return t('dom.why.scores', { points: w.points });
    if (w.key === 'keeps_double') return t('dom.why.keeps_double', { tile: tileLabel(w.tile) });
    return null;
  },

  learn(e, c) {
    if (e.type === 'play') c.notes.last = { tile: e.tile, seat: e.seat };
    if (e.type === 'deal') c.notes.last = null;
  },

  narrate(e, c) {
    const who = actor(c, e.seat);
    switch (e.type) {
      case 'deal':
        return {
          kind: 'deal',
          cls: 'sep',
          html: html`${t('dom.log.deal', { n: e.hand + 1, name: c.name(e.opener) })}`,
        };
      case 'play': {
        const where = e.end ? t(e.end === 'left' ? 'dom.on_left' : 'dom.on_right') : '';
        const credit = e.credit ? html` <span class="plus">+${e.credit}</span>` : '';
        return {
          kind: 'play',
          cls: e.credit ? 'scored' : '',
          html: html`${who} ${t('dom.log.play')} ${mini(e.tile)} ${where} · ${t('dom.log.count', { n: e.count })}${credit}`,
        };
      }
      case 'draw':
        return {
          kind: 'draw',
          html: html`${who} ${t('dom.log.draw')}${e.tile ? html` ${mini(e.tile)}` : ''} · ${t('dom.log.boneyard', { n: e.boneyard })}`,
        };
      case 'pass':
        return { kind: 'pass', html: html`${who} ${t('dom.log.pass')}` };
      case 'hand_end': {
        const head =
          e.reason === 'domino' ? t('dom.log.domino', { name: c.name(e.winner) }) : t('dom.log.blocked');
        const minus = e.subtract
          .map((x, s) => (x ? `${c.name(s)} −${x}` : null))
          .filter(Boolean)
          .join(', ');
        return { kind: 'hand_end', cls: 'big', html: html`${head}${minus ? ` · ${minus}` : ''}` };
      }
      case 'game_end':
        return {
          kind: 'game_end',
          cls: 'big win',
          html: html`${t('log.wins', { name: c.name(e.winner), score: e.scores[e.winner] })}`,
        };
      default:
        return null;
    }
  },

  board(c) {
    const v = c.view;
    const ui = c.ui;
    const others = seatsInOrder(c).filter((s) => s !== c.me);
    const plates = others
      .map((s) => {
        const n = v.hand_sizes[s];
        const shown = c.hands?.[s];
        const tiles = shown
          ? shown.map((x) => html`<span class="tile-small">${domino(x, { vertical: true })}</span>`)
          : Array.from({ length: n }, () => html`<span class="tile-small">${dominoBack()}</span>`);
        // one picture of the tiles held: how many, and which when they are shown (a replay)
        const held = shown ? `${tn('dom.tiles_n', shown.length)}: ${shown.map(tileLabel).join(', ')}` : tn('dom.tiles_n', n);
        return html`<div class="plate${v.turn === s ? ' turn' : ''}" data-seat="${s}">
          <div class="plate-name">${nameText(c.label(s))}${v.opener === s ? html` <span class="tag">${t('dom.opener')}</span>` : ''}</div>
          <div class="plate-tiles" role="img" aria-label="${held}">${tiles}</div>
          <div class="plate-score">${tn('dom.points_n', v.scores[s])}</div>
        </div>`;
      });
    const fit = ui.selected ? placements(c, ui.selected).map((a) => a.end ?? 'first') : [];
    const line = v.line;
    const ends = v.ends;
    const width = c.ui.lineWidth || guessWidth();
    const snake = line.length ? layOut(line, width, { height: Math.max(160, Math.round(window.innerHeight * 0.42)) }) : null;
    const box = (b) => html`data-vars="--x: ${b.x}px; --y: ${b.y}px; --w: ${b.w}px; --h: ${b.h}px"`;
    const endButton = (end) => {
      const value = ends ? ends[end === 'left' ? 0 : 1] : null;
      const on = fit.includes(end);
      const dbl = v.doubles_at_ends?.[end === 'left' ? 0 : 1];
      return html`<button class="end-target${on ? ' fits' : ''}" data-end="${end}" data-key="end-${end}" ${box(snake.ends[end])}
        ${on ? '' : html`disabled`} aria-label="${t(end === 'left' ? 'dom.left_end' : 'dom.right_end', { n: value ?? '' })}${
          dbl ? `, ${t('dom.double_counts', { n: value * 2 })}` : ''
        }">
        <span class="end-arrow" aria-hidden="true">${end === 'left' ? '◀' : '▶'}</span>
        <span class="end-value">${value ?? ''}</span></button>`;
    };
    let lineHtml;
    if (!line.length) {
      const on = fit.includes('first');
      lineHtml = html`<button class="end-target first${on ? ' fits' : ''}" data-end="first" data-key="end-first" ${
        on ? '' : html`disabled`
      }>${t('dom.play_first')}</button>`;
    } else {
      const last = c.notes.last;
      // the tiles in a list of their own, the ends' buttons beside it (a list holds items only);
      // all of them placed on the board (css: the list itself takes no room)
      lineHtml = html`<div class="snake-board" data-width="${width}" data-vars="--line-h: ${snake.height}px">${endButton(
        'left',
      )}<div class="snake-tiles" role="list" aria-label="${t('dom.line')}">${snake.tiles.map((p, i) => {
          const tile = line[i];
          const edge = i === 0 ? 'left' : i === line.length - 1 ? 'right' : '';
          const isLast = last && same(last.tile, tile) ? ' last' : '';
          return html`<span class="line-tile${isDouble(tile) ? ' double' : ''}${isLast}" role="listitem" data-piece="${tile}" ${box(p)}
              ${edge ? html`data-edge="${edge}"` : ''} aria-label="${tileLabel(tile)}">${domino(p.shown, {
                vertical: p.vertical,
              })}</span>`;
        })}</div>${endButton('right')}</div>`;
    }
    const count = v.count;
    const scoring = count > 0 && count % 5 === 0;
    return html`<div class="plates">${plates}</div>
      <div class="line-info">
        <span class="boneyard" aria-label="${tn('dom.boneyard_n', v.boneyard)}">
          <span class="bone-stack" aria-hidden="true">${dominoBack({ vertical: false })}</span>
          <span>${t('dom.boneyard')} <b>${v.boneyard}</b></span></span>
        <span class="count${scoring ? ' scoring' : ''}">${t('dom.count')}
          ${
            ends && line.length > 1
              ? html`<b>${[0, 1].map((i) => (v.doubles_at_ends[i] ? ends[i] * 2 : ends[i])).join(' + ')} = ${count}</b>`
              : ends
                ? html`<b>${count}</b>`
                : html`<b>—</b>`
          }</span>
        <span class="muted">${t('dom.hand_n', { n: v.hand_no + 1 })} · ${t('dom.set.target_n', { n: v.target })}</span>
      </div>
      <div class="line${snake ? ' snake' : ''}">${lineHtml}</div>`;
  },

  controls(c) {
    const v = c.view;
    if (c.me === null) {
      return c.hands ? '' : html`<p class="muted center">${t('table.spectating')}</p>`;
    }
    const hand = c.hands?.[c.me] ?? v.hand ?? [];
    const mine = v.turn === c.me && c.interactive;
    const tiles = hand
      .map((tile) => {
        const fits = mine ? placements(c, tile).map((a) => a.end ?? 'first') : [];
        const ok = fits.length > 0;
        const sel = c.ui.selected && same(c.ui.selected, tile);
        const drawn = v.drawn && same(v.drawn, tile);
        return html`<button class="hand-tile${ok ? ' playable' : ''}${sel ? ' selected' : ''}${drawn ? ' drawn' : ''}"
          data-tile="${tile}" data-key="tile-${tile}" data-ends="${fits.join(' ')}" ${ok ? html`draggable="true"` : html`aria-disabled="true"`}
          aria-pressed="${sel ? 'true' : 'false'}" aria-label="${tileLabel(tile)}${mine && !ok ? `, ${t('dom.cannot_play')}` : ''}">${domino(tile, {
            vertical: true,
          })}</button>`;
      });
    const legal = (type) => c.legal.some((a) => a.type === type);
    const buttons = [];
    if (legal('draw'))
      buttons.push(html`<button class="btn action" data-act="draw" data-key="act-draw">${t('dom.draw')} <kbd>D</kbd></button>`);
    if (legal('pass'))
      buttons.push(html`<button class="btn action" data-act="pass" data-key="act-pass">${t('dom.pass')} <kbd>P</kbd></button>`);
    let hint = '';
    if (mine && c.ui.selected) hint = t(forScreen('dom.hint_end'));
    else if (mine && v.drawn) hint = t('dom.hint_drawn');
    else if (mine && legal('play')) hint = t(forScreen('dom.hint_play'));
    else if (mine && legal('draw')) hint = t('dom.hint_draw');
    return html`<div class="me-plate${v.turn === c.me ? ' turn' : ''}">
        <span class="plate-name">${nameText(c.label(c.me))}</span>
        <span class="plate-score">${tn('dom.points_n', v.scores[c.me])}</span>
      </div>
      <div class="hand" role="group" aria-label="${t('dom.your_tiles')}">${tiles}</div>
      <div class="actions">${buttons}</div>
      <p class="hint" aria-live="polite">${hint}</p>`;
  },

  bind(root, c) {
    watchWidth(root, c);
    const place = (tile, end) => {
      const options = placements(c, tile);
      const choice = options.find((a) => (a.end ?? 'first') === end) || (options.length === 1 ? options[0] : null);
      if (!choice) return false;
      c.ui.selected = null;
      c.act(choice); // the legal move as the server listed it
      return true;
    };
    root.querySelectorAll('.hand-tile.playable').forEach((b) => {
      const tile = b.dataset.tile;
      b.onclick = () => {
        const options = choices(c, tile);
        if (options.length === 1) {
          c.ui.selected = null;
          c.act(options[0]); // the legal move as the server listed it
          return;
        }
        c.ui.selected = c.ui.selected && same(c.ui.selected, tile) ? null : tile;
        c.rerender();
        // the tile fits both ends: the end is the next choice, and the focus goes there
        // (Escape brings it back to the tile)
        if (c.ui.selected) c.focus('.felt .end-target.fits');
      };
      b.ondragstart = (e) => {
        e.dataTransfer.setData('text/plain', tile);
        e.dataTransfer.effectAllowed = 'move';
        c.ui.dragging = tile;
        const fits = placements(c, tile).map((a) => a.end ?? 'first');
        root.querySelectorAll('[data-end]').forEach((el) => {
          el.classList.toggle('drop-ok', fits.includes(el.dataset.end));
        });
        root.querySelectorAll('[data-edge]').forEach((el) => {
          el.classList.toggle('drop-ok', fits.includes(el.dataset.edge));
        });
      };
      b.ondragend = () => {
        c.ui.dragging = null;
        root.querySelectorAll('.drop-ok, .drop-over').forEach((el) => el.classList.remove('drop-ok', 'drop-over'));
      };
    });
    const dropTarget = (el, end) => {
      el.ondragover = (e) => {
        if (!c.ui.dragging) return;
        if (!placements(c, c.ui.dragging).some((a) => (a.end ?? 'first') === end)) return;
        e.preventDefault();
        el.classList.add('drop-over');
      };
      el.ondragleave = () => el.classList.remove('drop-over');
      el.ondrop = (e) => {
        e.preventDefault();
        const tile = e.dataTransfer.getData('text/plain') || c.ui.dragging;
        c.ui.dragging = null;
        if (tile) place(tile, end);
      };
    };
    root.querySelectorAll('[data-end]').forEach((el) => {
      dropTarget(el, el.dataset.end);
      el.onclick = () => {
        if (c.ui.selected) place(c.ui.selected, el.dataset.end);
      };
    });
    root.querySelectorAll('[data-edge]').forEach((el) => dropTarget(el, el.dataset.edge));
    root.querySelectorAll('[data-act]').forEach((b) => (b.onclick = () => c.act({ type: b.dataset.act })));
  },

  key(k, c) {
    if (k === 'd' && c.legal.some((a) => a.type === 'draw')) c.act({ type: 'draw' });
    else if (k === 'p' && c.legal.some((a) => a.type === 'pass')) c.act({ type: 'pass' });
    else if ((k === 'l' || k === 'r') && c.ui.selected) {
      const end = k === 'l' ? 'left' : 'right';
      const choice = placements(c, c.ui.selected).find((a) => a.end === end);
      if (!choice) return false;
      c.ui.selected = null;
      c.act(choice); // the legal move as the server listed it
    } else if (k === 'escape' && c.ui.selected) {
      const tile = c.ui.selected;
      c.ui.selected = null;
      c.rerender();
      c.focus(`.felt [data-tile="${tile}"]`);
    } else return false;
    return true;
  },

  scores(c) {
    const v = c.view;
    return html`<ul class="score-list">${seatsInOrder(c)
      .sort((a, b) => a - b)
      .map((s) => {
        const pct = Math.max(0, Math.min(100, (100 * v.scores[s]) / v.target));
        return html`<li class="${v.turn === s ? 'turn' : ''}${v.winner === s ? ' winner' : ''}">
          <div class="score-row"><span class="score-name">${nameText(c.label(s))}</span>
            <span class="score-num">${v.scores[s]}</span></div>
          <div class="progress" aria-hidden="true"><span data-vars="--pct: ${pct}%"></span></div>
          <div class="paper">${scoreSheet(v.scores[s], tn('dom.sheet_label', v.scores[s], { name: c.name(s) }))}</div>
        </li>`;
      })}</ul>
      <p class="muted small">${t('dom.sheet_hint')}</p>`;
  },

  summaryKey(c) {
    const h = c.view.last_hand;
    return h ? `hand-${h.hand}` : null;
  },

  summary(c) {
    const h = c.view.last_hand;
    if (!h) return '';
    const head =
      h.reason === 'domino' ? t('dom.summary_domino', { n: h.hand + 1, name: c.name(h.winner) }) : t('dom.summary_blocked', { n: h.hand + 1 });
    const rows = h.hands
      .map(
        (tiles, s) => html`<tr${h.winner === s ? html` class="winner"` : ''}><th scope="row">${c.name(s)}</th>
          <td class="reveal">${tiles.length ? tiles.map(mini) : '—'}</td>
          <td>${h.pips[s]}</td><td class="minus">${h.subtract[s] ? `−${h.subtract[s]}` : '0'}</td><td><b>${h.scores[s]}</b></td></tr>`,
      );
    return html`<h3>${head}</h3>
      <table class="summary-table"><thead><tr><th scope="col">${t('summary.player')}</th><th scope="col">${t('dom.tiles_left')}</th><th scope="col">${t('dom.pips')}</th><th scope="col">${t('dom.subtract')}</th><th scope="col">${t('summary.score')}</th></tr></thead><tbody>${rows}</tbody></table>
      <p class="muted small">${t('dom.rounding')}</p>`;
  },

  winnerText(c) {
    const w = c.view.winner;
    if (w === null || w === undefined) return t('table.game_over');
    return w === c.me ? t('result.you_win') : t('result.wins', { name: c.name(w) });
  },

  finalScores(c) {
    const v = c.view;
    const order = [...Array(c.seats).keys()].sort((a, b) => v.scores[b] - v.scores[a]);
    return html`<ol class="final">${order
      .map(
        (s) => html`<li${s === v.winner ? html` class="winner"` : ''}><span>${c.name(s)}</span><b>${v.scores[s]}</b>
          <span class="paper">${scoreSheet(v.scores[s], tn('dom.sheet_label', v.scores[s], { name: c.name(s) }))}</span></li>`,
      )}</ol>`;
  },
};

export default dominoes;
