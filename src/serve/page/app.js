// The page of `breakthrough serve`: plain JavaScript, no build step. The server keeps the
// games and checks every move; this draws them and sends what the person does.
'use strict';

const $ = (id) => document.getElementById(id);
const SQ = 56; // pixels per square
const FILES = 'abcdefgh';

let mode = 'play';
let game = null;        // the last state the server sent
let viewPly = null;     // the ply shown, or null for the current position
let flipped = false;
let selected = null;
let dragFrom = null;
let events = null;      // EventSource of the game
let lines = {};         // analysis lines by multipv, of the running search
let searchGen = -1;     // generation of the running search
let clockBase = null;
let live = { match: null, games: new Map(), standing: null, source: null, chosen: null };

// ---- positions ----------------------------------------------------------------------

// Reads the board part of a FEN of any of the rule sets: P/p one stone, Q/q a stack of two.
function parseFen(fen) {
  const [board, side] = fen.trim().split(/\s+/);
  const rows = board.split('/');
  const ranks = rows.length;
  const cells = {};
  let files = 0;
  rows.forEach((row, i) => {
    const rank = ranks - i;
    let file = 0;
    for (const ch of row) {
      if (/[0-9]/.test(ch)) { file += Number(ch); continue; }
      const color = ch === ch.toUpperCase() ? 'white' : 'black';
      const count = 'Qq'.includes(ch) ? 2 : 1;
      cells[FILES[file] + rank] = { color, count };
      file += 1;
    }
    files = Math.max(files, file);
  });
  return { files, ranks, cells, side: side === 'b' ? 'black' : 'white' };
}

// Doorbraak's start (src/rulesets/doorbraak/rules/mod.rs, START_FEN).
const DOORBRAAK_START = 'ppppp/ppppp/5/5/5/5/5/PPPPP/PPPPP w 0';

function startFen(files, ranks) {
  const rows = [];
  for (let r = ranks; r >= 1; r--) {
    if (r > ranks - 2) rows.push('p'.repeat(files));
    else if (r <= 2) rows.push('P'.repeat(files));
    else rows.push(String(files));
  }
  return rows.join('/') + ' w';
}

// ---- drawing ------------------------------------------------------------------------

