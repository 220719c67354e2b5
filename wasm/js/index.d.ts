/** An error of kifconv, with its place in the input. */
export class KifconvError extends Error {
  /** 1-based line; null for input without lines. */
  line: number | null;
  /** 1-based column in characters; null with `line`. */
  column: number | null;
  /** The source line. */
  text: string | null;
  /** The error as the command prints it. */
  rendered: string | null;
}

/** Bytes or text of a record. */
export type Input = Uint8Array | ArrayBuffer | ArrayBufferView | string;

export interface ReadOptions {
  /** The format (kif, ki2, csa, usi, sfen, jkf, western); told from the content when absent. */
  format?: string;
  /** The encoding (utf-8, sjis, euc-jp, utf-16le, …); detected when absent. */
  encoding?: string;
  /** The file's name, whose extension helps tell the format. */
  name?: string;
}

export interface Move {
  usi: string;
  /** As KI2 writes it, with ▲ or △. */
  japanese: string;
  sfen_after: string;
}

export interface Game {
  /** The start position, SFEN. */
  start: string;
  headers: [string, string][];
  /** The mainline. */
  moves: (Move & { comment: string | null })[];
  /** The ending as written (投了, %TORYO, …). */
  ending: string | null;
}

export interface Warning {
  line: number;
  column: number;
  message: string;
  text: string;
}

export function read(input: Input, options?: ReadOptions): { games: Game[]; warnings: Warning[] };

export interface Target {
  name: string;
  help: string;
  extension: string;
  /** Training data: `convert` answers a Uint8Array. */
  binary: boolean;
}

export const targets: Target[];

export function convert(
  input: Input,
  to: string,
  options?: ReadOptions & { flip?: boolean },
): string | Uint8Array;

export function flip(position: string): string;

export function legalMoves(position: string): {
  sfen: string;
  turn: 'b' | 'w';
  move_number: number;
  check: boolean;
  moves: Move[];
};

export type MateResult =
  | {
      result: 'mate';
      length: number;
      usi: string[];
      japanese: string[];
      first_moves: string[];
      unique: boolean;
    }
  | { result: 'none' }
  | { result: 'unknown' };

export function mate(position: string, options?: { depth?: number; nodes?: number }): MateResult;
