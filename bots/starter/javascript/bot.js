#!/usr/bin/env node
// A Skip-Bo bot to start from: Node.js, no npm packages.
//
// The arena starts this program and talks to it over stdin/stdout, one JSON
// object per line (protocol/PROTOCOL.md). Anything written to stdout goes to
// the arena, so log with log() (stderr) instead. Run it with:
//
//     skipbo-arena play bots/starter/javascript/bot.js skipbo-easy
//
// The policy below is deliberately simple: play the stock card when you can,
// else play any non-wild card, else discard. Make it smarter in choose().
'use strict';

const fs = require('fs');
const readline = require('readline');

const NAME = 'starter-javascript';
const WILD = 0; // cards are 1..12, and 0 for the SKIP-BO wild
// Compact requests (PROTOCOL.md 4.2) are about a third shorter to read;
// SKIPBO_COMPACT=0 in the environment asks for the ordinary ones instead.
const COMPACT = process.env.SKIPBO_COMPACT !== '0';

// stderr is the bot's log: the arena keeps it in results/<tournament>/logs/.
function log(...args) {
  console.error(NAME + ':', ...args);
}

// One JSON object per line. fs.writeSync writes at once: no buffered output
// left behind when the arena is waiting for an answer.
function send(message) {
  fs.writeSync(1, JSON.stringify(message) + '\n');
}

// One seat at the table, as everyone can see it.
class Player {
  constructor(p) {
    this.seat = p.seat;
    this.stockSize = p.stock_size;
    this.stockTop = p.stock_top; // null when the stock is empty
    this.handSize = p.hand_size || 0;
    // Four discard piles, each listed bottom first: the last card is the top.
    this.discards = p.discards || [[], [], [], []];
    this.removed = Boolean(p.removed);
  }

  discardTop(pile) {
    const cards = this.discards[pile];
    return cards.length ? cards[cards.length - 1] : null;
  }
}

// What this bot sees when it must move (the request's "view").
class View {
  constructor(v) {
    this.seat = v.seat;
    this.hand = v.hand; // sorted, e.g. [0, 3, 7, 7, 12]
    this.players = v.players.map((p) => new Player(p));
    // A building pile's value is the number on top (0 = empty); the next card
    // must be value + 1, or a wild.
    this.building = v.building.map((b) => b.value);
    this.drawPile = v.draw_pile || 0;
  }

  get me() {
    return this.players[this.seat];
  }
}

// The request's legal moves as move objects, whichever form the arena sent.
function legalMoves(request) {
  if (!('discard_any' in request)) return request.legal; // ordinary: objects already
  const moves = request.legal.map((a) => {
    // compact: arrays named by a[0]
    switch (a[0]) {
      case 'hand':
        return { action: 'play', from: 'hand', card: a[1], to: a[2] };
      case 'stock':
        return { action: 'play', from: 'stock', seat: a[1], card: a[2], to: a[3] };
      case 'discard':
        return { action: 'play', from: 'discard', seat: a[1], pile: a[2], card: a[3], to: a[4] };
      default:
        return { action: 'pass' };
    }
  });
  if (request.discard_any) {
    // Any hand card may go on any of our 4 discard piles (R4).
    const cards = [...new Set(request.view.hand)].sort((x, y) => x - y);
    for (const card of cards) {
      for (let pile = 0; pile < 4; pile++) moves.push({ action: 'discard', card, pile });
    }
  }
  return moves;
}

// Pick one move from the legal list. Echoing an element of it is always right.
function choose(view, legal) {
  // 1. The stock card first: emptying your stock is how you win.
  const stock = legal.find((m) => m.action === 'play' && m.from === 'stock');
  if (stock) return stock;
  // 2. Any play that does not spend a wild (wilds are worth keeping).
  const play = legal.find((m) => m.action === 'play' && m.card !== WILD);
  if (play) return play;
  // 3. Discard, which ends the turn: the highest non-wild card, onto a pile
  //    whose top is the same card or one higher (so it can be played later),
  //    else onto an empty pile, else onto pile 0.
  const discards = legal.filter((m) => m.action === 'discard');
  if (discards.length) {
    const cards = discards.map((m) => m.card).filter((c) => c !== WILD);
    const card = cards.length ? Math.max(...cards) : WILD;
    const fit = (m) => {
      const top = view.me.discardTop(m.pile);
      if (top === card || top === card + 1) return 0;
      return top === null ? 1 : 2;
    };
    const mine = discards.filter((m) => m.card === card);
    return mine.reduce((best, m) => (fit(m) < fit(best) ? m : best));
  }
  // 4. Nothing else is left: a "pass" (only legal with an empty hand).
  return legal[0];
}

function handle(msg) {
  switch (msg.type) {
    case 'hello':
      send({
        type: 'hello',
        protocol: 1,
        name: NAME,
        version: '1.0',
        ...(COMPACT ? { features: ['compact_legal'] } : {}),
      });
      break;
    case 'game_start':
      log('game', msg.game, 'seat', msg.seat, 'of', msg.players);
      break;
    case 'request': {
      // "events" lists what happened since our last request; this bot does
      // not need them, but a smarter one can track the game there.
      const view = new View(msg.view);
      send({ type: 'move', move: choose(view, legalMoves(msg)) });
      break;
    }
    case 'game_end':
      log('game', msg.game, 'over:', msg.reason, 'winners', msg.winners);
      break;
    case 'quit':
      process.exit(0);
      break;
    default:
      break; // a message type new to this bot: ignore it
  }
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on('line', (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    log('not JSON, ignored:', line.slice(0, 80));
    return;
  }
  if (msg && typeof msg === 'object') handle(msg);
});
lines.on('close', () => process.exit(0)); // EOF: the arena closed our stdin
