// The replay's controls: to a step (first, back, forward, last, the timeline, a
// review's mark), play and pause at a speed, and the same by keyboard (the arrows,
// Home, End).

/** Milliseconds a step at speed 1. */
const STEP_MS = 900;

/** Go to step `k` (within the game); playing stops at the last. */
export function go(replay, k) {
  const { S } = replay;
  S.k = Math.max(0, Math.min(S.n, k));
  if (S.k === S.n) stop(replay);
  replay.render();
}

function start(replay) {
  replay.S.playing = true;
  clearInterval(replay.timer);
  replay.timer = setInterval(() => go(replay, replay.S.k + 1), STEP_MS / replay.S.speed);
  replay.render();
}

function stop(replay) {
  replay.S.playing = false;
  clearInterval(replay.timer);
  replay.render();
}

/** The controls of the page as drawn, for a game of `n` steps after the deal. */
export function bindControls(replay, n) {
  const { S, app } = replay;
  S.n = n;
  app.querySelectorAll('[data-go]').forEach((b) => {
    b.onclick = () => {
      const where = b.dataset.go;
      go(replay, where === 'first' ? 0 : where === 'last' ? n : where === 'prev' ? S.k - 1 : S.k + 1);
    };
  });
  const slider = app.querySelector('[data-slider]');
  slider.oninput = () => go(replay, Number(slider.value));
  app.querySelector('[data-play]').onclick = () => (S.playing ? stop(replay) : start(replay));
  app.querySelector('[data-speed]').onchange = (e) => {
    S.speed = Number(e.target.value);
    if (S.playing) {
      stop(replay);
      start(replay);
    }
  };
  app.querySelectorAll('[data-review-step]').forEach((b) => {
    b.onclick = () => {
      stop(replay);
      go(replay, Number(b.dataset.reviewStep));
    };
  });
}

/** The page's keydown listener. */
export function keyListener(replay) {
  return (e) => {
    const { S } = replay;
    if (!S.data || e.target.closest('input, select, textarea')) return;
    if (e.key === 'ArrowRight') go(replay, S.k + 1);
    else if (e.key === 'ArrowLeft') go(replay, S.k - 1);
    else if (e.key === 'Home') go(replay, 0);
    else if (e.key === 'End') go(replay, S.n);
    else return;
    e.preventDefault();
  };
}
