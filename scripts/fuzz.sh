#!/bin/sh
# make fuzz: builds the libFuzzer targets (clang, ASan+UBSan) in build-fuzz/ and runs each for
# FUZZ_SECONDS (default 60) from a seed corpus: fuzz/corpus/<target>/ plus the small real traces
# and configuration files in ../shared/data. Exits non-zero if any target finds a crash, a leak or
# a hang; the input that caused it is kept in build-fuzz/artifacts/.
set -eu
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-60}
build=${FUZZ_BUILD:-build-fuzz}
shared=${WS_SHARED_DATA:-../shared/data}
targets="fuzz_traceg fuzz_kernelslist fuzz_import fuzz_memtrace fuzz_graph fuzz_config fuzz_usimm_cfg
    fuzz_recipe"

cmake -S . -B "$build" -DWS_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target $targets

# Seeds: the hand-written ones, and every real file of the right kind up to 32 KiB (bigger ones
# only slow each execution down without adding structure).
add_seeds() { # dir pattern...
    d=$1
    shift
    if [ -d "$shared/traces/accelsim" ]; then
        find "$shared/traces/accelsim" -type f "$@" -size -32k | while read -r f; do
            cp "$f" "$d/$(echo "$f" | tr '/' '_')"
        done
    fi
}
rm -rf "$build/corpus"
mkdir -p "$build/corpus" "$build/artifacts"
for t in $targets; do
    c="$build/corpus/$t"
    mkdir -p "$c"
    cp fuzz/corpus/"${t#fuzz_}"/* "$c/"
done
add_seeds "$build/corpus/fuzz_traceg" -name '*.traceg'
add_seeds "$build/corpus/fuzz_kernelslist" -name 'kernelslist.g'
# The Accel-Sim log's option block is what the importer reads; the rest of the log is its run.
log="$shared/traces/accelsim/microgpusim-vectoradd-100-32/accelsim_log.txt"
[ -f "$log" ] && head -c 65536 "$log" >"$build/corpus/fuzz_import/accelsim_log.txt"
# Every experiment recipe; USIMM's own 1- and 4-channel configurations, each with the chip file
# it selects for one trace (input: cores byte, .cfg, a 0 byte, .vi; see fuzz/fuzz_usimm_cfg.c).
cp experiments/*.ini "$build/corpus/fuzz_recipe/"
u="$shared/traces/usimm/usimm-v1.3-config"
for pair in 1channel.cfg:1Gb_x4.vi 4channel.cfg:1Gb_x16.vi; do
    if [ -f "$u/${pair%%:*}" ] && [ -f "$u/${pair#*:}" ]; then
        { printf '\000'; cat "$u/${pair%%:*}"; printf '\000'; cat "$u/${pair#*:}"; } \
            >"$build/corpus/fuzz_usimm_cfg/${pair%%:*}"
    fi
done

status=0
for t in $targets; do
    echo "fuzz: $t for ${secs} s"
    if ! "./$build/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$build/artifacts/$t-" "$build/corpus/$t" >"$build/$t.log" 2>&1; then
        echo "fuzz: $t FAILED (see $build/$t.log and $build/artifacts/)"
        tail -n 30 "$build/$t.log"
        status=1
    else
        grep -E 'stat::number_of_executed_units|stat::new_units_added' "$build/$t.log" |
            sed "s/^/fuzz: $t /"
    fi
done
exit $status
