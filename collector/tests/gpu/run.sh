#!/bin/sh
# The collector's GPU test, in one command, on a machine with an NVIDIA GPU (no Node.js needed):
#
#   collector/tests/gpu/run.sh [OUTPUT_DIR]
#
# 1. builds the collector (with the toolkit's CUPTI headers) and gpu_work.cu (nvcc);
# 2. records gpu_work under nvtx-capture: the program prints the kernels, copies, sets, NVTX ranges
#    and API calls it made; the launcher's summary of the capture must show the same GPU work;
# 3. if PyTorch with CUDA imports, records train.py the same way (NVTX ranges exact; its kernels are
#    counted by torch.profiler in a separate run, since CUPTI takes one subscriber at a time);
# 4. measures the overhead: each program 3 times without any tool and 3 times under nvtx-capture,
#    alternating, its own loop time and the process's wall time;
# 5. leaves the captures, the programs' counts and a summary in OUTPUT_DIR; if node is present it runs
#    the full check (collector/tests/gpu/check.ts: decodes each capture with the nvtxview CLI and
#    fails on any difference), else prints the command that runs it on another machine.
#
# Exit status: 0 when every check passed, 1 when one failed, 2 when the machine cannot run the test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
collector=$(cd "$here/../.." && pwd)
root=$(cd "$collector/.." && pwd)
out=${1:-$here/out-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
log="$out/summary.txt"
: >"$log"
failed=0

say() { printf '%s\n' "$*" | tee -a "$log"; }
fail() { say "FAIL: $*"; failed=1; }

# ---------------------------------------------------------------- the machine
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    say "run.sh: no NVIDIA GPU here (nvidia-smi -L fails): the GPU test needs one."
    say "Without a GPU, the CUDA side is tested by: npx vitest run collector/tests/cuda.test.ts"
    exit 2
fi
nvidia-smi -L | tee -a "$log"
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
if [ ! -x "$nvcc" ]; then
    say "run.sh: nvcc not found (set NVCC or CUDA_HOME): needed to build gpu_work.cu"
    exit 2
fi

# ---------------------------------------------------------------- build
if ! make -s -C "$collector" >"$out/build.log" 2>&1; then
    cat "$out/build.log"
    say "run.sh: building the collector failed (make -C $collector)"
    exit 2
fi
status=$(make -s -C "$collector" cupti-status)
say "collector: $status"
case $status in cupti*) ;; *) say "run.sh: the collector was built without CUPTI headers: CUDA cannot be recorded"; exit 2 ;; esac
capture="$collector/build/nvtx-capture"
toolkit=$(dirname "$(dirname "$nvcc")")
arch=-arch=native
"$nvcc" $arch --version >/dev/null 2>&1 || arch=
# The shared runtime (as PyTorch uses it; the collector finds libcupti next to it), found at run time by rpath.
if ! "$nvcc" -O2 -std=c++17 $arch -cudart shared -I"$toolkit/include" "$here/gpu_work.cu" -o "$out/gpu_work" \
    -Xlinker -rpath -Xlinker "$toolkit/lib64" -ldl >>"$out/build.log" 2>&1; then
    cat "$out/build.log"
    say "run.sh: nvcc gpu_work.cu failed"
    exit 2
fi

# ---------------------------------------------------------------- helpers
now_ms() { date +%s%N | awk '{ printf "%.1f", $1 / 1e6 }'; }
# field NAME FILE: a number from a JSON line (flat "NAME":value).
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" "$2" | head -n 1; }
# summary_count WORD STDERR_FILE: a count from the launcher's "nvtx-capture: CUDA: ..." line.
summary_count() { sed -n "s/^nvtx-capture: CUDA: .* \([0-9][0-9]*\) $1.*/\1/p; s/^nvtx-capture: CUDA: \([0-9][0-9]*\) $1.*/\1/p" "$2" | head -n 1; }

# record NAME CMD...: runs CMD under nvtx-capture into $out/NAME.nvtxc, stdout to NAME.json.
record() {
    name=$1
    shift
    "$capture" -f -o "$out/$name.nvtxc" -- "$@" >"$out/$name.json" 2>"$out/$name.stderr"
    rc=$?
    cat "$out/$name.stderr" >>"$log"
    [ $rc -eq 0 ] || fail "$name exited with status $rc under nvtx-capture (see $out/$name.stderr)"
    if grep -q "CUDA not recorded" "$out/$name.stderr"; then fail "$name: CUDA was not recorded: $(grep 'CUDA not recorded' "$out/$name.stderr")"; fi
}

