#!/usr/bin/env bash
# start|stop|status: a Docker daemon for FleetScope's images and the Testcontainers backend, with no
# bridge network and no iptables rules (every container runs on the host network, so all traffic
# stays on 127.0.0.1), its data under ${FLEETSCOPE_DOCKER_ROOT:-$CACHE/docker}.
set -euo pipefail
CACHE=${FLEETSCOPE_CACHE:-$HOME/.cache/fleetscope}
DATA=${FLEETSCOPE_DOCKER_ROOT:-$CACHE/docker}
PIDFILE=/var/run/docker.pid
log() { printf 'dockerd %s\n' "$*" >&2; }

answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

case "${1:-status}" in
  start)
    if answers; then
      log "status=running version=$(docker version --format '{{.Server.Version}}')"
      exit 0
    fi
    command -v dockerd >/dev/null || { log "status=missing hint=\"deploy/local/install.sh --with-docker\""; exit 1; }
    mkdir -p "$DATA"
    nohup dockerd --bridge=none --iptables=false --ip-masq=false --ip6tables=false --data-root "$DATA" \
      >"$CACHE/dockerd.log" 2>&1 &
    for _ in $(seq 1 60); do
      if answers; then
        log "status=started pid=$(cat "$PIDFILE") data_root=$DATA log=$CACHE/dockerd.log"
        exit 0
      fi
      sleep 0.5
    done
    log "status=failed log=$CACHE/dockerd.log"; tail -20 "$CACHE/dockerd.log" >&2; exit 1
    ;;
  stop)
    if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
      pid=$(cat "$PIDFILE"); kill "$pid"
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      log "status=stopped pid=$pid"
    else
      log status=not-running
    fi
    ;;
  status)
    if answers; then log "status=running"; else log "status=not-running"; exit 1; fi
    ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
