// The page of `kifconv serve`: a board, the book's moves for the position
// shown, and a line of moves to step through. Every rule of the game and
// every format is the server's: the page draws what the API answers, and
// only ever plays a move from the list /api/moves gave for the position.

const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
const SVG = 'http://www.w3.org/2000/svg';
const RANKS = 'abcdefghi';
const RANK_KANJI = '一二三四五六七八九';
const HAND_ORDER = 'RBGSNLP';
const GLYPHS = {
  P: '歩', L: '香', N: '桂', S: '銀', G: '金', B: '角', R: '飛',
  '+P': 'と', '+L': '杏', '+N': '圭', '+S': '全', '+B': '馬', '+R': '龍',
};
// The board's drawing, in SVG units: a square, the margins for the file
// and rank labels, the columns for the pieces in hand.
const CW = 44;
const CH = 48;
const LABEL = 20;
const HAND_W = 56;
const GAP = 10;
const BOARD_X = HAND_W + GAP;
const BOARD_Y = LABEL;
const WIDTH = BOARD_X + 9 * CW + LABEL + GAP + HAND_W;
const HEIGHT = BOARD_Y + 9 * CH + 6;

const $ = (id) => document.getElementById(id);

const state = {
  books: [],
  book: null,
  formats: [],
  // The line on the board: its start (an SFEN), its moves (each with its
  // notation and the position after it), and how many are played.
  start: START,
  moves: [],
  cursor: 0,
  ending: null,
  flipped: false,
  // /api/moves's answer for the position shown, and the piece picked up.
  legal: null,
  selected: null,
  // The record loaded (its bytes, kept to convert them unchanged).
  record: null,
  changed: false,
};
let generation = 0;

// ---- The API ----------------------------------------------------------

class ApiError extends Error {
  constructor(error) {
    super(error.message);
    this.line = error.line ?? null;
    this.column = error.column ?? null;
    this.text = error.text ?? null;
  }
}

async function request(path, options) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new ApiError({ message: `the server cannot be reached (${e.message})` });
  }
  if (!response.ok) {
    let error = { message: `${response.status} ${response.statusText}` };
    try {
      const body = await response.json();
      if (body && body.error) error = body.error;
    } catch (_) {
      // Not JSON: the status says it.
    }
    throw new ApiError(error);
  }
  return response;
}

// The answers the server put into the page for its first view (the books,
// the formats, the start position's moves and book moves), so that the
// page is whole when it has loaded, before any request.
const PRELOADED = (() => {
  const script = document.getElementById('preloaded');
  try {
    return script ? JSON.parse(script.textContent) : [];
  } catch (_) {
    return [];
  }
})();

function preloaded(path, params = {}) {
  const same = (a, b) => Object.keys({ ...a, ...b }).every((k) => a[k] === b[k]);
  const found = PRELOADED.find((p) => p.path === path && same(p.params, params));
  return found ? found.body : undefined;
}

async function getJson(path, params) {
  const answer = preloaded(path, params);
  if (answer !== undefined) return answer;
  const query = new URLSearchParams(params).toString();
  const response = await request(query ? `${path}?${query}` : path);
  return response.json();
}

async function post(path, body) {
  return request(path, { method: 'POST', body });
}

// ---- Positions ---------------------------------------------------------

// An SFEN's board (square → piece letter, '+' first when promoted), hands
// and side to move.
function parseSfen(sfen) {
  const [board = '', turn = 'b', hand = '-', number = '1'] = sfen.trim().split(/\s+/);
  const squares = new Map();
  board.split('/').forEach((row, r) => {
    let file = 9;
    let promoted = false;
    for (const ch of row) {
      if (ch === '+') {
        promoted = true;
      } else if (/[1-9]/.test(ch)) {
        file -= Number(ch);
      } else {
        squares.set(`${file}${RANKS[r]}`, (promoted ? '+' : '') + ch);
        promoted = false;
        file -= 1;
      }
    }
  });
  const hands = { b: new Map(), w: new Map() };
  if (hand !== '-') {
    for (const [, count, letter] of hand.matchAll(/(\d*)([A-Za-z])/g)) {
      const color = letter === letter.toUpperCase() ? 'b' : 'w';
      hands[color].set(letter.toUpperCase(), Number(count || 1));
    }
  }
  return { squares, hands, turn, number: Number(number) };
}