# overhead NAME CMD...: 3 runs without a tool and 3 under nvtx-capture, alternating.
overhead() {
    name=$1
    shift
    : >"$out/$name.overhead"
    for run in 1 2 3; do
        t0=$(now_ms)
        "$@" >"$out/$name.plain$run.json" 2>/dev/null
        t1=$(now_ms)
        "$capture" -q -f -o "$out/$name.timing$run.nvtxc" -- "$@" >"$out/$name.traced$run.json" 2>/dev/null
        t2=$(now_ms)
        echo "$run $(field loopMs "$out/$name.plain$run.json") $(field loopMs "$out/$name.traced$run.json") $t0 $t1 $t2" |
            awk '{ print $1, $2, $3, $5 - $4, $6 - $5 }' >>"$out/$name.overhead"
        rm -f "$out/$name.timing$run.nvtxc"
    done
    awk -v name="$name" '
        { lp[NR] = $2; lt[NR] = $3; wp[NR] = $4; wt[NR] = $5 }
        function median(a,   x, y, z) { x = a[1]; y = a[2]; z = a[3];
            if ((x <= y && y <= z) || (z <= y && y <= x)) return y;
            if ((y <= x && x <= z) || (z <= x && x <= y)) return x; return z }
        END {
            printf "%s overhead (median of 3, alternating runs): loop %.1f ms without a tool, %.1f ms with the collector (%+.1f%%); process wall %.0f ms, %.0f ms (%+.1f%%)\n",
                name, median(lp), median(lt), 100 * (median(lt) / median(lp) - 1), median(wp), median(wt), 100 * (median(wt) / median(wp) - 1)
        }' "$out/$name.overhead" | tee -a "$log"
}

# ---------------------------------------------------------------- gpu_work
say "== gpu_work (4 threads x 500 iterations)"
record gpu_work "$out/gpu_work" 4 500
for kind in kernels:kernel memcpys:cop memsets:set; do
    key=${kind%%:*}
    word=${kind#*:}
    want=$(field "$key" "$out/gpu_work.json")
    got=$(summary_count "$word" "$out/gpu_work.stderr")
    if [ "$want" = "$got" ]; then say "gpu_work $key: $got (as launched)"; else fail "gpu_work $key: the program launched $want, the capture holds ${got:-none}"; fi
done
if grep -q "GPU activity records* w.* lost" "$out/gpu_work.stderr"; then fail "gpu_work: GPU activity records were lost"; fi
overhead gpu_work "$out/gpu_work" 4 500

# ---------------------------------------------------------------- PyTorch
python=${PYTHON:-python3}
if "$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' >/dev/null 2>&1; then
    say "== PyTorch training loop ($("$python" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)'))"
    "$python" "$here/train.py" --profile >"$out/train.profiler.json" 2>"$out/train.profiler.stderr" ||
        fail "train.py --profile failed (see $out/train.profiler.stderr)"
    say "torch.profiler counted $(field kernels "$out/train.profiler.json") kernels in the steps"
    record train "$python" "$here/train.py"
    sed -n 's/^nvtx-capture: CUDA: /train CUDA records: /p' "$out/train.stderr" | tee -a "$log"
    overhead train "$python" "$here/train.py"
else
    say "== PyTorch: not run ($python cannot import torch with CUDA)"
fi

# ---------------------------------------------------------------- the full check
if command -v node >/dev/null 2>&1 && [ -d "$root/node_modules" ]; then
    say "== check (decoding the captures with the nvtxview CLI)"
    (cd "$root" && node scripts/run-ts.mjs collector/tests/gpu/check.ts "$out") 2>&1 | tee -a "$log"
    [ "$(tail -n 1 "$log")" = "check: every count matches" ] || failed=1
else
    say "== check: node is not here. Copy $out to a machine with the nvtxview repository and run:"
    say "   node scripts/run-ts.mjs collector/tests/gpu/check.ts $out"
fi

say "captures, counts and this summary: $out"
[ $failed -eq 0 ] && say "run.sh: passed" || say "run.sh: FAILED"
exit $failed
