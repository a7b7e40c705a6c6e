#!/usr/bin/env bash
# Stand-in for `nvidia-smi --query-gpu=FIELDS --format=csv -lms MS` in the footprint bench (there is no
# GPU here): one long-running process that prints a captured --query-gpu CSV's header once, then its
# rows every MS milliseconds, as nvidia-smi's loop mode does. It starts no process per interval: it
# sleeps in `read -t` on a FIFO that nobody writes to.
#   nvidia-smi-loop-standin.sh CSV MS
set -euo pipefail
csv=$1
ms=$2
mapfile -t lines < "$csv"
fifo=$(mktemp -u "${TMPDIR:-/tmp}/nvidia-smi-standin.XXXXXX")
mkfifo "$fifo"
exec 3<>"$fifo"
rm -f "$fifo"
wait_s=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
printf '%s\n' "${lines[0]}"
while :; do
  printf '%s\n' "${lines[@]:1}"
  read -r -t "$wait_s" -u 3 _ || true
done