const colorOf = (piece) => (piece.replace('+', '') === piece.replace('+', '').toUpperCase() ? 'b' : 'w');
const kindOf = (piece) => piece.toUpperCase();

function glyph(piece) {
  const kind = kindOf(piece);
  if (kind === 'K') return colorOf(piece) === 'b' ? '玉' : '王';
  return GLYPHS[kind] ?? '?';
}

function currentSfen() {
  return state.cursor === 0 ? state.start : state.moves[state.cursor - 1].sfen_after;
}

// The line as a USI position command, which every reader of the server
// takes.
function lineText() {
  const start = state.start === START ? 'startpos' : `sfen ${state.start}`;
  const moves = state.moves.map((m) => m.usi).join(' ');
  return `position ${start}${moves ? ` moves ${moves}` : ''}`;
}

// A move's squares: `7g7f+` → from 7g to 7f; `P*5e` → a pawn dropped.
function moveParts(usi) {
  if (usi[1] === '*') return { drop: usi[0], to: usi.slice(2, 4) };
  return { from: usi.slice(0, 2), to: usi.slice(2, 4), promote: usi.endsWith('+') };
}

// ---- The board ---------------------------------------------------------

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Where the square `file`,`rank` is drawn (its top-left corner).
function squareXY(file, rank) {
  const col = state.flipped ? file - 1 : 9 - file;
  const row = state.flipped ? 9 - rank : rank - 1;
  return [BOARD_X + col * CW, BOARD_Y + row * CH];
}

function pieceShape(x, y, w, h, piece, rotated) {
  const g = el('g', { class: 'piece' });
  const cx = x + w / 2;
  const cy = y + h / 2;
  const top = y + h * 0.08;
  const shoulder = y + h * 0.22;
  const bottom = y + h * 0.92;
  const points = [
    [cx, top], [x + w * 0.82, shoulder], [x + w * 0.9, bottom],
    [x + w * 0.1, bottom], [x + w * 0.18, shoulder],
  ].map((p) => p.join(',')).join(' ');
  g.append(el('polygon', { points, class: 'koma' }));
  const promoted = piece.startsWith('+');
  g.append(el('text', {
    x: cx, y: cy + h * 0.06, class: promoted ? 'glyph promoted' : 'glyph',
    'font-size': Math.round(w * 0.56),
  }, glyph(piece)));
  if (rotated) g.setAttribute('transform', `rotate(180 ${cx} ${cy})`);
  return g;
}

function drawBoard() {
  const svg = $('board');
  const sfen = currentSfen();
  const pos = parseSfen(sfen);
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.dataset.sfen = sfen;
  svg.dataset.flipped = state.flipped;
  svg.replaceChildren();

  svg.append(el('rect', {
    x: BOARD_X - 4, y: BOARD_Y - 4, width: 9 * CW + 8, height: 9 * CH + 8, class: 'wood',
  }));
  const last = state.cursor > 0 ? moveParts(state.moves[state.cursor - 1].usi).to : null;
  const targets = new Set(targetMoves().map((m) => moveParts(m.usi).to));
  const selectedFrom = state.selected?.from;
  for (let file = 1; file <= 9; file += 1) {
    for (let rank = 1; rank <= 9; rank += 1) {
      const square = `${file}${RANKS[rank - 1]}`;
      const [x, y] = squareXY(file, rank);
      const classes = ['sq'];
      if (square === last) classes.push('last');
      if (square === selectedFrom) classes.push('selected');
      if (targets.has(square)) classes.push('target');
      svg.append(el('rect', {
        x, y, width: CW, height: CH, class: classes.join(' '), 'data-square': square,
      }));
    }
  }
  // Star points and labels.
  for (const [fx, fy] of [[3, 3], [6, 3], [3, 6], [6, 6]]) {
    svg.append(el('circle', { cx: BOARD_X + fx * CW, cy: BOARD_Y + fy * CH, r: 2.5, class: 'star' }));
  }
  for (let i = 0; i < 9; i += 1) {
    const file = state.flipped ? i + 1 : 9 - i;
    svg.append(el('text', { x: BOARD_X + i * CW + CW / 2, y: LABEL / 2 + 1, class: 'label' }, String(file)));
    const rank = state.flipped ? 9 - i : i + 1;
    svg.append(el('text', {
      x: BOARD_X + 9 * CW + LABEL / 2 + 2, y: BOARD_Y + i * CH + CH / 2, class: 'label',
    }, RANK_KANJI[rank - 1]));
  }
  for (const [square, piece] of pos.squares) {
    const [x, y] = squareXY(Number(square[0]), RANKS.indexOf(square[1]) + 1);
    const rotated = (colorOf(piece) === 'w') !== state.flipped;
    const g = pieceShape(x, y, CW, CH, piece, rotated);
    g.dataset.square = square;
    g.dataset.piece = piece;
    g.dataset.color = colorOf(piece);
    svg.append(g);
  }
  // The hands: the player at the top of the view on the left, from the
  // top; the player at the bottom on the right, from the bottom.
  const bottom = state.flipped ? 'w' : 'b';
  const top = state.flipped ? 'b' : 'w';
  drawHand(svg, top, pos.hands[top], 0, false);
  drawHand(svg, bottom, pos.hands[bottom], BOARD_X + 9 * CW + LABEL + GAP, true);
}

