#!/usr/bin/env python3
"""Compares kifconv.compat.cshogi with cshogi, attribute for attribute, on
the bench CSA archive and on every corpus CSA, KIF and KI2 file.

    scripts/compat-cshogi-check.py [--bench ZIP]... [--corpus DIR] [--limit N]
                                   [--examples K] [--json OUT]

Run with a python that has kifconv installed (the package's venv). cshogi
runs in the peers' venv (KIFCONV_PEERS_PYTHON, by default
/root/.cache/kifconv-peers/venv/bin/python3) through
scripts/compat-cshogi-vectors.py, which writes what cshogi gives for each
file as a JSON line. The bench archive is unpacked to a temporary folder
first (cshogi reads files). cshogi's KI2 reader fails from the third move
on a line, which is nearly every KI2 file; --split-ki2 compares the KI2
files once more with each move on a line of its own.

Each file is counted once: cshogi fails on it (by the error's type), or
kifconv fails on it, or both read it and every attribute of every game is
equal, or some differ. A difference is put under the documented difference
that explains it (see kifconv.compat.cshogi's documentation) when one
does, else under "undocumented: ATTRIBUTE". The summary lists each with its
count and example files.
"""
from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import warnings
import zipfile

from kifconv.compat import cshogi as compat
from lib.peer_text import decode

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "compat-cshogi-vectors.py")
PEERS = os.environ.get(
    "KIFCONV_PEERS_PYTHON", "/root/.cache/kifconv-peers/venv/bin/python3"
)
READERS = {"csa": compat.CSA.Parser, "kif": compat.KIF.Parser, "ki2": compat.KI2.Parser}
EXTENSIONS = (".csa", ".kif", ".kifu", ".ki2", ".ki2u")


def cshogi_view(paths: list[str], split_ki2: bool = False) -> dict[str, dict]:
    """What cshogi gives for each path, by path."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("".join(p + "\n" for p in paths))
    try:
        out = subprocess.run(
            [PEERS, VECTORS, "--lines", "--root", "/", "--files-from", listing.name]
            + (["--split-ki2"] if split_ki2 else []),
            check=True, capture_output=True, text=True,
        ).stdout
    finally:
        os.unlink(listing.name)
    view = {}
    for line in out.splitlines():
        entry = json.loads(line)
        view["/" + entry["path"]] = entry
    return view


def plain(value):
    if hasattr(value, "isoformat"):
        return value.isoformat(sep=" ")
    return value


def kifconv_view(path: str, fmt: str) -> list[dict]:
    parser = READERS[fmt]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = parser.parse_file(path)
    games = got if isinstance(got, list) else [got]
    return [{a: plain(getattr(g, a)) for a in g._ATTRIBUTES} for g in games]


def explain(fmt: str, attr: str, theirs: dict, ours: dict, text: str) -> str:
    """The documented difference that explains one attribute's difference,
    or ``undocumented: ATTR``."""
    if theirs["sfen"] != ours["sfen"]:
        if same_position(theirs["sfen"], ours["sfen"]):
            if attr == "sfen":
                return "sfen: hand in SFEN's order (cshogi's CSA: the P+00/P-00 lines' order)"
        elif fmt == "csa" and re.search(r"^P[+-].*00AL", text, re.M):
            return "CSA 00AL: the remaining pieces go to the hand (cshogi ignores it)"
        else:
            return "start position: board diagram or piece lists (cshogi starts from 平手)"
    if fmt == "ki2" and attr in ("moves", "comments"):
        return "KI2 moves (cshogi's KI2 reader misreads them)"
    if fmt in ("kif", "ki2") and ours["endgame"] in ("%ILLEGAL_MOVE", "%+ILLEGAL_ACTION", "%-ILLEGAL_ACTION") \
            and attr in ("moves", "times", "comments", "win", "endgame") \
            and len(theirs["moves"]) == len(ours["moves"]) + 1 \
            and theirs["moves"][:-1] == ours["moves"]:
        return "KIF foul: the illegal last move ends the game (cshogi keeps it in moves)"
    if fmt == "kif" and attr in ("moves", "times", "comments", "var_info") and "変化" in text \
            and theirs["moves"][:len(ours["moves"])] == ours["moves"] \
            and len(theirs["moves"]) > len(ours["moves"]):
        return "KIF variations: cshogi reads a variation's moves into the mainline"
    if fmt == "kif" and attr in ("moves", "times", "comments") \
            and theirs["moves"] != ours["moves"]:
        return "KIF moves cshogi misreads (its move pattern misses them)"
    if attr == "times" and fmt == "kif" and len(theirs["times"]) < len(ours["times"]):
        return "KIF times in a form cshogi's pattern misses (spaces around /, no total)"
    if attr == "times" and fmt == "kif" and theirs["endgame"] != ours["endgame"] \
            and theirs["times"][:len(ours["times"])] == ours["times"]:
        return "KIF/KI2 ending: the terminal word's where the まで line says otherwise"
    if attr in ("win", "endgame") and fmt in ("kif", "ki2"):
        if theirs["endgame"] in (None, ""):
            return "KIF/KI2 ending read where cshogi reads none (no まで…の勝ち line)"
        return "KIF/KI2 ending: the terminal word's where the まで line says otherwise"
    if fmt == "csa" and attr in ("times", "comment", "comments", "scores") \
            and re.search(r"^([+-]\d{4}[A-Z]{2}|%\S+)\s*,", text, re.M):
        return "CSA comma-joined lines: cshogi drops what follows the comma"
    if fmt == "csa" and re.search(r"^([+-]\d{4}[A-Z]{2}|%\S+)\s*,", text, re.M) \
            and attr in ("moves", "endgame", "win") and len(theirs["moves"]) < len(ours["moves"]):
        return "CSA comma-joined lines: cshogi drops what follows the comma"
    if attr == "moves" and fmt == "csa" and 0 in theirs["moves"]:
        return "CSA move naming a promoted piece unpromoted (cshogi: 0)"
    if attr == "version" and fmt == "csa":
        return "CSA version: the first V line (cshogi: the last line starting with V)"
    if attr == "comment" and fmt == "csa" and "'CSA encoding=" in text:
        return "CSA 'CSA encoding= line (the decoder's, not a comment for kifconv)"
    if attr == "comment" and fmt == "csa" and "'*" in text:
        return "CSA comment written '* (kifconv drops one *)"
    if attr == "var_info" and fmt == "kif":
        return "KIF header values trimmed, # lines comments (cshogi keeps both)"
    return f"undocumented: {attr}"


def hand(text: str) -> collections.Counter:
    """A SFEN hand's pieces, counted."""
    counts: collections.Counter = collections.Counter()
    for number, piece in re.findall(r"(\d*)([A-Za-z])", "" if text == "-" else text):
        counts[piece] += int(number or 1)
    return counts


