// The package against the command: every fixture and every record of the
// shared corpus converted to USI and to UTF-8 KIF by both, the same text,
// or the same error at the same line and column. Run after
// scripts/build-wasm.sh: node --test wasm/test/
// KIFCONV_BIN names the command (default: target/debug/kifconv);
// KIFCONV_REQUIRE_SHARED=1 makes a missing ../shared a failure.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert, read, flip, legalMoves, mate, KifconvError } from '../pkg/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = process.env.KIFCONV_BIN || join(root, 'target/debug/kifconv');
const shared = process.env.KIFCONV_SHARED || join(root, '../shared');

/** Every file under `dir`, skipping the folders named in `skip`. */
function files(dir, skip) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!skip.includes(name)) out.push(...files(path, skip));
    } else {
      out.push(path);
    }
  }
  return out;
}

/** The command's answer for `path` as `to`: its output, or its first
 * error's line and column. */
function command(path, to) {
  const run = spawnSync(bin, [path, '--to', to], { maxBuffer: 1 << 28 });
  const stderr = run.stderr.toString();
  const error = stderr.split('\n').find((l) => l.includes(': error: '));
  if (run.status === 0) return { output: run.stdout.toString() };
  const place = error && error.slice(path.length).match(/^:(\d+):(\d+): error: /);
  return { error: place ? { line: Number(place[1]), column: Number(place[2]) } : { line: null }, stderr };
}

/** The package's answer for the bytes of `path` as `to`. */
function pkg(path, to) {
  try {
    return { output: convert(readFileSync(path), to, { name: basename(path) }) };
  } catch (e) {
    assert.ok(e instanceof KifconvError, `${path}: ${e}`);
    return { error: { line: e.line, column: e.column } };
  }
}

/** Compares the two on every file; the number of files compared. */
function agree(paths) {
  const differ = [];
  for (const path of paths) {
    for (const to of ['usi', 'kifu']) {
      const want = command(path, to);
      const got = pkg(path, to);
      if (want.output !== undefined) {
        if (got.output !== want.output) differ.push(`${path} --to ${to}: ${JSON.stringify(got).slice(0, 200)}`);
      } else if (got.output !== undefined || (want.error.line !== null
          && (got.error.line !== want.error.line || got.error.column !== want.error.column))) {
        differ.push(`${path} --to ${to}: command ${JSON.stringify(want.error)}, package ${JSON.stringify(got).slice(0, 200)}`);
      }
    }
  }
  assert.deepEqual(differ, []);
  return paths.length;
}

test('every fixture converts as the command converts it', () => {
  const paths = files(join(root, 'fixtures'), ['jkf-schema', 'book']).filter((p) => !p.endsWith('.md'));
  const n = agree(paths);
  console.log(`fixtures: ${n} files agree`);
  assert.ok(n > 100);
});

test('every corpus record converts as the command converts it', (t) => {
  const corpus = join(shared, 'corpus');
  if (!existsSync(corpus)) {
    assert.ok(process.env.KIFCONV_REQUIRE_SHARED !== '1', `${corpus} is missing`);
    t.skip(`${corpus} is missing`);
    return;
  }
  const paths = files(corpus, ['expected']).filter((p) => relative(corpus, p).includes('/'));
  const n = agree(paths);
  console.log(`corpus: ${n} files agree`);
  assert.ok(n > 300);
});

test('a Shift_JIS KIF reads as the command reads it, with Japanese moves', () => {
  const path = join(root, 'fixtures/kif/jkf-henka.kif');
  const bytes = readFileSync(path);
  const usi = spawnSync(bin, [path, '--to', 'usi']).stdout.toString();
  assert.equal(convert(bytes, 'usi'), usi);
  const game = read(bytes).games[0];
  assert.equal(`position startpos moves ${game.moves.map((m) => m.usi).join(' ')}\n`, usi);
  assert.match(game.moves[0].japanese, /^▲/);
});

test('a bad KI2 throws an error at the command\'s line and column', () => {
  const ki2 = '▲７六歩 △３四歩\n▲２二角成 △９九銀\n▲２六歩\n';
  const run = spawnSync(bin, ['-', '--to', 'usi'], { input: ki2 });
  const place = run.stderr.toString().match(/^<stdin>:(\d+):(\d+): error: (.*)$/m);
  assert.ok(place, run.stderr.toString());
  assert.throws(() => convert(ki2, 'usi'), (e) => {
    assert.ok(e instanceof KifconvError);
    assert.equal(e.line, Number(place[1]));
    assert.equal(e.column, Number(place[2]));
    assert.equal(e.message, place[3]);
    assert.match(e.rendered, /\^/);
    return true;
  });
});

test('flip, legal moves, mates and binary targets', () => {
  const start = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
  const command = (args) => spawnSync(bin, args).stdout.toString();
  assert.equal(flip('position startpos moves 7g7f') + '\n', command(['flip', 'position startpos moves 7g7f']));
  assert.equal(flip('startpos'), start.replace(' b ', ' w '));
  assert.equal(legalMoves('startpos').moves.length, 30);
  const mate1 = mate('sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1');
  assert.equal(mate1.result, 'mate');
  assert.deepEqual(mate1.usi, ['G*5b']);
  assert.equal(mate('startpos', { depth: 3 }).result, 'none');
  assert.throws(() => flip('garbage'), KifconvError);
  const hcpe = convert('position startpos moves 7g7f 3c3d', 'hcpe');
  assert.ok(hcpe instanceof Uint8Array);
  assert.equal(hcpe.length, 2 * 38);
  const flipped = convert('position startpos moves 7g7f', 'usi', { flip: true });
  assert.match(flipped, /moves 3c3d\n$/);
});