function svgEl(tag, attrs, parent) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// Draws `fen`; `move` is the move that led to it (highlighted), `before` the FEN before it
// (Doorbraak: the squares its explosions changed are ringed).
function drawBoard(fen, variant, move, before, interactive) {
  const pos = parseFen(fen);
  const { files, ranks } = pos;
  const holder = $('board');
  holder.textContent = '';
  const svg = svgEl('svg', { width: files * SQ + 16, height: ranks * SQ + 16, id: 'board-svg', 'data-fen': fen }, holder);
  const at = (sq) => {
    const f = FILES.indexOf(sq[0]);
    const r = Number(sq.slice(1)) - 1;
    const x = (flipped ? files - 1 - f : f) * SQ + 16;
    const y = (flipped ? r : ranks - 1 - r) * SQ;
    return { x, y };
  };
  const squares = [];
  for (let r = 1; r <= ranks; r++) for (let f = 0; f < files; f++) squares.push(FILES[f] + r);
  for (const sq of squares) {
    const { x, y } = at(sq);
    const dark = (FILES.indexOf(sq[0]) + Number(sq.slice(1))) % 2 === 0;
    svgEl('rect', { x, y, width: SQ, height: SQ, class: dark ? 'sq-dark' : 'sq-light' }, svg);
    if (variant === 'doorbraak' && (sq.slice(1) === '7' || sq.slice(1) === '3')) {
      const mark = svgEl('rect', { x, y, width: SQ, height: SQ, class: 'rank7' }, svg);
      mark.setAttribute('data-rank7', sq);
    }
  }
  for (let f = 0; f < files; f++) {
    const { x } = at(FILES[f] + 1);
    svgEl('text', { x: x + SQ / 2 - 3, y: ranks * SQ + 12, class: 'coord' }, svg).textContent = FILES[f];
  }
  for (let r = 1; r <= ranks; r++) {
    const { y } = at('a' + r);
    svgEl('text', { x: 2, y: y + SQ / 2 + 4, class: 'coord' }, svg).textContent = r;
  }
  if (move && move !== '0000') {
    for (const sq of [move.slice(0, 2), move.slice(2, 4)]) {
      const { x, y } = at(sq);
      svgEl('rect', { x, y, width: SQ, height: SQ, class: 'lastmove' }, svg);
    }
  }
  if (variant === 'doorbraak' && before && move && move !== '0000') {
    const old = parseFen(before).cells;
    const from = move.slice(0, 2), to = move.slice(2, 4);
    const same = (a, b) => (!a && !b) || (a && b && a.color === b.color && a.count === b.count);
    const changed = squares.filter((sq) => sq !== from && !same(old[sq], pos.cells[sq]));
    // A plain move changes only its target; more means the target exploded.
    if (changed.some((sq) => sq !== to)) {
      for (const sq of changed) {
        const { x, y } = at(sq);
        const ring = svgEl('rect', { x: x + 3, y: y + 3, width: SQ - 6, height: SQ - 6, class: 'exploded' }, svg);
        ring.setAttribute('data-exploded', sq);
      }
    }
  }
  const targets = interactive && selected ? legalTargets(selected) : [];
  if (interactive && selected) {
    const { x, y } = at(selected);
    svgEl('rect', { x, y, width: SQ, height: SQ, class: 'selected' }, svg);
  }
  for (const sq of targets) {
    const { x, y } = at(sq);
    svgEl('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: 8, class: 'target' }, svg);
  }
  for (const [sq, piece] of Object.entries(pos.cells)) {
    const { x, y } = at(sq);
    const c = svgEl('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.36, class: 'piece-' + piece.color }, svg);
    c.setAttribute('data-piece', sq);
    if (piece.count > 1) {
      svgEl('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.24, class: 'piece-' + piece.color }, svg);
      const t = svgEl('text', { x: x + SQ / 2, y: y + SQ / 2, class: 'stack-label', fill: piece.color === 'white' ? '#222' : '#eee' }, svg);
      t.textContent = String(piece.count);
    }
  }
  // Hit areas on top: every click and drag lands on a square.
  for (const sq of squares) {
    const { x, y } = at(sq);
    svgEl('rect', { x, y, width: SQ, height: SQ, fill: 'transparent', 'data-square': sq }, svg);
  }
  if (interactive) {
    svg.addEventListener('pointerdown', onPointerDown);
    svg.addEventListener('pointerup', onPointerUp);
  }
}

// ---- playing ------------------------------------------------------------------------

function personMoves() {
  return game && !game.result && viewPly === null && game.engine !== game.side && mode !== 'watch';
}

function legalTargets(from) {
  return game.legal.filter((m) => m.startsWith(from) && m !== '0000').map((m) => m.slice(2, 4));
}

function squareAt(evt) {
  const el = document.elementFromPoint(evt.clientX, evt.clientY);
  return el && el.getAttribute ? el.getAttribute('data-square') : null;
}

function onPointerDown(evt) {
  const sq = evt.target.getAttribute('data-square');
  if (!sq || !personMoves()) return;
  const own = parseFen(game.fen).cells[sq];
  // A second click moves (onto own stones too, as Doorbraak allows), unless it picks
  // another piece of one's own that cannot be moved onto.
  if (selected && sq !== selected && (game.legal.includes(selected + sq) || !(own && own.color === game.side))) {
    tryMove(selected, sq);
    return;
  }
  if (own && own.color === game.side) {
    selected = sq;
    dragFrom = sq;
    render();
  } else {
    say(`No ${game.side} piece on ${sq}`);
  }
}

function onPointerUp(evt) {
  const from = dragFrom;
  dragFrom = null;
  const sq = squareAt(evt);
  if (from && sq && sq !== from) tryMove(from, sq);
}

async function tryMove(from, to) {
  const text = from + to;
  selected = null;
  if (!game.legal.includes(text)) {
    say(`Illegal move: ${text}`);
    render();
    return;
  }
  say('');
  await api('POST', `/api/games/${game.id}/move`, { move: text });
}

function say(text) {
  $('message').textContent = text;
}

// The server's token, when it needs one for changes: the page was opened by the address
// the server printed (…/?token=…).
const token = new URLSearchParams(location.search).get('token');

async function api(method, url, body) {
  try {
    const headers = body ? { 'Content-Type': 'application/json' } : {};
    if (token) headers['X-Token'] = token;
    const res = await fetch(url, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
    if (!res.ok) {
      say(data.error || `error ${res.status}`);
      return null;
    }
    if (data && data.type === 'state') setState(data);
    return data;
  } catch (e) {
    say(`The server does not answer (${e.message})`);
    return null;
  }
}

function follow(id) {
  if (events) events.close();
  events = new EventSource(`/api/games/${id}/events`);
  events.onmessage = (msg) => {
    const ev = JSON.parse(msg.data);
    if (ev.type === 'state') setState(ev);
    else if (ev.type === 'thinking') { searchGen = ev.generation; lines = {}; showLines(); }
    else if (ev.type === 'info' && ev.generation >= searchGen && !ev.bound) {
      if (ev.generation > searchGen) { searchGen = ev.generation; lines = {}; }
      lines[ev.multipv] = ev;
      showLines();
    }
    else if (ev.type === 'error') say(ev.error);
  };
}

// The answer to a request and the event stream race: a state older than the one shown
// (an earlier engine task, or fewer moves in the same task) is dropped.
function isOlder(state) {
  return game && game.id === state.id &&
    (state.generation < game.generation ||
     (state.generation === game.generation && state.moves.length < game.moves.length));
}

function setState(state) {
  if (isOlder(state)) return;
  const newGame = !game || game.id !== state.id;
  const grew = game && !newGame && state.moves.length !== game.moves.length;
  game = state;
  if (newGame) follow(state.id);
  if (newGame || grew) viewPly = null;
  if (state.thinking === null && searchGen <= state.generation) $('status').textContent = '';
  clockBase = state.clock ? { ...state.clock, at: performance.now() } : null;
  $('analyse-toggle').textContent = state.analysis ? 'Stop analysis' : 'Start analysis';
  render();
}

// ---- views --------------------------------------------------------------------------

function render() {
  if (mode === 'watch') return renderLive();
  if (!game) {
    // Before the first game answers (or when the server refused one): the start of the
    // chosen board, so the page never opens on an empty panel.
    const variant = $('variant').value;
    const m = /^\s*(\d)\s*[xX]\s*(\d)\s*$/.exec($('size').value);
    const fen = variant === 'doorbraak' ? DOORBRAAK_START : startFen(m ? Number(m[1]) : 8, m ? Number(m[2]) : 8);
    drawBoard(fen, variant, null, null, false);
    return;
  }
  const ply = viewPly === null ? game.moves.length : viewPly;
  const move = ply > 0 ? game.moves[ply - 1] : null;
  drawBoard(game.fens[ply], game.variant, move, ply > 0 ? game.fens[ply - 1] : null, personMoves());
  $('fen-out').value = game.fens[ply];
  $('pgn-link').href = `/api/games/${game.id}/pgn`;
  $('pass').hidden = !(personMoves() && game.legal.includes('0000'));
  const names = { white: 'White', black: 'Black' };
  if (game.engine) {
    names[game.engine] += ` (engine, level ${game.level})`;
    const you = game.engine === 'white' ? 'black' : 'white';
    names[you] += ' (you)';
  }
  const bottom = flipped ? 'black' : 'white';
  const top = flipped ? 'white' : 'black';
  $('top-name').textContent = names[top];
  $('bottom-name').textContent = names[bottom];
  const result = $('result');
  if (game.result) {
    result.hidden = false;
    result.textContent = `${game.result.text}: ${game.result.reason}`;
  } else {
    result.hidden = true;
  }
  if (game.thinking === 'move') $('status').textContent = 'The engine is thinking...';
  renderMoves(ply);
  showClocks();
}

function renderMoves(ply) {
  const list = $('moves');
  list.textContent = '';
  const first = parseFen(game.start).side;
  let li = null;
  game.moves.forEach((m, i) => {
    const white = (i % 2 === 0) === (first === 'white');
    if (!li || white) { li = document.createElement('li'); list.appendChild(li); }
    if (i === 0 && !white) li.appendChild(document.createTextNode('... '));
    const span = document.createElement('span');
    span.textContent = m;
    span.dataset.ply = i + 1;
    if (i + 1 === ply) span.className = 'current';
    span.onclick = () => view(i + 1);
    li.appendChild(span);
  });
  const cur = list.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function view(ply) {
  if (!game) return;
  const n = game.moves.length;
  const p = Math.max(0, Math.min(n, ply));
  viewPly = p === n ? null : p;
  selected = null;
  if (game.analysis) api('POST', `/api/games/${game.id}/analyse`, { lines: game.analysis.lines, ply: p });
  render();
}

function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 100) / 10);
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  return `${m}:${rest < 10 ? '0' : ''}${rest.toFixed(s < 10 ? 1 : 0)}`;
}

function showClocks() {
  const top = flipped ? 'white' : 'black';
  const bottom = flipped ? 'black' : 'white';
  for (const [el, side] of [[$('top-clock'), top], [$('bottom-clock'), bottom]]) {
    if (!clockBase) { el.hidden = true; continue; }
    el.hidden = false;
    let ms = clockBase[side];
    if (clockBase.running === side) ms -= performance.now() - clockBase.at;
    el.textContent = fmtClock(ms);
    el.classList.toggle('running', clockBase.running === side);
    if (clockBase.running === side && ms <= 0 && !clockBase.flagAsked) {
      clockBase.flagAsked = true; // the server decides the flag
      api('GET', `/api/games/${game.id}`);
    }
  }
}

function scoreText(s) {
  if (s.mate !== undefined) return (s.mate > 0 ? '#' : '#-') + Math.abs(s.mate);
  return (s.cp >= 0 ? '+' : '') + (s.cp / 100).toFixed(2);
}

function showLines() {
  const list = $('pv-lines');
  list.textContent = '';
  for (const k of Object.keys(lines).sort((a, b) => a - b)) {
    const info = lines[k];
    const li = document.createElement('li');
    li.textContent = `${scoreText(info.white)}  d${info.depth}  ${info.pv.join(' ')}`;
    list.appendChild(li);
  }
  const best = lines[1];
  if (best) {
    const w = best.white;
    const frac = w.mate !== undefined ? (w.mate > 0 ? 1 : 0) : 1 / (1 + Math.pow(10, -w.cp / 400));
    $('evalbar-white').style.height = `${(100 * frac).toFixed(1)}%`;
    $('evalbar-text').textContent = scoreText(w);
    $('status').textContent = `depth ${best.depth}, ${best.nodes} nodes`;
  }
}

// ---- live matches -------------------------------------------------------------------

function followLive() {
  if (live.source) return;
  live.source = new EventSource('/api/live/events');
  live.source.onmessage = (msg) => {
    const ev = JSON.parse(msg.data);
    if (ev.type === 'snapshot') {
      live.match = ev.match && ev.match.engines ? ev.match : null;
      live.games = new Map(ev.games.map((g) => [g.game, g]));
      live.standing = ev.standing;
    } else if (ev.type === 'match') {
      live.match = ev; live.games.clear(); live.standing = null; live.chosen = null;
    } else if (ev.type === 'start') {
      live.games.set(ev.game, { ...ev, moves: [], prev: null, result: null });
      if (live.chosen === null || finished(live.games.get(live.chosen))) live.chosen = ev.game;
    } else if (ev.type === 'move') {
      const g = live.games.get(ev.game);
      if (g) { g.prev = g.fen; g.moves.push(ev.move); g.fen = ev.fen; g.clock = ev.clock; }
    } else if (ev.type === 'end') {
      const g = live.games.get(ev.game);
      if (g) { g.result = ev.result; g.reason = ev.reason; }
    } else if (ev.type === 'standing') {
      live.standing = ev;
    }
    if (mode === 'watch') renderLive();
  };
}

function finished(g) {
  return !g || (g.result !== null && g.result !== undefined);
}

function renderLive() {
  const sel = $('live-games');
  const ids = [...live.games.keys()].sort((a, b) => a - b);
  if (live.chosen === null || !live.games.has(live.chosen)) {
    const playing = ids.filter((k) => !finished(live.games.get(k)));
    live.chosen = playing.length ? playing[playing.length - 1] : (ids.length ? ids[ids.length - 1] : null);
  }
  sel.textContent = '';
  for (const k of ids) {
    const g = live.games.get(k);
    const o = document.createElement('option');
    o.value = k;
    o.textContent = `Game ${k}: ${g.white} - ${g.black}${finished(g) ? ' ' + g.result : ' (playing)'}`;
    if (k === live.chosen) o.selected = true;
    sel.appendChild(o);
  }
  $('live-match').textContent = live.match
    ? `${live.match.engines.join(' vs ')}, ${live.match.variant}, ${live.match.games} games`
    : 'No match published yet. Run breakthrough match --publish URL ... with this page\'s address.';
  $('live-standing').textContent = live.standing ? `${live.standing.text}  ${live.standing.elo || ''}` : '';
  const g = live.games.get(live.chosen);
  if (!g) { $('board').textContent = ''; return; }
  drawBoard(g.fen, g.variant, g.moves[g.moves.length - 1], g.prev, false);
  $('top-name').textContent = `${flipped ? g.white : g.black} (${flipped ? 'White' : 'Black'})`;
  $('bottom-name').textContent = `${flipped ? g.black : g.white} (${flipped ? 'Black' : 'White'})`;
  const clocks = g.clock || null;
  $('top-clock').hidden = $('bottom-clock').hidden = !clocks;
  if (clocks) {
    $('top-clock').textContent = fmtClock(clocks[flipped ? 0 : 1]);
    $('bottom-clock').textContent = fmtClock(clocks[flipped ? 1 : 0]);
  }
  const result = $('result');
  result.hidden = !finished(g);
  if (finished(g)) result.textContent = `${g.result}: ${g.reason}`;
  const list = $('moves');
  list.textContent = '';
  const li = document.createElement('li');
  li.textContent = g.moves.join(' ');
  list.appendChild(li);
  $('fen-out').value = g.fen;
}

// ---- controls -----------------------------------------------------------------------

function setMode(next) {
  mode = next;
  for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t.dataset.tab === next);
  $('panel-play').hidden = next !== 'play';
  $('panel-analyse').hidden = next !== 'analyse';
  $('panel-watch').hidden = next !== 'watch';
  $('result').hidden = true;
  say('');
  if (next === 'watch') followLive();
  render();
}

async function newGame() {
  const variant = $('variant').value;
  let fen = $('fen-input').value.trim();
  if (!fen && variant !== 'doorbraak') {
    const m = /^\s*(\d)\s*[xX]\s*(\d)\s*$/.exec($('size').value);
    if (!m || m[1] < 3 || m[1] > 8 || m[2] < 4 || m[2] > 8) {
      say('Board: FILESxRANKS, 3x4 to 8x8');
      return;
    }
    fen = startFen(Number(m[1]), Number(m[2]));
  }
  const side = $('side').value;
  const body = {
    variant,
    fen: fen || null,
    engine: side === 'white' ? 'black' : side === 'black' ? 'white' : 'none',
    level: Number($('level').value),
    minutes: Number($('minutes').value),
    increment: Number($('increment').value),
    movetime_ms: Number($('movetime').value),
  };
  flipped = side === 'black';
  lines = {}; showLines();
  say('');
  await api('POST', '/api/games', body);
}

async function load() {
  const text = $('pgn-input').value.trim();
  if (!text) { say('Paste a PGN or a FEN first'); return; }
  const isPgn = text.includes('[') || /^\s*1\./.test(text);
  const body = { variant: $('variant').value, engine: 'none', level: 20 };
  if (isPgn) body.pgn = text; else body.fen = text;
  await api('POST', '/api/games', body);
}

$('new-game').onclick = newGame;
$('takeback').onclick = () => game && api('POST', `/api/games/${game.id}/takeback`);
$('pass').onclick = () => game && api('POST', `/api/games/${game.id}/move`, { move: '0000' });
$('flip').onclick = () => { flipped = !flipped; render(); };
$('level').oninput = () => { $('level-out').value = $('level').value; };
$('level').onchange = () => game && game.engine && api('POST', `/api/games/${game.id}/level`, { level: Number($('level').value) });
$('analyse-toggle').onclick = () => {
  if (!game) return;
  const on = !game.analysis;
  const ply = viewPly === null ? game.moves.length : viewPly;
  api('POST', `/api/games/${game.id}/analyse`, { lines: on ? Number($('lines').value) : 0, ply });
};
$('load').onclick = load;
$('first').onclick = () => view(0);
$('prev').onclick = () => game && view((viewPly === null ? game.moves.length : viewPly) - 1);
$('next').onclick = () => game && view((viewPly === null ? game.moves.length : viewPly) + 1);
$('last').onclick = () => game && view(game.moves.length);
$('live-games').onchange = () => { live.chosen = Number($('live-games').value); renderLive(); };
$('variant').onchange = () => { $('size').disabled = $('variant').value === 'doorbraak'; };
for (const t of document.querySelectorAll('.tab')) t.onclick = () => setMode(t.dataset.tab);
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA') return;
  if (e.key === 'ArrowLeft') $('prev').click();
  if (e.key === 'ArrowRight') $('next').click();
});
setInterval(() => { if (mode !== 'watch' && game) showClocks(); }, 100);

// A tab opened with #watch goes to the live match; any other starts a game (the start
// position is drawn at once, before the server answers).
render();
if (location.hash === '#watch') setMode('watch');
else if (location.hash === '#analyse') { setMode('analyse'); newGame(); }
else newGame();