function drawHand(svg, color, hand, x, fromBottom) {
  const g = el('g', { class: 'hand', 'data-color': color });
  const name = color === 'b' ? '☗先手' : '☖後手';
  const rows = HAND_ORDER.split('').filter((k) => hand.get(k));
  const rowH = CH * 0.9;
  const labelY = fromBottom ? HEIGHT - 8 : BOARD_Y + 4;
  g.append(el('text', { x: x + HAND_W / 2, y: labelY, class: 'hand-label' }, name));
  const firstY = fromBottom ? labelY - 16 - rows.length * rowH : labelY + 14;
  rows.forEach((kind, i) => {
    const y = firstY + i * rowH;
    const count = hand.get(kind);
    const item = el('g', {
      class: state.selected?.drop === kind && color === state.legal?.turn ? 'hand-piece selected' : 'hand-piece',
      'data-hand': kind, 'data-color': color, 'data-count': count,
    });
    item.append(el('rect', { x, y, width: HAND_W, height: rowH, class: 'hand-slot' }));
    const piece = color === 'b' ? kind : kind.toLowerCase();
    item.append(pieceShape(x + 2, y + 2, CW * 0.78, rowH - 4, piece, (color === 'w') !== state.flipped));
    if (count > 1) {
      item.append(el('text', { x: x + HAND_W - 6, y: y + rowH * 0.72, class: 'count' }, String(count)));
    }
    g.append(item);
  });
  svg.append(g);
}

// ---- Moving pieces -----------------------------------------------------

// The legal moves of the piece picked up.
function targetMoves() {
  const sel = state.selected;
  if (!sel || !state.legal) return [];
  return state.legal.moves.filter((m) => {
    const p = moveParts(m.usi);
    return sel.drop ? p.drop === sel.drop : p.from === sel.from;
  });
}

function onBoardClick(event) {
  if (!state.legal) return;
  const turn = state.legal.turn;
  const hand = event.target.closest('[data-hand]');
  if (hand) {
    const kind = hand.dataset.hand;
    const same = state.selected?.drop === kind;
    state.selected = hand.dataset.color === turn && !same ? { drop: kind } : null;
    drawBoard();
    return;
  }
  const target = event.target.closest('[data-square]');
  if (!target) return;
  const square = target.dataset.square;
  const choices = targetMoves().filter((m) => moveParts(m.usi).to === square);
  if (choices.length > 0) {
    state.selected = null;
    choose(choices);
    return;
  }
  const piece = parseSfen(currentSfen()).squares.get(square);
  const mine = piece && colorOf(piece) === turn && state.selected?.from !== square;
  state.selected = mine ? { from: square } : null;
  drawBoard();
}

// One move of the choices for a click (two when promotion is optional).
async function choose(choices) {
  if (choices.length === 1) {
    play(choices[0]);
    return;
  }
  const promoted = choices.find((m) => m.usi.endsWith('+'));
  const plain = choices.find((m) => !m.usi.endsWith('+'));
  const answer = await askPromotion(promoted, plain);
  if (answer) play(answer);
  else drawBoard();
}

