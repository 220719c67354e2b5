// Drives the page of `kifconv serve` in Debian's chromium (headless) and
// checks what a person would see: the board, the book's moves, moves
// played by clicks on the book and on the board, a dropped record stepped
// through with the keys, an error with its line and column.
//
//   node page.mjs URL SCREENSHOT EXPECT.json [BOOKLESS_URL]
//
// URL serves two books, the bench book (the default) and a small one;
// BOOKLESS_URL, when given, a server with no book.
// EXPECT.json holds what the page must show, taken by the caller from the
// command itself (tests/it/serve_page.rs writes it):
//   book_start, book_after:  `kifconv book query --json` of the start and
//                            of `position startpos moves 7g7f`;
//   small_start:             the same of the start in the small book;
//   record: {path, usi: [..], sfens: [..], usi_text}  a Shift_JIS KIF, its
//                            moves, the position before and after each,
//                            and the command's USI for it;
//   bad: {text, line, column}  a record the command refuses, and where.
// Exits 0 when every check passed, 1 (saying which failed) otherwise.

import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename } from 'node:path';
import { chromium } from 'playwright-core';

const [url, screenshot, expectPath, booklessUrl] = process.argv.slice(2);
if (!url || !screenshot || !expectPath) {
  console.error('usage: node page.mjs URL SCREENSHOT EXPECT.json [BOOKLESS_URL]');
  process.exit(2);
}
const expected = JSON.parse(readFileSync(expectPath, 'utf8'));
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

let checks = 0;
function check(ok, what) {
  if (!ok) throw new Error(`check failed: ${what}`);
  checks += 1;
}
function same(actual, wanted, what) {
  const [a, w] = [JSON.stringify(actual), JSON.stringify(wanted)];
  check(a === w, `${what}: got ${a}, expected ${w}`);
}

