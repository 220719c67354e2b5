#!/usr/bin/env bash
# Runs fuzz targets one after another on one core, at the lowest priority
# (start two with different targets to use two cores).
#
#   fuzz/run.sh [SECONDS] [TARGET...]     (default: 600 s, every target)
#
# Works on stable Rust: `--sanitizer none` needs no nightly flags (kifconv
# has no unsafe code, so AddressSanitizer adds little). New inputs go to
# generated/<target>/ (git-ignored), the seeds in corpus/<target>/ are only
# read, crashes land in artifacts/<target>/, and each run's log (with
# libFuzzer's final stats) in logs/<target>.log.
#
# KEEP_GOING=1 fuzzes with `-fork=1 -ignore_crashes=1` instead (still one
# core): a crash is saved and fuzzing goes on, to collect every distinct
# crash in one run while known bugs are still open.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(read_kif read_ki2 read_csa read_usi read_jkf read_western read_sniff round_trip movegen)
fi
export CARGO_BUILD_JOBS=1
nice -n 19 cargo fuzz build --sanitizer none
mkdir -p logs
status=0
for t in "${targets[@]}"; do
    mkdir -p "generated/$t" "artifacts/$t"
    case $t in
        read_kif) dict=kif ;; read_ki2) dict=ki2 ;; read_csa) dict=csa ;; read_usi) dict=usi ;;
        read_jkf) dict=jkf ;; read_western) dict=western ;; movegen) dict= ;; *) dict=all ;;
    esac
    extra=()
    [ -n "$dict" ] && extra=(-dict="dict/$dict.dict")
    echo "== $t for ${seconds}s"
    mode=()
    if [ -n "${KEEP_GOING:-}" ]; then
        mode=(-fork=1 -ignore_crashes=1)
    fi
    # One fuzzing process writing to its own log, so that two runs of this
    # script with different targets can share the machine (one per core).
    if ! nice -n 19 cargo fuzz run --sanitizer none "$t" "generated/$t" "corpus/$t" -- \
        "${mode[@]}" -max_total_time="$seconds" -max_len=16384 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 "${extra[@]}" \
        >"logs/$t.log" 2>&1; then
        status=1
    fi
    grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|#[0-9]+.*(cov|DONE)|INFO: exiting" "logs/$t.log" | tail -4
    grep -E "panicked|ERROR: libFuzzer|SUMMARY" "logs/$t.log" | head -5 || true
done
exit $status