function askPromotion(promoted, plain) {
  const dialog = $('promote');
  const piece = parseSfen(currentSfen()).squares.get(moveParts(plain.usi).from) ?? '';
  $('promote-yes').textContent = `成 ${glyph('+' + piece.replace('+', ''))}`;
  $('promote-no').textContent = `不成 ${glyph(piece)}`;
  return new Promise((resolve) => {
    const done = (move) => {
      $('promote-yes').onclick = null;
      $('promote-no').onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(move);
    };
    $('promote-yes').onclick = () => done(promoted);
    $('promote-no').onclick = () => done(plain);
    dialog.onclose = () => done(null);
    dialog.showModal();
    $('promote-yes').focus();
  });
}

// Plays `move` (from /api/moves or the book): the next move of the line
// when it is that move, otherwise the line is cut here and goes on with it.
function play(move) {
  if (!move.sfen_after) return;
  const next = state.moves[state.cursor];
  if (!next || next.usi !== move.usi) {
    state.moves = state.moves.slice(0, state.cursor);
    state.moves.push({ usi: move.usi, japanese: move.japanese, sfen_after: move.sfen_after, comment: null });
    state.ending = null;
    state.changed = true;
  }
  goTo(state.cursor + 1);
}

function goTo(cursor) {
  const clamped = Math.max(0, Math.min(state.moves.length, cursor));
  if (clamped === state.cursor && state.legal) return;
  state.cursor = clamped;
  refresh();
}

// ---- Showing a position ------------------------------------------------

async function refresh() {
  const mine = ++generation;
  const sfen = currentSfen();
  // `ready` once the position's legal moves and book moves are in.
  document.body.dataset.state = 'loading';
  state.selected = null;
  state.legal = null;
  drawBoard();
  drawStatus();
  drawMoves();
  const legal = getJson('/api/moves', { position: sfen });
  const book = state.book ? getJson('/api/book', { position: sfen, book: state.book }) : null;
  try {
    const answer = await legal;
    if (mine !== generation) return;
    state.legal = answer;
    drawStatus();
  } catch (e) {
    if (mine === generation) showError(e);
  }
  if (book) {
    try {
      const answer = await book;
      if (mine === generation) drawBook(answer);
    } catch (e) {
      if (mine === generation) {
        drawBook(null);
        showError(e);
      }
    }
  } else {
    drawBook(null);
  }
  if (mine === generation) document.body.dataset.state = 'ready';
}

function drawStatus() {
  const pos = parseSfen(currentSfen());
  $('turn').textContent = pos.turn === 'b' ? '☗先手番' : '☖後手番';
  $('turn').dataset.turn = pos.turn;
  const number = state.legal?.move_number ?? pos.number;
  $('move-number').textContent = `${number}手目`;
  $('move-number').dataset.moveNumber = number;
  $('check').hidden = !state.legal?.check;
  $('first').disabled = state.cursor === 0;
  $('back').disabled = state.cursor === 0;
  $('forward').disabled = state.cursor >= state.moves.length;
  $('last').disabled = state.cursor >= state.moves.length;
  const comment = state.cursor > 0 ? state.moves[state.cursor - 1].comment : null;
  $('comment').hidden = !comment;
  $('comment').textContent = comment ?? '';
}

function drawMoves() {
  const list = $('moves');
  const items = [];
  const start = document.createElement('li');
  start.dataset.ply = 0;
  start.className = 'start';
  start.textContent = '開始局面';
  items.push(start);
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.ply = i + 1;
    li.dataset.usi = m.usi;
    li.title = m.usi;
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = i + 1;
    li.append(num, ` ${m.japanese ?? m.usi}`);
    if (m.comment) li.classList.add('commented');
    items.push(li);
  });
  if (state.ending) {
    const li = document.createElement('li');
    li.className = 'ending';
    li.textContent = state.ending;
    items.push(li);
  }
  for (const li of items) {
    if (li.dataset.ply !== undefined) li.tabIndex = -1;
    if (Number(li.dataset.ply) === state.cursor && li.dataset.ply !== undefined) {
      li.classList.add('current');
      li.setAttribute('aria-current', 'step');
    }
  }
  list.replaceChildren(...items);
  list.dataset.cursor = state.cursor;
  list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

