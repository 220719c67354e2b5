#!/usr/bin/env python3
"""What cshogi's record readers give for some files, as JSON: the oracle of
kifconv.compat.cshogi.

    scripts/compat-cshogi-vectors.py FILE... > python/tests/data/cshogi-compat.json
    scripts/compat-cshogi-vectors.py --lines [--root DIR] FILE...   (JSON lines)

The committed oracle is made from the repository's fixtures:

    scripts/compat-cshogi-vectors.py fixtures/csa/*.csa fixtures/kif/*.kif \
        fixtures/kif/*.kifu fixtures/ki2/*.ki2 fixtures/training/filters/*.csa \
        fixtures/tsume/*.csa > python/tests/data/cshogi-compat.json

Run with the python of the peers' venv (../shared/tools/peers/setup.sh
installs cshogi there). Each file is read by the reader its extension names
(`.csa` by cshogi.CSA, `.kif`/`.kifu` by cshogi.KIF, `.ki2`/`.ki2u` by
cshogi.KI2) through `Parser.parse_file`. When that fails only to decode the
text (cshogi's CSA reader takes UTF-8 alone, its KIF and KI2 readers CP932
unless the name ends in `.kifu`), the text decoded as the peers decode it
(UTF-8, else CP932, else EUC-JP) is given to `Parser.parse_str`, and `via`
says so. Every attribute of each record cshogi gives is kept, `moves` as
its 32-bit integers; an error is kept as its type and message, and a
crash (each file is read in a child process) as its signal. With
--split-ki2, a KI2 file's text is given to `KI2.Parser.parse_str` with each
move of a move line on a line of its own, past cshogi's bug with three
moves on a line.

Without --lines, one JSON document, {"files": [entry, ...]}, an entry a
line, with paths relative to --root (default: the current folder). With --lines, one entry a
line, flushed, so that a caller can tell where cshogi's C++ reader crashed.
"""
import argparse
import datetime
import importlib.metadata
import json
import os
import re
import sys

import cshogi.CSA
import cshogi.KI2
import cshogi.KIF

from lib.peer_text import decode

ATTRIBUTES = (
    "names", "ratings", "sfen", "moves", "times", "scores", "comments",
    "win", "endgame", "version", "var_info", "comment", "starttime",
)


def reader(path):
    ext = os.path.splitext(path)[1].lower()
    if ext == ".csa":
        return "csa", cshogi.CSA.Parser
    if ext in (".kif", ".kifu"):
        return "kif", cshogi.KIF.Parser
    if ext in (".ki2", ".ki2u"):
        return "ki2", cshogi.KI2.Parser
    raise SystemExit(f"{path}: no cshogi reader for this extension")


def plain(value):
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    return value


def record(parser):
    return {a: plain(getattr(parser, a)) for a in ATTRIBUTES if hasattr(parser, a)}


def one_move_a_line(text):
    """KI2 text with each move of a move line on a line of its own: cshogi's
    KI2 reader fails from the third move of a line."""
    return "\n".join(
        re.sub(r"\s*(?=[▲△])", "\n", line).lstrip("\n") if line.startswith(("▲", "△")) else line
        for line in text.split("\n")
    )


def entry(path, shown, split_ki2=False):
    fmt, parser = reader(path)
    out = {"path": shown, "format": fmt, "via": "parse_file"}
    try:
        if fmt == "ki2" and split_ki2:
            out["via"] = "parse_str, one move a line"
            with open(path, "rb") as f:
                got = parser.parse_str(one_move_a_line(decode(f.read())))
            out["games"] = [record(got)]
            return out
        try:
            got = parser.parse_file(path)
        except UnicodeDecodeError:
            out["via"] = "parse_str"
            with open(path, "rb") as f:
                got = parser.parse_str(decode(f.read()))
        games = got if isinstance(got, list) else [got]
        out["games"] = [record(g) for g in games]
    except Exception as error:  # noqa: BLE001 (cshogi raises many kinds)
        out["error"] = f"{type(error).__name__}: {error}"
    return out


def isolated(path, shown, split_ki2=False):
    """entry() in a child process: cshogi's C++ CSA reader can crash."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        with os.fdopen(write_end, "w", encoding="utf-8") as out:
            json.dump(entry(path, shown, split_ki2), out, ensure_ascii=False)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, encoding="utf-8") as got:
        text = got.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        fmt, _ = reader(path)
        return {"path": shown, "format": fmt, "via": "parse_file",
                "error": f"crashed (signal {os.WTERMSIG(status)})"}
    return json.loads(text)


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--lines", action="store_true", help="one JSON entry a line")
    args.add_argument("--root", default=".", help="paths are written relative to it")
    args.add_argument("--files-from", help="a file of paths, one a line")
    args.add_argument("--split-ki2", action="store_true",
                      help="give cshogi's KI2 reader each move on a line of its own")
    args.add_argument("files", nargs="*")
    opts = args.parse_args()
    files = list(opts.files)
    if opts.files_from:
        with open(opts.files_from, encoding="utf-8") as f:
            files += [line.rstrip("\n") for line in f if line.strip()]
    entries = []
    for path in files:
        e = isolated(path, os.path.relpath(path, opts.root), opts.split_ki2)
        if opts.lines:
            print(json.dumps(e, ensure_ascii=False), flush=True)
        else:
            entries.append(e)
    if not opts.lines:
        # One file a line, for diffs that show which file changed.
        version = importlib.metadata.version("cshogi")
        generator = json.dumps(f"scripts/compat-cshogi-vectors.py with cshogi {version}")
        lines = ",\n".join(json.dumps(e, ensure_ascii=False) for e in entries)
        sys.stdout.write(f'{{"generator": {generator},\n"files": [\n{lines}\n]}}\n')


if __name__ == "__main__":
    main()
