#!/usr/bin/env bash
# Smoke test of FleetScope's images: each one starts (host network, free 127.0.0.1 ports), answers
# its health check, and stops cleanly on SIGTERM (its stop signal) within 10 s: not killed, exit
# code 0 or 143 (a JVM ending on SIGTERM). The services come up in dependency order (kafka,
# registry, timescaledb, alertmanager, then the components that use them).
#
#   deploy/images/smoke.sh [--only a,b,...]      (default: every image; needs deploy/images/build.sh)
#
# One line per image: smoke image=... health=ok start_s=... stop_s=... exit_code=...; exit 1 if any failed.
set -euo pipefail
TAG=0.1.0
ALL="kafka registry timescaledb alertmanager correlator sink console agent analytics"
only="$ALL"
[ "${1:-}" = --only ] && only=$(echo "$2" | tr ',' ' ')
RUN=fs-smoke-$$
WORK=$(mktemp -d); chmod 755 "$WORK"
failed=0
started=()
declare -A STARTS=()

log() { printf 'smoke %s\n' "$*" >&2; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
http_ok() { curl -fs -o /dev/null --max-time 2 "$1"; }
tcp_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
want() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

cleanup() {
  for c in "${started[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

run() { # component [docker run options...] -- [args...]
  local c=$1; shift
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done; shift
  docker run -d --name "$RUN-$c" --network host "${opts[@]}" "fleetscope/$c:$TAG" "$@" >/dev/null
  started+=("$RUN-$c")
}

await() { # component seconds check...
  local c=$1 timeout=$2; shift 2
  local t0; t0=$(now)
  while ! "$@"; do
    if [ "$(docker inspect -f '{{.State.Running}}' "$RUN-$c")" != true ]; then
      log "image=fleetscope/$c:$TAG health=failed reason=exited"; docker logs --tail 20 "$RUN-$c" >&2; return 1
    fi
    if [ "$(secs "$t0" "$(now)" | cut -d. -f1)" -ge "$timeout" ]; then
      log "image=fleetscope/$c:$TAG health=failed reason=timeout seconds=$timeout"; docker logs --tail 20 "$RUN-$c" >&2; return 1
    fi
    sleep 0.3
  done
  START_S=$(secs "$t0" "$(now)")
}

stop_check() { # component: SIGTERM (the image's stop signal), 10 s before SIGKILL
  local c=$1 t0 stop_s rc
  t0=$(now)
  docker stop -t 10 "$RUN-$c" >/dev/null
  stop_s=$(secs "$t0" "$(now)")
  rc=$(docker inspect -f '{{.State.ExitCode}}' "$RUN-$c")
  if [ "$rc" = 0 ] || [ "$rc" = 143 ]; then
    if awk -v s="$stop_s" 'BEGIN { exit !(s < 10) }'; then
      echo "smoke image=fleetscope/$c:$TAG health=ok start_s=${STARTS[$c]} stop_s=$stop_s exit_code=$rc"
      return 0
    fi
  fi
  echo "smoke image=fleetscope/$c:$TAG health=ok start_s=${STARTS[$c]} stop_s=$stop_s exit_code=$rc result=FAILED reason=not-a-clean-stop-within-10s"
  docker logs --tail 20 "$RUN-$c" >&2
  failed=1
}

check() { # component seconds check... : waits for health, records failure
  if await "$@"; then STARTS[$1]=$START_S; return 0; fi
  echo "smoke image=fleetscope/$1:$TAG result=FAILED reason=no-health"
  failed=1; return 1
}

KAFKA=$(free_port); CONTROLLER=$(free_port); REG=$(free_port); PG=$(free_port); AM=$(free_port)
CORR=$(free_port); CONSOLE=$(free_port); AGENT=$(free_port); FLINK=$(free_port)

# --- the services the components need (also smoke-tested) ------------------------------------------
sed -e "s/0.0.0.0:9092/127.0.0.1:$KAFKA/; s/127.0.0.1:9092/127.0.0.1:$KAFKA/; s/:9093/:$CONTROLLER/g" \
  "$(dirname "$0")/kafka/server.properties" >"$WORK/kafka.properties"
run kafka -v "$WORK/kafka.properties:/etc/kafka/smoke.properties:ro" -- /etc/kafka/smoke.properties
check kafka 120 tcp_open "$KAFKA"
run registry -- --kafka "127.0.0.1:$KAFKA" --http-address 127.0.0.1 --http-port "$REG"
check registry 120 http_ok "http://127.0.0.1:$REG/subjects"
run timescaledb -e POSTGRES_HOST_AUTH_METHOD=trust -e POSTGRES_LISTEN=127.0.0.1 -e PGPORT="$PG" -- -c fsync=off
pg_ready() { docker exec "$RUN-timescaledb" psql -h 127.0.0.1 -p "$PG" -U postgres -Atc "SELECT 1" >/dev/null 2>&1; }
check timescaledb 120 pg_ready
docker exec "$RUN-timescaledb" psql -h 127.0.0.1 -p "$PG" -U postgres -q -c "CREATE DATABASE fleetscope" \
  -c "\\c fleetscope" -c "CREATE EXTENSION timescaledb" >/dev/null
log "timescaledb extension=$(docker exec "$RUN-timescaledb" psql -h 127.0.0.1 -p "$PG" -U postgres -d fleetscope -Atc \
  "SELECT extversion FROM pg_extension WHERE extname='timescaledb'") license=$(docker exec "$RUN-timescaledb" \
  psql -h 127.0.0.1 -p "$PG" -U postgres -Atc 'SHOW timescaledb.license')"
run alertmanager -- --config.file=/etc/alertmanager/alertmanager.yml --web.listen-address="127.0.0.1:$AM"
check alertmanager 60 http_ok "http://127.0.0.1:$AM/-/ready"

# --- the components -----------------------------------------------------------------------------------
JDBC="jdbc:postgresql://127.0.0.1:$PG/fleetscope"
if want correlator; then
  run correlator -- --kafka "127.0.0.1:$KAFKA" --registry "http://127.0.0.1:$REG" --alertmanager "http://127.0.0.1:$AM" \
    --http-port "$CORR" --state-dir /var/lib/fleetscope/streams
  check correlator 120 http_ok "http://127.0.0.1:$CORR/api/v1/incidents" && stop_check correlator
fi
if want sink; then
  run sink -- --kafka "127.0.0.1:$KAFKA" --registry "http://127.0.0.1:$REG" --jdbc "$JDBC" --jdbc-user postgres --jdbc-owner postgres
  sink_started() { docker logs "$RUN-sink" 2>&1 | grep -q "sink started"; }
  check sink 120 sink_started && stop_check sink
fi
if want console; then
  run console -- --http-address 127.0.0.1 --http-port "$CONSOLE" --jdbc "$JDBC" --jdbc-user postgres \
    --incidents-url "http://127.0.0.1:$CORR/api/v1/incidents"
  check console 120 http_ok "http://127.0.0.1:$CONSOLE/" && stop_check console
fi
if want agent; then
  cat >"$WORK/agent.yaml" <<YAML
cluster: smoke
node: smoke-node
interval: 2s
kafka: {bootstrap: "127.0.0.1:$KAFKA", registry_url: "http://127.0.0.1:$REG"}
spool: {dir: /var/lib/fleetscope/spool}
metrics: {port: $AGENT}
nvidia_smi: {enabled: false}
xid: {enabled: false}
ib: {enabled: false}
YAML
  chmod 644 "$WORK/agent.yaml"
  run agent -v "$WORK/agent.yaml:/etc/fleetscope/agent.yaml:ro" -- --config /etc/fleetscope/agent.yaml
  check agent 60 http_ok "http://127.0.0.1:$AGENT/metrics" && stop_check agent
fi
if want analytics; then
  run analytics -- jobmanager -D rest.port="$FLINK" -D rest.address=127.0.0.1 -D rest.bind-address=127.0.0.1 \
    -D jobmanager.rpc.address=127.0.0.1 -D jobmanager.rpc.port="$(free_port)" -D blob.server.port="$(free_port)" \
    -D jobmanager.bind-host=127.0.0.1
  jar_present() { docker exec "$RUN-analytics" test -s /opt/flink/usrlib/fleetscope-analytics.jar; }
  flink_ok() { http_ok "http://127.0.0.1:$FLINK/overview" && jar_present; }
  check analytics 120 flink_ok && stop_check analytics
fi

# --- the services, stopped last -------------------------------------------------------------------
for c in alertmanager timescaledb registry kafka; do
  if want "$c" && [ "$(docker inspect -f '{{.State.Running}}' "$RUN-$c" 2>/dev/null)" = true ]; then
    stop_check "$c"
  fi
done
[ "$failed" = 0 ] && log "result=ok images=\"$only\"" || { log "result=FAILED"; exit 1; }