function drawBook(answer) {
  const panel = $('book-panel');
  const list = $('book-moves');
  const found = $('book-found');
  if (!state.book) {
    panel.dataset.state = 'none';
    $('book-none').hidden = false;
    found.hidden = true;
    list.replaceChildren();
    return;
  }
  $('book-none').hidden = true;
  found.hidden = false;
  panel.dataset.state = answer ? answer.found : 'error';
  list.dataset.sfen = answer ? answer.sfen : '';
  found.dataset.found = answer ? answer.found : '';
  if (!answer) {
    found.textContent = '';
    list.replaceChildren();
    return;
  }
  found.textContent = {
    exact: '',
    flipped: '⇅ 先後反転した局面で見つかりました (found through the flipped entry)',
    none: '定跡にない局面です (not in the book)',
  }[answer.found] ?? answer.found;
  const items = answer.moves.map((m) => {
    const li = document.createElement('li');
    li.dataset.usi = m.usi;
    li.dataset.count = m.count;
    if (answer.found === 'flipped') li.classList.add('flipped');
    const button = document.createElement('button');
    button.type = 'button';
    button.disabled = !m.sfen_after;
    if (!m.sfen_after) button.title = 'not a legal move here';
    const cells = [
      [m.japanese ?? '(illegal)', 'jp'],
      [m.usi, 'usi'],
      [m.count, 'count'],
      [m.value, 'value'],
      [m.depth, 'depth'],
    ];
    for (const [text, cls] of cells) {
      const span = document.createElement('span');
      span.className = cls;
      span.textContent = text ?? '–';
      button.append(span);
    }
    if (answer.found === 'flipped') {
      const mark = document.createElement('span');
      mark.className = 'flip-mark';
      mark.title = 'found through the flipped entry';
      mark.textContent = '⇅';
      button.prepend(mark);
    }
    li.append(button);
    li.addEventListener('click', () => play(m));
    return li;
  });
  list.replaceChildren(...items);
}

// ---- Errors and warnings -----------------------------------------------

function showError(error) {
  const box = $('error');
  box.replaceChildren();
  const where = [];
  if (error.line != null) where.push(`line ${error.line}`);
  if (error.column != null) where.push(`column ${error.column}`);
  box.dataset.line = error.line ?? '';
  box.dataset.column = error.column ?? '';
  const head = document.createElement('p');
  head.className = 'message';
  head.textContent = where.length ? `${where.join(', ')}: ${error.message}` : error.message;
  box.append(head);
  if (error.text != null) {
    const pre = document.createElement('pre');
    const caret = error.column != null ? `\n${' '.repeat(Math.max(0, error.column - 1))}^` : '';
    pre.textContent = error.text + caret;
    box.append(pre);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'close';
  close.textContent = '×';
  close.title = 'dismiss';
  close.addEventListener('click', clearError);
  box.append(close);
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
  $('error').replaceChildren();
}

function showWarnings(warnings) {
  const list = $('warnings');
  list.replaceChildren(...warnings.map((w) => {
    const li = document.createElement('li');
    const where = w.line != null ? `line ${w.line}${w.column != null ? `, column ${w.column}` : ''}: ` : '';
    li.textContent = `${where}${w.message}${w.text ? ` — ${w.text}` : ''}`;
    return li;
  }));
  list.hidden = warnings.length === 0;
}

// ---- Records -----------------------------------------------------------

// Reads a record (a file's bytes as they are, or pasted text) through the
// server and shows its first game from its start.
async function loadRecord(bytes, name) {
  clearError();
  let answer;
  try {
    answer = await (await post('/api/record', bytes)).json();
  } catch (e) {
    showError(e);
    return;
  }
  showWarnings(answer.warnings ?? []);
  if (!answer.games || answer.games.length === 0) {
    showError({ message: 'no game found in it' });
    return;
  }
  state.record = { bytes, name, format: answer.format, games: answer.games };
  const select = $('game-select');
  select.replaceChildren(...answer.games.map((g, i) => {
    const option = document.createElement('option');
    option.value = i;
    option.textContent = `${i + 1}: ${g.moves.length} moves`;
    return option;
  }));
  $('game-choice').hidden = answer.games.length < 2;
  showGame(0);
}

function showGame(index) {
  const game = state.record.games[index];
  state.start = game.start;
  state.moves = game.moves.slice();
  state.ending = game.ending ?? null;
  state.cursor = 0;
  state.changed = false;
  const headers = $('headers');
  headers.replaceChildren(...(game.headers ?? []).flatMap(([k, v]) => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    return [dt, dd];
  }));
  headers.hidden = !game.headers || game.headers.length === 0;
  refresh();
}

