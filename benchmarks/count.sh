#!/usr/bin/env bash
# Instructions per item for one stage (see stages.py): `benchmarks/count.sh STAGE [N] [W]`.
# callgrind with the stage run over N fresh items, minus the same without running it.
# glibc's `rep movsb` copies are turned off: valgrind counts one instruction per byte they move,
# which made a 40 KB join look like 40,000 instructions (the vector copy counts ~1 per 10 bytes).
set -euo pipefail
stage=${1:?stage}; n=${2:-300}; w=${3:-700}; here=$(dirname "$0"); py=${PYTHON:-python}
count() { GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=2147483647 PYTHONHASHSEED=0 TZ=Asia/Shanghai valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" "$here/stages.py" "$stage" "$w" "$n" "$1" 2>&1 | grep -o "Collected : [0-9]*" | grep -o "[0-9]*"; }
a=$(count 0); b=$(count 1)
echo "$stage: $(( (b - a) / n )) instructions per item ($n fresh after $w)"
