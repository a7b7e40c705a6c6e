#!/bin/sh
# Slurm Epilog: the job's GPUs are free again; drop its line.
f=${FLEETSCOPE_JOBS_FILE:-/run/fleetscope/slurm-jobs}
[ -f "$f" ] || exit 0
(
  flock 9
  grep -v "^${SLURM_JOB_ID} " "$f" > "$f.tmp"
  mv "$f.tmp" "$f"
) 9>"$f.lock"
