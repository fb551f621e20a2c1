#!/usr/bin/env node
// A small Azul engine (coloured wall, 2-4 players) written apart from the referee, in
// JavaScript, speaking the engine protocol version 1 on standard input and output.
//
//   node tests/engines/mini_engine.js                 plays by the rules
//   node tests/engines/mini_engine.js --bug cross-once   counts a cross tile once (W3)
//   node tests/engines/mini_engine.js --bug marker-free  leaves the marker unpenalised (F3)
'use strict';

const readline = require('readline');

const COLORS = ['blue', 'yellow', 'red', 'black', 'white'];
const PENALTIES = [1, 1, 2, 2, 2, 3, 3];
const FACTORIES = { 2: 5, 3: 7, 4: 9 };
const at = process.argv.indexOf('--bug');
const BUG = at >= 0 ? process.argv[at + 1] : null;

let game = null;

class Refused extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

function column(row, color) { return (COLORS.indexOf(color) + row) % 5; } // S5

function counts(tiles) {
  const found = Object.fromEntries(COLORS.map((c) => [c, 0]));
  for (const t of tiles) {
    if (!(t in found)) throw new Refused('bad_request', `not a colour: ${JSON.stringify(t)}`);
    found[t] += 1;
  }
  return found;
}

function total(bag) { return COLORS.reduce((n, c) => n + bag[c], 0); }

function draw(factories) { // R2: the bag, then the lid poured into it
  const drawn = counts(factories.flat());
  if (factories.length !== game.factories.length || factories.some((f) => f.length > 4)) {
    throw new Refused('illegal_move', 'wrong factories');
  }
  if (total(drawn) > total(game.bag)) {
    for (const c of COLORS) { game.bag[c] += game.lid[c]; game.lid[c] = 0; }
  }
  for (const c of COLORS) {
    if (drawn[c] > game.bag[c]) throw new Refused('illegal_move', `not enough ${c} to draw`);
  }
  for (const c of COLORS) game.bag[c] -= drawn[c];
  game.factories = factories.map((f) => f.slice());
}

function newGame(msg) {
  const n = msg.players;
  if (!(n in FACTORIES)) throw new Refused('bad_request', 'players: 2, 3 or 4');
  game = {
    players: Array.from({ length: n }, () => ({
      score: 0, lines: [[], [], [], [], []], floor: [],
      wall: Array.from({ length: 5 }, () => Array(5).fill(null)),
    })),
    factories: Array.from({ length: FACTORIES[n] }, () => []),
    center: [], bag: counts([]), lid: counts([]), round: 1, phase: 'factory_offer',
    current: msg.first_player, start: msg.first_player, holder: null, winners: [],
  };
  for (const c of COLORS) game.bag[c] = 20;
  draw(msg.factories);
}

function accepts(board, line, color) {
  const tiles = board.lines[line];
  if (tiles.length === 0) return board.wall[line][column(line, color)] === null; // P3
  return tiles[0] === color && tiles.length < line + 1; // P2, P4
}

function legalMoves() {
  if (game.phase !== 'factory_offer') return [];
  const moves = [];
  const board = game.players[game.current];
  const sources = game.factories.map((f, i) => [i, f]).concat([['center', game.center]]);
  for (const [source, tiles] of sources) {
    for (const color of COLORS.filter((c) => tiles.includes(c))) {
      for (let line = 0; line < 5; line += 1) {
        if (accepts(board, line, color)) moves.push({ type: 'take', source, color, line });
      }
      moves.push({ type: 'take', source, color, line: 'floor' });
    }
  }
  return moves;
}

function toFloor(board, tile) { // F1, F2, F4
  if (board.floor.length < 7) board.floor.push(tile);
  else if (tile !== 'marker') game.lid[tile] += 1;
}

function apply(move) {
  if (!move || move.type !== 'take') throw new Refused('illegal_move', 'only takes here');
  const legal = legalMoves().some((m) => m.source === move.source && m.color === move.color
    && m.line === move.line);
  if (!legal || (move.player !== undefined && move.player !== game.current)) {
    throw new Refused('illegal_move', `not a legal take: ${JSON.stringify(move)}`);
  }
  const board = game.players[game.current];
  let taken;
  if (move.source === 'center') {
    taken = game.center.filter((t) => t === move.color).length;
    game.center = game.center.filter((t) => t !== move.color);
    if (game.holder === null) { game.holder = game.current; toFloor(board, 'marker'); } // T3
  } else {
    const tiles = game.factories[move.source];
    taken = tiles.filter((t) => t === move.color).length;
    game.center.push(...tiles.filter((t) => t !== move.color)); // T2
    game.factories[move.source] = [];
  }
  let excess = taken;
  if (move.line !== 'floor') { // P5
    const line = board.lines[move.line];
    const placed = Math.min(taken, move.line + 1 - line.length);
    for (let i = 0; i < placed; i += 1) line.push(move.color);
    excess = taken - placed;
  }
  for (let i = 0; i < excess; i += 1) toFloor(board, move.color);
  if (game.center.length === 0 && game.factories.every((f) => f.length === 0)) endRound();
  else game.current = (game.current + 1) % game.players.length;
}

