// Load generator: N tables of two random players on boardgame.io clients (SocketIO
// transport), all in this process. Mirrors taverna/bench/server.py: each player moves
// when it is its turn after a think time uniform in [0.5T, 1.5T], and a move's latency
// runs from sending it to receiving the update whose _stateID is above the one it was
// sent from. Moves answered before the warm-up ends are played but not timed.
// usage: node load.js PORT TABLES THINK_SECONDS [SECONDS=20]
const { Client, LobbyClient } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Dominoes, legalMoves } = require('./game');

const [port, tables, think, seconds = 20] = process.argv.slice(2).map(Number);
if (!port || !(tables > 0) || !(think >= 0) || !(seconds > 0)) {
  console.error('usage: node load.js PORT TABLES THINK_SECONDS [SECONDS=20]');
  process.exit(2);
}
const warmup = Math.min(5, seconds / 4); // as taverna bench server
const server = `http://127.0.0.1:${port}`;
const lobby = new LobbyClient({ server });
// one WebSocket per client, no long-polling first (taverna's players open plain WebSockets)
const socketOpts = { transports: ['websocket'], forceNew: true };

const latencies = []; // ms, of the moves answered after the warm-up
let moves = 0; // every answered move, warm-up included
let matchesOver = 0;
let warmAt, stopAt; // performance.now() values
const playing = new Set(); // the stop function of every running client

async function newMatch(i) {
  const { matchID } = await lobby.createMatch('dominoes', { numPlayers: 2 });
  const seats = [];
  for (const playerID of ['0', '1']) {
    const { playerCredentials } = await lobby.joinMatch('dominoes', matchID, {
      playerID,
      playerName: `t${i}p${playerID}`,
    });
    seats.push({ matchID, playerID, credentials: playerCredentials });
  }
  return seats;
}

// One player until its match is over (resolves true) or the run stops (false).
function play({ matchID, playerID, credentials }) {
  const multiplayer = SocketIO({ server, socketOpts });
  const client = Client({ game: Dominoes, multiplayer, matchID, playerID, credentials, debug: false });
  return new Promise((resolve) => {
    let seen = -1; // the last _stateID looked at
    let move = null; // [_stateID it is made from, time sent or null while thinking]
    const stop = (over) => {
      playing.delete(stop);
      client.stop();
      resolve(over);
    };
    playing.add(stop);
    client.subscribe((state) => {
      // also called on connection changes and on our own (not applied) move
      if (!state || state._stateID === seen) return;
      seen = state._stateID;
      if (move && move[1] !== null && state._stateID > move[0]) {
        const now = performance.now();
        if (now > warmAt) latencies.push(now - move[1]);
        moves++;
        move = null;
      }
      if (state.ctx.gameover) return stop(true);
      if (move || state.ctx.currentPlayer !== playerID) return;
      const options = legalMoves(state.G, playerID);
      const { move: name, args } = options[Math.floor(Math.random() * options.length)];
      move = [state._stateID, null];
      const send = () => {
        if (!playing.has(stop)) return;
        move[1] = performance.now();
        client.moves[name](...args);
      };
      if (think) setTimeout(send, 1000 * think * (0.5 + Math.random()));
      else send();
    });
    client.start();
  });
}

// A table plays match after match until the run stops.
async function table(i, seats) {
  while (performance.now() < stopAt) {
    const [over] = await Promise.all(seats.map(play));
    if (!over) break;
    matchesOver++;
    seats = await newMatch(i);
  }
}

function report(elapsed, errors) {
  const lat = latencies.sort((a, b) => a - b);
  const n = lat.length;
  const median = n === 0 ? 0 : n % 2 ? lat[(n - 1) / 2] : (lat[n / 2 - 1] + lat[n / 2]) / 2;
  const p99 = n === 0 ? 0 : lat[Math.floor(0.99 * (n - 1))]; // nearest rank, as taverna's percentile()
  const r2 = (x) => Math.round(100 * x) / 100;
  const r1 = (x) => Math.round(10 * x) / 10;
  return {
    peer: `boardgame.io ${require('boardgame.io/package.json').version}`,
    tables,
    clients: 2 * tables,
    seconds: r1(elapsed),
    warmup_seconds: warmup,
    think_seconds: think,
    moves,
    timed_moves: n,
    moves_per_second: r1(n / (seconds - warmup)), // over the timed window
    moves_per_second_whole_run: r1(moves / elapsed), // what taverna bench server reports
    latency_ms: { p50: r2(median), p99: r2(p99), max: r2(n ? lat[n - 1] : 0) },
    matches_finished: matchesOver,
    errors: errors.length,
  };
}

(async () => {
  // create and join every table before the clock starts, 20 at a time
  const first = [];
  let next = 0;
  const creator = async () => {
    while (next < tables) {
      const i = next++;
      first[i] = await newMatch(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(20, tables) }, creator));

  const t0 = performance.now();
  warmAt = t0 + 1000 * warmup;
  stopAt = t0 + 1000 * seconds;
  setTimeout(() => [...playing].forEach((stop) => stop(false)), stopAt - t0);
  const errors = [];
  await Promise.all(first.map((seats, i) => table(i, seats).catch((e) => errors.push(e))));
  const r = report((performance.now() - t0) / 1000, errors);

  console.log(JSON.stringify(r));
  const l = r.latency_ms;
  console.log(
    `${r.tables} tables, ${r.clients} boardgame.io clients (thinking ${think} s on average), ` +
      `${r.seconds} s: ${r.moves} moves, ${r.moves_per_second} moves/s after a ${warmup} s warm-up; ` +
      `move latency p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms; ` +
      `${r.matches_finished} matches finished` + (errors.length ? `; ${errors.length} table errors, e.g. ${errors[0]}` : ''),
  );
  process.exit(0);
})();
