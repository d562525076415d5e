#!/usr/bin/env bash
# Instructions per item for one stage (see stages.py): `benchmarks/count.sh STAGE [N] [W]`.
# callgrind with the stage run over N fresh items, minus the same without running it.
set -euo pipefail
stage=${1:?stage}; n=${2:-300}; w=${3:-700}; here=$(dirname "$0"); py=${PYTHON:-python}
count() { PYTHONHASHSEED=0 TZ=Asia/Shanghai valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" "$here/stages.py" "$stage" "$w" "$n" "$1" 2>&1 | grep -o "Collected : [0-9]*" | grep -o "[0-9]*"; }
a=$(count 0); b=$(count 1)
echo "$stage: $(( (b - a) / n )) instructions per item ($n fresh after $w)"