function run(wall, row, col, dr, dc) {
  let n = 0;
  for (let r = row + dr, c = col + dc; r >= 0 && r < 5 && c >= 0 && c < 5 && wall[r][c]; r += dr, c += dc) n += 1;
  return n;
}

function points(wall, row, col) { // W3
  const across = 1 + run(wall, row, col, 0, -1) + run(wall, row, col, 0, 1);
  const down = 1 + run(wall, row, col, -1, 0) + run(wall, row, col, 1, 0);
  if (across > 1 && down > 1) return across + down - (BUG === 'cross-once' ? 1 : 0);
  return Math.max(across, down);
}

function completeRows(board) { return board.wall.filter((r) => r.every((t) => t)).length; }

function endRound() {
  for (const board of game.players) {
    board.lines.forEach((tiles, row) => { // W1
      if (tiles.length === row + 1) {
        const col = column(row, tiles[0]);
        board.wall[row][col] = tiles[0];
        board.score += points(board.wall, row, col);
        game.lid[tiles[0]] += row;
        board.lines[row] = [];
      }
    });
    let penalty = 0; // W4
    board.floor.forEach((t, i) => {
      if (!(BUG === 'marker-free' && t === 'marker')) penalty += PENALTIES[i];
    });
    board.score = Math.max(0, board.score - penalty);
    for (const t of board.floor) if (t !== 'marker') game.lid[t] += 1; // W5
    board.floor = [];
  }
  game.start = game.current = game.holder === null ? game.start : game.holder; // R4, R5
  game.holder = null;
  if (game.players.some((b) => completeRows(b) > 0)) endGame(); // E1
  else { game.phase = 'refill'; game.round += 1; }
}

function endGame() {
  for (const board of game.players) { // E2
    const cols = [0, 1, 2, 3, 4].filter((c) => board.wall.every((r) => r[c])).length;
    const full = COLORS.filter((k) => board.wall.flat().filter((t) => t === k).length === 5).length;
    board.score += 2 * completeRows(board) + 7 * cols + 10 * full;
  }
  const best = Math.max(...game.players.map((b) => b.score)); // E4
  const tied = game.players.map((b, i) => i).filter((i) => game.players[i].score === best);
  const rows = Math.max(...tied.map((i) => completeRows(game.players[i])));
  game.winners = tied.filter((i) => completeRows(game.players[i]) === rows);
  game.phase = 'game_over';
}

function refill(msg) {
  if (game.phase !== 'refill') throw new Refused('illegal_move', 'no refill now');
  draw(msg.factories);
  if (game.factories.every((f) => f.length === 0)) { endGame(); return; } // R6
  game.phase = 'factory_offer';
  game.start = game.current;
}

function view() {
  return {
    phase: game.phase, round: game.round, current_player: game.current,
    start_player: game.start, marker_holder: game.holder,
    factories: game.factories, center: game.center, bag: game.bag, lid: game.lid,
    winners: game.winners,
    players: game.players.map((b) => ({
      score: b.score, pattern_lines: b.lines, wall: b.wall, floor: b.floor,
    })),
  };
}

function answer(msg) {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    throw new Refused('bad_request', 'a request is a JSON object');
  }
  if (msg.type === 'hello') {
    return { ok: true, protocol: 1, engine: `mini_engine.js${BUG ? ` (bug: ${BUG})` : ''}`,
      legal_moves: true, variants: ['colored'] };
  }
  if (msg.type === 'new_game') { newGame(msg); return { ok: true }; }
  if (msg.type === 'quit') return { ok: true };
  if (game === null) throw new Refused('no_game', 'send new_game first');
  if (msg.type === 'legal_moves') return { ok: true, moves: legalMoves() };
  if (msg.type === 'apply') { apply(msg.move); return { ok: true }; }
  if (msg.type === 'refill') { refill(msg); return { ok: true }; }
  if (msg.type === 'state') return { ok: true, state: view() };
  throw new Refused('unknown_type', `unknown request type ${JSON.stringify(msg.type)}`);
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let msg = null;
  let reply;
  try {
    msg = JSON.parse(line);
    reply = answer(msg);
  } catch (error) {
    const code = error instanceof Refused ? error.code : (error instanceof SyntaxError ? 'bad_json' : 'internal_error');
    reply = { ok: false, error: { code, message: String(error.message) } };
  }
  if (msg && typeof msg === 'object' && 'id' in msg) reply = { id: msg.id, ...reply };
  process.stdout.write(`${JSON.stringify(reply)}\n`);
  if (msg && msg.type === 'quit') process.exit(0);
});