def same_position(a: str, b: str) -> bool:
    """Whether two SFENs differ in the order of their hands alone."""
    a_board, a_side, a_hand, *_ = a.split()
    b_board, b_side, b_hand, *_ = b.split()
    return (a_board, a_side) == (b_board, b_side) and hand(a_hand) == hand(b_hand)


def compare(path: str, fmt: str, entry: dict, counts, examples) -> None:
    if entry.get("via") == "parse_str":
        counts["(cshogi's parse_file could not decode it: read from the decoded text)"] += 1
    if "error" in entry:
        kind = entry["error"].split(":")[0]
        counts[f"cshogi fails ({kind}); not compared"] += 1
        return
    try:
        ours = kifconv_view(path, fmt)
    except Exception as error:  # noqa: BLE001
        key = f"kifconv fails ({type(error).__name__})"
        counts[key] += 1
        examples[key].append(f"{path}: {str(error).splitlines()[0]}")
        return
    theirs = entry["games"]
    if len(theirs) != len(ours):
        key = f"undocumented: number of games ({len(theirs)} against {len(ours)})"
        counts[key] += 1
        examples[key].append(path)
        return
    with open(path, "rb") as f:
        text = decode(f.read())
    found = set()
    for t, o in zip(theirs, ours):
        for attr in o:
            if attr in t and t[attr] != o[attr]:
                found.add(explain(fmt, attr, t, o, text))
    if not found:
        counts["equal"] += 1
    for key in sorted(found):
        counts[key] += 1
        if len(examples[key]) < 1000:
            examples[key].append(path)


def corpus_files(corpus: str) -> list[str]:
    with open(os.path.join(corpus, "MANIFEST.tsv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return sorted(
        os.path.abspath(os.path.join(corpus, r["path"])) for r in rows
        if r["format"] in ("csa", "kif", "kifu", "ki2", "ki2u")
        and r["path"].lower().endswith(EXTENSIONS)
    )


def fmt_of(path: str) -> str:
    ext = os.path.splitext(path)[1].lower()
    return {".csa": "csa", ".kif": "kif", ".kifu": "kif"}.get(ext, "ki2")


def run(name: str, paths: list[str], examples_shown: int, split_ki2: bool = False) -> dict:
    counts: collections.Counter = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    view = {}
    for start in range(0, len(paths), 500):
        view.update(cshogi_view(paths[start:start + 500], split_ki2))
    for path in paths:
        compare(path, fmt_of(path), view[path], counts, examples)
    print(f"## {name}: {len(paths)} files")
    for key, n in counts.most_common():
        print(f"{n:7d}  {key}")
        for example in examples.get(key, [])[:examples_shown]:
            print(f"           e.g. {example}")
    return {"files": len(paths), "counts": dict(counts), "examples": examples}


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--bench", action="append",
                      help="a bench archive (again for more; default: the CSA one)")
    args.add_argument("--corpus", default=os.path.join(HERE, "../../shared/corpus"))
    args.add_argument("--limit", type=int, help="the first N bench games only")
    args.add_argument("--examples", type=int, default=3)
    args.add_argument("--json", help="write the counts and examples here")
    args.add_argument("--skip-bench", action="store_true")
    args.add_argument("--split-ki2", action="store_true",
                      help="also give cshogi the KI2 files one move a line (past its bug)")
    opts = args.parse_args()
    report = {}
    archives = opts.bench or [os.path.join(HERE, "../../shared/bench/csa.zip")]
    for archive in [] if opts.skip_bench else archives:
        with tempfile.TemporaryDirectory() as tmp:
            with zipfile.ZipFile(archive) as z:
                names = sorted(n for n in z.namelist() if n.lower().endswith(EXTENSIONS))
                if opts.limit:
                    names = names[: opts.limit]
                for n in names:
                    z.extract(n, tmp)
            paths = [os.path.join(tmp, n) for n in names]
            name = os.path.basename(archive)
            report[name] = run(f"bench archive {name}", paths, opts.examples)
            if opts.split_ki2 and any(fmt_of(p) == "ki2" for p in paths):
                ki2 = [p for p in paths if fmt_of(p) == "ki2"]
                report[name + " split"] = run(
                    f"bench archive {name}, KI2 one move a line", ki2, opts.examples, True)
    corpus = corpus_files(opts.corpus)
    report["corpus"] = run("corpus CSA/KIF/KI2", corpus, opts.examples)
    if opts.split_ki2:
        ki2 = [p for p in corpus if fmt_of(p) == "ki2"]
        report["corpus split"] = run("corpus KI2, one move a line", ki2, opts.examples, True)
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as f:
            json.dump(report, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    sys.exit(main())
