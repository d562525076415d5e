#!/usr/bin/env bash
# Instructions per chart for one stage (see stages.py): callgrind with N items minus with 0.
set -euo pipefail
stage=${1:?stage}; n=${2:-100}; here=$(dirname "$0"); py=${PYTHON:-python}
count() { PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" "$here/stages.py" "$stage" "$1" 2>&1 | grep -o "Collected : [0-9]*" | grep -o "[0-9]*"; }
a=$(count 0); b=$(count "$n")
echo "$stage: $(( (b - a) / n )) instructions per item"