const profile = mkdtempSync(join(tmpdir(), 'kifconv-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath,
  headless: true,
  viewport: { width: 1280, height: 860 },
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
const failures = [];
let status = 0;
try {
  const page = browser.pages()[0] ?? await browser.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (e) => failures.push(`uncaught in the page: ${e.message}`));
  await run(page);
  check(failures.length === 0, failures.join('; '));
  console.log(`ok: ${checks} checks passed`);
} catch (e) {
  console.error(e.stack ?? String(e));
  if (failures.length) console.error(failures.join('\n'));
  status = 1;
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(status);

// ---- Helpers over the page ---------------------------------------------

// The position shown: the board's SFEN once the book list answers for it
// too (the list arrives after the board).
async function shown(page, sfen) {
  await page.waitForSelector(`#board[data-sfen="${sfen}"]`, { state: 'attached' });
  await page.waitForSelector(`#book-moves[data-sfen="${sfen}"]`, { state: 'attached' });
}

async function pieces(page) {
  return page.$$eval('#board g.piece[data-square]', (gs) => Object.fromEntries(
    gs.map((g) => [g.dataset.square, g.dataset.piece]),
  ));
}

async function bookList(page) {
  return page.$$eval('#book-moves li[data-usi]', (lis) => lis.map((li) => ({
    usi: li.dataset.usi,
    count: Number(li.querySelector('.count').textContent),
    japanese: li.querySelector('.jp').textContent,
    flipped: li.classList.contains('flipped'),
    mark: !!li.querySelector('.flip-mark') && li.querySelector('.flip-mark').offsetParent !== null,
  })));
}

// The book's answer as the list must show it.
function listed(answer, flipped) {
  return answer.moves.map((m) => ({
    usi: m.usi, count: m.count, japanese: m.japanese, flipped, mark: flipped,
  }));
}

async function legalAfter(page, sfen, usi) {
  const answer = await page.evaluate(async (p) => {
    const r = await fetch(`/api/moves?${new URLSearchParams({ position: p })}`);
    return r.json();
  }, sfen);
  const move = answer.moves.find((m) => m.usi === usi);
  check(move, `${usi} is legal in ${sfen}`);
  return move.sfen_after;
}

async function clickSquare(page, square) {
  await page.click(`#board rect[data-square="${square}"]`);
}

// A move whose promotion the page asks about, answered `yes` or `no`.
async function movePromoting(page, from, to, answer) {
  await clickSquare(page, from);
  await clickSquare(page, to);
  await page.waitForSelector('#promote[open]');
  await page.click(`#promote-${answer}`);
}

// The moves of the line shown, in USI.
async function playedLine(page) {
  return page.$$eval('#moves li[data-usi]', (l) => l.map((li) => li.dataset.usi));
}

async function key(page, name) {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press(name);
}

// ---- The checks --------------------------------------------------------

async function run(page) {
  const start = expected.book_start;
  const after = expected.book_after;

  // The start position: 40 pieces, black to move, move 1, the book's moves.
  await page.goto(url);
  await shown(page, start.sfen);
  const board = await pieces(page);
  same(Object.keys(board).length, 40, 'pieces on the board at the start');
  same([board['5i'], board['5a'], board['8h'], board['2b']], ['K', 'k', 'B', 'b'], 'kings and bishops');
  same(await page.textContent('#board g.piece[data-square="5i"] text'), '玉', "black's king glyph");
  same(await page.textContent('#board g.piece[data-square="5a"] text'), '王', "white's king glyph");
  const turned = await page.getAttribute('#board g.piece[data-square="5a"]', 'transform');
  check(turned && turned.startsWith('rotate(180'), "white's pieces are turned");
  check(!(await page.getAttribute('#board g.piece[data-square="5i"]', 'transform')), "black's pieces are not");
  check((await page.textContent('#turn')).includes('先手'), 'black (先手) to move');
  same(await page.getAttribute('#move-number', 'data-move-number'), '1', 'move number');
  same(await page.getAttribute('#book-found', 'data-found'), 'exact', 'the start found as it is');
  const startList = await bookList(page);
  same(startList, listed(start, false), 'the book moves at the start');
  for (const usi of ['7g7f', '2g2f']) {
    check(startList.some((m) => m.usi === usi), `${usi} is listed at the start`);
  }

  // Two books served: a selector, and the other book's moves.
  check(await page.isVisible('#book-select'), 'the book selector is shown');
  same(await page.$$eval('#book-select option', (os) => os.map((o) => o.value)), ['bench', 'small'], 'the books offered');
  await page.selectOption('#book-select', 'small');
  await page.waitForFunction((n) => document.querySelectorAll('#book-moves li[data-usi]').length === n, expected.small_start.moves.length);
  same(await bookList(page), listed(expected.small_start, false), 'the small book\'s moves at the start');
  await page.selectOption('#book-select', 'bench');
  await page.waitForFunction((n) => document.querySelectorAll('#book-moves li[data-usi]').length === n, start.moves.length);
  same(await bookList(page), startList, 'the bench book again');

  // A click on a book move plays it; white's moves are found flipped.
  await page.click('#book-moves li[data-usi="7g7f"]');
  await shown(page, after.sfen);
  const afterBoard = await pieces(page);
  check(afterBoard['7f'] === 'P' && !afterBoard['7g'], 'the pawn moved from 7g to 7f');
  check((await page.textContent('#turn')).includes('後手'), 'white (後手) to move');
  same(await page.getAttribute('#moves li.current', 'data-usi'), '7g7f', 'the move list shows 7g7f as played');
  same(await page.getAttribute('#book-found', 'data-found'), 'flipped', 'found through the flipped entry');
  check(await page.isVisible('#book-found'), 'the flipped mark is visible');
  check((await page.textContent('#book-found')).length > 0, 'the flipped mark says so');
  same(await bookList(page), listed(after, true), 'the book moves after 7g7f, each marked flipped');
  check(after.moves.some((m) => m.usi === '3c3d'), 'the book answers 3c3d after 7g7f');

  // A piece moved by clicks: a square it cannot reach does nothing; its
  // destination plays it.
  const sfen3c3d = await legalAfter(page, after.sfen, '3c3d');
  await clickSquare(page, '3c');
  same(await page.$$eval('#board rect.target', (rs) => rs.map((r) => r.dataset.square)), ['3d'], "the pawn's one destination is shown");
  await clickSquare(page, '3e');
  same(await page.getAttribute('#board', 'data-sfen'), after.sfen, 'a square out of reach plays nothing');
  await clickSquare(page, '3c');
  await key(page, 'Escape');
  same(await page.$$('#board rect.target').then((r) => r.length), 0, 'Escape puts the piece down');
  await clickSquare(page, '3c');
  await clickSquare(page, '3d');
  await shown(page, sfen3c3d);
  same((await pieces(page))['3d'], 'p', "white's pawn on 3d");
  same(await playedLine(page), ['7g7f', '3c3d'], 'the line played');

  // Promotion asked when optional: 8h2b, first declined, then taken.
  const sfenPlain = await legalAfter(page, sfen3c3d, '8h2b');
  const sfenPromoted = await legalAfter(page, sfen3c3d, '8h2b+');
  await movePromoting(page, '8h', '2b', 'no');
  await shown(page, sfenPlain);
  same((await pieces(page))['2b'], 'B', 'declined: the bishop stays a bishop');
  await key(page, 'ArrowLeft');
  await shown(page, sfen3c3d);
  await movePromoting(page, '8h', '2b', 'yes');
  await shown(page, sfenPromoted);
  same((await pieces(page))['2b'], '+B', 'taken: a horse');
  same(await page.textContent('#board g.piece[data-square="2b"] text'), '馬', "the horse's glyph");
  same(await playedLine(page), ['7g7f', '3c3d', '8h2b+'], 'the line goes on with the new move');
  // White takes back; black drops the bishop from its hand.
  const sfenRetake = await legalAfter(page, sfenPromoted, '3a2b');
  await clickSquare(page, '3a');
  await clickSquare(page, '2b');
  await shown(page, sfenRetake);
  same(await page.getAttribute('#board .hand-piece[data-color="b"][data-hand="B"]', 'data-count'), '1', "a bishop in black's hand");
  const sfenDrop = await legalAfter(page, sfenRetake, 'B*5e');
  await page.click('#board .hand-piece[data-color="b"][data-hand="B"]');
  await clickSquare(page, '5e');
  await shown(page, sfenDrop);
  same((await pieces(page))['5e'], 'B', 'the bishop dropped on 5e');
  same(await page.$$('#board .hand-piece[data-color="b"]').then((h) => h.length), 0, "black's hand is empty again");

  // The view flipped with f: 9a moves from the left to the right.
  const leftOf = (sq) => page.$eval(`#board rect[data-square="${sq}"]`, (r) => Number(r.getAttribute('x')));
  check((await leftOf('9a')) < (await leftOf('1a')), '9a is on the left');
  await key(page, 'f');
  await page.waitForSelector('#board[data-flipped="true"]');
  check((await leftOf('9a')) > (await leftOf('1a')), 'flipped: 9a is on the right');
  const flippedTurn = await page.getAttribute('#board g.piece[data-square="5i"]', 'transform');
  check(flippedTurn && flippedTurn.startsWith('rotate(180'), "flipped: black's pieces are turned");
  await key(page, 'f');
  await page.waitForSelector('#board[data-flipped="false"]');

  // A Shift_JIS KIF dropped on the page: its moves listed, stepped
  // through with the arrow keys, the book beside every position.
  const record = expected.record;
  const bytes = [...readFileSync(record.path)];
  const dropped = await page.evaluateHandle(({ bytes, name }) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(bytes)], name));
    return transfer;
  }, { bytes, name: basename(record.path) });
  await page.dispatchEvent('#drop', 'drop', { dataTransfer: dropped });
  await shown(page, record.sfens[0]);
  same(await playedLine(page), record.usi, "the dropped record's moves");
  for (let ply = 1; ply <= record.usi.length; ply += 1) {
    await key(page, 'ArrowRight');
    await shown(page, record.sfens[ply]);
    same(await page.getAttribute('#moves li.current', 'data-ply'), String(ply), `→ to ply ${ply}`);
  }
  await key(page, 'ArrowRight');
  same(await page.getAttribute('#moves', 'data-cursor'), String(record.usi.length), '→ at the end stays there');
  await key(page, 'ArrowLeft');
  await shown(page, record.sfens[record.usi.length - 1]);
  await key(page, 'Home');
  await shown(page, record.sfens[0]);
  await key(page, 'End');
  await shown(page, record.sfens[record.usi.length]);
  await page.click(`#moves li[data-ply="1"]`);
  await shown(page, record.sfens[1]);
  same(await page.getAttribute('#book-found', 'data-found'), 'flipped', 'the book beside the record (white to move, flipped)');

  // The same file chosen with the file picker, over a line of one move.
  await key(page, 'Home');
  await shown(page, record.sfens[0]);
  await page.click('#book-moves li[data-usi="7g7f"]');
  await shown(page, after.sfen);
  same(await page.$$eval('#moves li[data-usi]', (l) => l.length), 1, 'a new line of one move');
  await page.setInputFiles('#file', record.path);
  await shown(page, record.sfens[0]);
  same(await page.$$eval('#moves li[data-usi]', (l) => l.length), record.usi.length, 'the picked file read too');
  await key(page, 'ArrowRight');
  await shown(page, record.sfens[1]);
  await page.screenshot({ path: screenshot });

  // Downloads: the file as it came, converted (nothing played over it);
  // then, one move played over it, the line on the board.
  const fetched = async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    const path = await download.path();
    return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
  };
  await page.selectOption('#download-format', 'usi');
  const whole = await fetched();
  same(whole.text, record.usi_text, 'the record downloaded as USI, as the command writes it');
  check(whole.name.endsWith('.usi'), `the download's name: ${whole.name}`);
  const next = (await bookList(page)).map((m) => m.usi).find((usi) => usi !== record.usi[1]);
  check(next, 'a book move other than the record\'s next');
  await page.click(`#book-moves li[data-usi="${next}"]`);
  await page.waitForSelector(`#moves li[data-ply="2"][data-usi="${next}"]`);
  const line = await fetched();
  same(line.text.trim(), `position startpos moves ${record.usi[0]} ${next}`, 'the line on the board downloaded');
  await key(page, 'ArrowLeft');
  await shown(page, record.sfens[1]);

  // A bad record pasted: the error with its line and column.
  check(await page.isHidden('#error'), 'no error shown yet');
  await page.fill('#paste', expected.bad.text);
  await page.click('#load');
  await page.waitForSelector('#error:not([hidden])');
  same(await page.getAttribute('#error', 'data-line'), String(expected.bad.line), 'the error line');
  same(await page.getAttribute('#error', 'data-column'), String(expected.bad.column), 'the error column');
  const message = await page.textContent('#error .message');
  check(message.startsWith(`line ${expected.bad.line}, column ${expected.bad.column}: `), `the error says where: ${message}`);
  same(await page.getAttribute('#board', 'data-sfen'), record.sfens[1], 'the board is left as it was');

  // A USI line pasted: its moves, from its start; an SFEN: that position.
  await page.fill('#paste', 'position startpos moves 7g7f 3c3d');
  await page.click('#load');
  await shown(page, start.sfen);
  check(await page.isHidden('#error'), 'a good record clears the error');
  same(await playedLine(page), ['7g7f', '3c3d'], 'the pasted line');
  await key(page, 'End');
  await shown(page, sfen3c3d);
  await page.fill('#paste', sfenDrop);
  await page.click('#load');
  await shown(page, sfenDrop);
  same(await page.$$('#moves li[data-usi]').then((l) => l.length), 0, 'a pasted SFEN has no moves');
  same((await pieces(page))['5e'], 'B', 'the pasted position');

  // A narrow window: the page fits it, the board takes its width.
  await page.setViewportSize({ width: 380, height: 800 });
  const fit = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    board: document.getElementById('board').getBoundingClientRect().width,
  }));
  check(fit.page <= 380 && fit.board > 300, `the page fits 380 px: ${JSON.stringify(fit)}`);
  await page.setViewportSize({ width: 1280, height: 860 });

  if (booklessUrl) {
    // No book served: the panel says so; the board works the same.
    await page.goto(booklessUrl);
    await page.waitForSelector('#book-panel[data-state="none"]', { state: 'attached' });
    check(await page.isVisible('#book-none'), '"no book" shown');
    check(await page.isHidden('#book-select'), 'no book selector');
    same(await page.$$('#book-moves li').then((l) => l.length), 0, 'no book moves');
    same(Object.keys(await pieces(page)).length, 40, 'the board without a book');
    const sfen7g7f = await legalAfter(page, start.sfen, '7g7f');
    await page.waitForSelector('body[data-state="ready"]', { state: 'attached' });
    await clickSquare(page, '7g');
    await clickSquare(page, '7f');
    await page.waitForSelector(`#board[data-sfen="${sfen7g7f}"]`, { state: 'attached' });
  }
}
