// Motion at the table: a played tile or card travels from where it was (your hand, or
// the place of the player who played it) to the line or the pile; a drawn one comes
// from the boneyard or the stock; a dealt hand arrives. Every animation moves an element
// that is already in its final place (a transform, with the Web Animations API), so no
// click ever waits for one; nothing moves when the browser asks for reduced motion.

const DURATION = 300;
const EASE = 'cubic-bezier(.2,.7,.3,1)';
/** The pieces on the board: the hand's tiles and cards, and the line's and pile's. */
const PIECES = '.felt .hand [data-tile], .felt .hand [data-card], .felt [data-piece]';
/** Where a drawn or dealt piece comes from. */
const SOURCES = '.felt .boneyard, .felt .stock, .felt [data-deck]';

/** Animations started so far (tests read it: the reduced-motion promise is checked by it). */
export const stats = { started: 0 };

export function reducedMotion() {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** One piece's name, whichever way round a domino lies. */
function keyOf(el) {
  const raw = el.dataset.piece ?? el.dataset.tile ?? el.dataset.card ?? '';
  const m = /^(\d+)-(\d+)$/.exec(raw);
  return m ? [m[1], m[2]].sort().join('-') : raw;
}

function centre(r) {
  return [r.left + r.width / 2, r.top + r.height / 2];
}

/** Where every piece and every seat's place is, before the page is drawn again (null:
 * nothing will move). */
export function before(root) {
  if (!root || reducedMotion()) return null;
  const pieces = new Map();
  for (const el of root.querySelectorAll(PIECES)) pieces.set(keyOf(el), el.getBoundingClientRect());
  const seats = new Map();
  for (const el of root.querySelectorAll('.felt [data-seat]')) seats.set(el.dataset.seat, el.getBoundingClientRect());
  const source = root.querySelector(SOURCES)?.getBoundingClientRect() ?? null;
  return { pieces, seats, source };
}

/** Move what moved since `was` (from :func:`before`): each piece glides from where it
 * was; a piece nobody saw before comes from the player who played it (`mover`), or into
 * the hand from the stock or the boneyard, else it fades in (a new deal). */
export function after(root, was, { mover = null } = {}) {
  if (!was || !root || reducedMotion()) return 0;
  let moved = 0;
  for (const el of root.querySelectorAll(PIECES)) {
    if (typeof el.animate !== 'function') return moved;
    const inHand = !!el.closest('.hand');
    let from = was.pieces.get(keyOf(el));
    if (!from && !inHand && mover !== null) from = was.seats.get(String(mover));
    if (!from && inHand) from = was.source;
    if (!from) {
      if (!inHand) continue;
      el.animate([{ opacity: 0, transform: 'translateY(14px)' }, { opacity: 1, transform: 'none' }], {
        duration: DURATION,
        easing: EASE,
      });
      moved++;
      continue;
    }
    const [x0, y0] = centre(from);
    const [x1, y1] = centre(el.getBoundingClientRect());
    const dx = x0 - x1;
    const dy = y0 - y1;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], { duration: DURATION, easing: EASE });
    moved++;
  }
  stats.started += moved;
  return moved;
}
