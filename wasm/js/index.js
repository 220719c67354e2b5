// kifconv for the browser and Node: shogi records read, converted and
// flipped, legal moves and mates, by kifconv's library compiled to
// WebAssembly. Importing the module loads it (fetched beside this file in
// a page, read from disk in Node); every function is then synchronous.

import init, * as wasm from './kifconv_wasm.js';

const wasmUrl = new URL('./kifconv_wasm_bg.wasm', import.meta.url);
if (typeof process !== 'undefined' && process.versions && process.versions.node) {
  const { readFile } = await import('node:fs/promises');
  await init({ module_or_path: await readFile(wasmUrl) });
} else {
  await init({ module_or_path: wasmUrl });
}

/** An error of kifconv: `line` and `column` (1-based; null for input
 * without lines), `text` (the source line), `rendered` (as the command
 * prints it). */
export class KifconvError extends Error {
  constructor(fields) {
    super(fields.message);
    this.name = 'KifconvError';
    this.line = fields.line;
    this.column = fields.column;
    this.text = fields.text;
    this.rendered = fields.rendered;
  }
}

/** Calls `f`, turning the error it throws into a KifconvError. */
function call(f) {
  try {
    return f();
  } catch (thrown) {
    if (typeof thrown === 'string') {
      throw new KifconvError(JSON.parse(thrown));
    }
    throw thrown;
  }
}

/** Bytes of an input: a Uint8Array, an ArrayBuffer, or a string (UTF-8). */
function bytesOf(input) {
  if (typeof input === 'string') return new TextEncoder().encode(input);
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) {
    return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  }
  throw new TypeError('a record is a Uint8Array, an ArrayBuffer or a string');
}

/** Every game of a record in any format and encoding (told from the
 * content, then `name`'s extension, unless `format` or `encoding` says):
 * `{games: [{start, headers, moves: [{usi, japanese, sfen_after,
 * comment}], ending}], warnings: [{line, column, message, text}]}`. */
export function read(input, { format, encoding, name } = {}) {
  return JSON.parse(call(() => wasm.readJson(bytesOf(input), format, encoding, name)));
}

/** The formats `convert` writes: `[{name, help, extension, binary}]`. */
export const targets = JSON.parse(wasm.targetsJson());

/** A record converted to `to` (`usi`, `sfen`, `kif`, `ki2`, `csa`, `jkf`,
 * `western`, `hcpe`, …), rotated 180° when `flip`: a string for a text
 * format (KIF and KI2 as text, whatever encoding the command would write),
 * a Uint8Array for training data. */
export function convert(input, to, { flip = false, format, encoding, name } = {}) {
  const bytes = call(() => wasm.convertBytes(bytesOf(input), to, flip, format, encoding, name));
  const target = targets.find((t) => t.name === String(to).toLowerCase());
  return target && target.binary ? bytes : new TextDecoder().decode(bytes);
}

/** A position (`startpos`, an SFEN, `position … moves …`) rotated 180°,
 * colours swapped, as SFEN. */
export function flip(position) {
  return call(() => wasm.flipPosition(position));
}

/** A position and every legal move of it: `{sfen, turn, move_number,
 * check, moves: [{usi, japanese, sfen_after}]}`. */
export function legalMoves(position) {
  return JSON.parse(call(() => wasm.legalMovesJson(position)));
}

/** The shortest forced mate of the side to move within `depth` plies:
 * `{result: 'mate', length, usi, japanese, first_moves, unique}`, or
 * `{result: 'none'}`, or `{result: 'unknown'}` when `nodes` ran out. */
export function mate(position, { depth = 1, nodes = 5000000 } = {}) {
  return JSON.parse(call(() => wasm.mateJson(position, depth, nodes)));
}