async function download() {
  const to = $('download-format').value;
  if (!to) return;
  const target = state.formats.find((f) => f.name === to);
  // The file as it came when nothing was played over it (its headers and
  // comments kept); otherwise the line on the board.
  const unchanged = state.record && !state.changed && state.record.games.length === 1;
  const body = unchanged ? state.record.bytes : new TextEncoder().encode(lineText());
  let blob;
  try {
    blob = await (await post(`/api/convert?${new URLSearchParams({ to })}`, body)).blob();
  } catch (e) {
    showError(e);
    return;
  }
  clearError();
  const base = (state.record?.name ?? 'kifconv').replace(/\.[^.]*$/, '') || 'kifconv';
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${base}.${target?.extension ?? to}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// ---- Set-up ------------------------------------------------------------

function wire() {
  $('board').addEventListener('click', onBoardClick);
  $('first').addEventListener('click', () => goTo(0));
  $('back').addEventListener('click', () => goTo(state.cursor - 1));
  $('forward').addEventListener('click', () => goTo(state.cursor + 1));
  $('last').addEventListener('click', () => goTo(state.moves.length));
  $('flip').addEventListener('click', flip);
  $('moves').addEventListener('click', (event) => {
    const li = event.target.closest('li[data-ply]');
    if (li) goTo(Number(li.dataset.ply));
  });
  $('book-select').addEventListener('change', (event) => {
    state.book = event.target.value;
    refresh();
  });
  $('game-select').addEventListener('change', (event) => showGame(Number(event.target.value)));
  $('load').addEventListener('click', () => {
    const text = $('paste').value;
    if (text.trim()) loadRecord(new TextEncoder().encode(text), null);
  });
  $('file').addEventListener('change', async (event) => {
    const file = event.target.files[0];
    if (file) await loadRecord(await file.arrayBuffer(), file.name);
    event.target.value = '';
  });
  // A file dropped anywhere on the page is read (never opened by the
  // browser in place of the page); the drop zone shows where.
  const drop = $('drop');
  document.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  document.addEventListener('dragleave', (event) => {
    if (!event.relatedTarget) drop.classList.remove('over');
  });
  document.addEventListener('drop', async (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const file = event.dataTransfer?.files[0];
    if (file) await loadRecord(await file.arrayBuffer(), file.name);
  });
  $('download').addEventListener('click', download);
  document.addEventListener('keydown', onKey);
}

function flip() {
  state.flipped = !state.flipped;
  drawBoard();
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest('input, textarea, select, dialog') || $('promote').open) return;
  const actions = {
    ArrowLeft: () => goTo(state.cursor - 1),
    ArrowRight: () => goTo(state.cursor + 1),
    Home: () => goTo(0),
    End: () => goTo(state.moves.length),
    f: flip,
    Escape: () => {
      state.selected = null;
      drawBoard();
    },
  };
  const action = actions[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

async function main() {
  wire();
  drawBoard();
  drawStatus();
  drawMoves();
  try {
    const [books, formats] = await Promise.all([getJson('/api/books'), getJson('/api/formats')]);
    state.books = books.books ?? [];
    state.book = state.books[0]?.name ?? null;
    const select = $('book-select');
    select.replaceChildren(...state.books.map((b) => {
      const option = document.createElement('option');
      option.value = b.name;
      option.textContent = `${b.name} (${b.format})`;
      return option;
    }));
    $('book-choice').hidden = state.books.length < 2;
    state.formats = formats.targets ?? [];
    $('download-format').replaceChildren(...state.formats.map((f) => {
      const option = document.createElement('option');
      option.value = f.name;
      option.textContent = `${f.name} — ${f.help}`;
      return option;
    }));
  } catch (e) {
    showError(e);
  }
  await refresh();
}

main();
