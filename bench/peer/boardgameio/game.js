// Two-player draw dominoes with hidden hands, as a boardgame.io game.
// G.secret (the boneyard) and the other player's hand are stripped from each
// player's view by PlayerView.STRIP_SECRETS; the counts are public.
const { INVALID_MOVE, PlayerView } = require('boardgame.io/core');

const SET = [];
for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) SET.push([a, b]);

const fits = (tile, pip) => tile[0] === pip || tile[1] === pip;
const ends = (G) => (G.line.length ? [G.line[0][0], G.line[G.line.length - 1][1]] : null);

// Every placement [tile index, side] of the hand on the line (side 0 = left, 1 = right).
function placements(G, hand) {
  const e = ends(G);
  const out = [];
  hand.forEach((tile, i) => {
    if (!e) out.push([i, 0]);
    else {
      if (fits(tile, e[0])) out.push([i, 0]);
      if (e[1] !== e[0] && fits(tile, e[1])) out.push([i, 1]);
    }
  });
  return out;
}

// The legal moves of playerID, from its own view of G (what a client knows).
function legalMoves(G, playerID) {
  const plays = placements(G, G.players[playerID].hand).map((args) => ({ move: 'play', args }));
  if (plays.length) return plays;
  return [{ move: G.boneyardCount > 0 ? 'draw' : 'pass', args: [] }];
}

const pips = (hand) => hand.reduce((s, t) => s + t[0] + t[1], 0);

// `client: false` everywhere: a client does not apply its own move optimistically
// (which would bump its local _stateID), it waits for the server's update.
const Dominoes = {
  name: 'dominoes',
  minPlayers: 2,
  maxPlayers: 2,

  setup: ({ random }) => {
    const tiles = random.Shuffle(SET.map((t) => [...t]));
    return {
      secret: { boneyard: tiles.slice(14) },
      players: { 0: { hand: tiles.slice(0, 7) }, 1: { hand: tiles.slice(7, 14) } },
      handSize: { 0: 7, 1: 7 },
      boneyardCount: 14,
      line: [],
      passes: 0,
    };
  },

  playerView: PlayerView.STRIP_SECRETS,

  moves: {
    play: {
      client: false,
      move: ({ G, playerID, events }, i, side) => {
        const hand = G.players[playerID].hand;
        if (!placements(G, hand).some(([j, s]) => j === i && s === side)) return INVALID_MOVE;
        const [a, b] = hand.splice(i, 1)[0];
        if (!G.line.length) G.line.push([a, b]);
        else if (side === 0) G.line.unshift(b === G.line[0][0] ? [a, b] : [b, a]);
        else G.line.push(a === G.line[G.line.length - 1][1] ? [a, b] : [b, a]);
        G.handSize[playerID] = hand.length;
        G.passes = 0;
        events.endTurn();
      },
    },
    // Draw one tile; the same player moves again (plays it, or draws again).
    draw: {
      client: false,
      move: ({ G, playerID }) => {
        const hand = G.players[playerID].hand;
        if (placements(G, hand).length || !G.secret.boneyard.length) return INVALID_MOVE;
        hand.push(G.secret.boneyard.pop());
        G.boneyardCount = G.secret.boneyard.length;
        G.handSize[playerID] = hand.length;
      },
    },
    pass: {
      client: false,
      move: ({ G, playerID, events }) => {
        if (placements(G, G.players[playerID].hand).length || G.secret.boneyard.length) return INVALID_MOVE;
        G.passes += 1;
        events.endTurn();
      },
    },
  },

  endIf: ({ G }) => {
    const [h0, h1] = [G.players[0].hand, G.players[1].hand];
    if (!h0.length) return { winner: '0' };
    if (!h1.length) return { winner: '1' };
    if (G.passes >= 2) {
      // blocked: fewer pips wins
      const [p0, p1] = [pips(h0), pips(h1)];
      return p0 === p1 ? { draw: true } : { winner: p0 < p1 ? '0' : '1' };
    }
  },
};

module.exports = { Dominoes, legalMoves };
