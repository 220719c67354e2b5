#!/usr/bin/env bash
# Rebuilds the seed corpus (corpus/<target>/) from the fixtures. The seeds
# are small and committed; libFuzzer's own finds go to generated/<target>/
# (git-ignored) so the seed folders stay as this script makes them.
set -euo pipefail
cd "$(dirname "$0")"
fx=../fixtures
rm -rf corpus
mkdir -p corpus/{read_kif,read_ki2,read_csa,read_usi,read_jkf,read_western,read_sniff,round_trip,movegen}
cp $fx/kif/* $fx/bad/*.kifu corpus/read_kif/
cp $fx/ki2/* $fx/bad/*.ki2u corpus/read_ki2/
cp $fx/csa/* corpus/read_csa/
cp $fx/usi/* corpus/read_usi/
cp $fx/jkf/*.* $fx/jkf/bad/* corpus/read_jkf/
cp $fx/western/*.* $fx/western/bad/* corpus/read_western/
# Sniffing: one file of each format.
for f in kif/jkf-henka.kif ki2/jkf-denou-relative.ki2 csa/shogihome-v3.csa \
         usi/handicap-and-drops.usi jkf/jkf-same-move-minimal.jkf western/mate.psn; do
    cp "$fx/$f" corpus/read_sniff/
done
# Round trips: the first byte picks the reader (0 KIF, 1 KI2, 2 CSA, 3 USI,
# 4 Western, 5 JKF, 6 sniff).
seed() { # byte dir
    for f in "$fx/$2"/*.*; do
        [ -f "$f" ] || continue
        { printf "\\x$(printf %02x "$1")"; cat "$f"; } > "corpus/round_trip/$1-$(basename "$f")"
    done
}
seed 0 kif; seed 1 ki2; seed 2 csa; seed 3 usi; seed 4 western; seed 5 jkf
# Move generation: positions in the target's sparse layout (see
# src/lib.rs: flags, count, square/piece pairs, 14 hand counts).
python3 - <<'PY'
kinds = "PLNSGBRK"
promoted = {"P": 8, "L": 9, "N": 10, "S": 11, "B": 12, "R": 13}
def encode(sfen):
    board, side, hands = sfen.split()[:3]
    pairs = []
    for r, row in enumerate(board.split("/")):
        f, i = 9, 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                f -= int(c); i += 1; continue
            plus = c == "+"
            if plus:
                i += 1; c = row[i]
            k = promoted[c.upper()] if plus else kinds.index(c.upper())
            n = k + 1 + (0 if c.isupper() else 14)
            pairs.append(((f - 1) * 9 + r, n))
            f -= 1; i += 1
    counts = [[0] * 7, [0] * 7]
    if hands != "-":
        num = ""
        for c in hands:
            if c.isdigit():
                num += c; continue
            counts[0 if c.isupper() else 1][kinds.index(c.upper())] += int(num or 1)
            num = ""
    out = bytes([0 if side == "b" else 1, len(pairs)])
    out += bytes(b for p in pairs for b in p)
    out += bytes(counts[0] + counts[1])
    return out
sfens = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "l4Ssnl/7k1/p1np1g1p1/1rp1PPp1p/3P5/2P2+bPPP/P5BK1/6S2/LN2RG2L b GSPgn3p 77",
    "7nk/7p1/7S1/9/9/9/9/9/4K4 b P 1",
    "4k4/9/9/9/9/9/9/9/4K4 b R2G2S2N2L9Pb2g2s2n2l9p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "8k/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",
    "4k4/4l4/9/9/4B4/9/9/4R4/4K4 w P 1",
]
for i, s in enumerate(sfens):
    open(f"corpus/movegen/pos-{i}", "wb").write(encode(s))
PY
du -sh corpus
