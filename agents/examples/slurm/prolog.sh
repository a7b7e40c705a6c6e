#!/bin/sh
# Slurm Prolog (runs as root on the node at job start): record which GPUs the job got, for the
# FleetScope agent's `jobs` collector (source: slurm_file). Line format: JOBID GPUS USER PARTITION
# with GPUS like 0,1,4-7 or MIG-<uuid>,... (Slurm sets SLURM_JOB_GPUS / CUDA_VISIBLE_DEVICES for the prolog).
f=${FLEETSCOPE_JOBS_FILE:-/run/fleetscope/slurm-jobs}
mkdir -p "$(dirname "$f")"
gpus=${SLURM_JOB_GPUS:-$CUDA_VISIBLE_DEVICES}
# on a MIG node Slurm's indexes are not GPU indexes: the MIG UUIDs name the devices themselves
case "$CUDA_VISIBLE_DEVICES" in *MIG-*) gpus=$CUDA_VISIBLE_DEVICES ;; esac
[ -n "$gpus" ] || exit 0
(
  flock 9
  grep -v "^${SLURM_JOB_ID} " "$f" 2>/dev/null > "$f.tmp"
  echo "${SLURM_JOB_ID} ${gpus} ${SLURM_JOB_USER:--} ${SLURM_JOB_PARTITION:--}" >> "$f.tmp"
  mv "$f.tmp" "$f"
) 9>"$f.lock"
