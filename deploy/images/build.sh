#!/usr/bin/env bash
# Builds FleetScope's container images, fleetscope/<component>:0.1.0, from the Maven build's jars.
#
#   deploy/images/build.sh [--only a,b,...] [--skip-maven] [--timescaledb-from-host]
#
# Components: agent analytics correlator sink console registry timescaledb, and the test-only
# kafka and alertmanager (the Testcontainers backend of TestServices runs kafka, registry,
# timescaledb and alertmanager). The images start FROM ${FLEETSCOPE_IMAGE_BASE:-fleetscope-base:bookworm},
# a Debian bookworm made here with debootstrap when missing (no public registry is needed), with a
# shared JRE layer image (fleetscope/jre:17) under the JVM components; the Dockerfiles' own default
# BASE is the usual public image (eclipse-temurin:17-jre, debian:bookworm-slim, flink:2.2.1-java17).
# The TimescaleDB source: $FLEETSCOPE_VENDOR/timescaledb-2.28.3.tar.gz (default ../shared/vendor,
# community edition) when present, else Debian's source that deploy/local/install.sh downloaded;
# with --timescaledb-from-host, no compile: the extension install.sh built and installed on this
# machine is copied in (timescaledb/Dockerfile.prebuilt; what CI does, it saves about 4 minutes).
# Prints each image's size and the total time. Needs a Docker daemon (deploy/images/dockerd.sh start).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TAG=0.1.0
ALL="agent analytics correlator sink console registry timescaledb kafka alertmanager"
BASE_IMAGE=${FLEETSCOPE_IMAGE_BASE:-fleetscope-base:bookworm}
JRE_IMAGE=fleetscope/jre:17
FLINK_IMAGE=fleetscope/flink-runtime:2.2.1
CACHE=${FLEETSCOPE_CACHE:-$HOME/.cache/fleetscope}
VENDOR=${FLEETSCOPE_VENDOR:-$ROOT/../shared/vendor}
CTX="$ROOT/deploy/images/target/context"
export DOCKER_BUILDKIT=0

log() { printf 'images %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

only="$ALL"; maven=1; tsdb_from_host=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only=$(echo "$2" | tr ',' ' '); shift 2 ;;
    --skip-maven) maven=0; shift ;;
    --timescaledb-from-host) tsdb_from_host=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) die "error=unknown-argument arg=$1" ;;
  esac
done
for c in $only; do
  case " $ALL " in *" $c "*) ;; *) die "error=unknown-component component=$c known=\"$ALL\"" ;; esac
done
docker version --format '{{.Server.Version}}' >/dev/null 2>&1 \
  || die "error=no-docker-daemon hint=\"deploy/images/dockerd.sh start (after deploy/local/install.sh --with-docker)\""

t_all=$(now)

have_image() { docker image inspect "$1" >/dev/null 2>&1; }

build_image() { # name dir [build-arg ...]
  local name=$1 dir=$2; shift 2
  local t0; t0=$(now)
  local args=()
  for a in "$@"; do args+=(--build-arg "$a"); done
  if ! docker build -q --network host -f "$dir/${DOCKERFILE:-Dockerfile}" "${args[@]}" -t "$name" "$dir" >"$CTX/build-${name//[\/:]/_}.log" 2>&1; then
    tail -30 "$CTX/build-${name//[\/:]/_}.log" >&2
    die "error=build-failed image=$name log=$CTX/build-${name//[\/:]/_}.log"
  fi
  log "built image=$name seconds=$(secs "$t0" "$(now)") size_mb=$(size_mb "$name")"
}

size_mb() { docker image inspect -f '{{.Size}}' "$1" | awk '{ printf "%.0f", $1 / 1000000 }'; }

make_base() {
  if have_image "$BASE_IMAGE"; then
    log "status=present image=$BASE_IMAGE"; return
  fi
  [ "$BASE_IMAGE" = fleetscope-base:bookworm ] || die "error=no-base-image image=$BASE_IMAGE"
  command -v debootstrap >/dev/null || die "error=no-debootstrap hint=\"deploy/local/install.sh --with-docker\""
  local mirror rootfs t0
  mirror=$(sed -n 's/^URIs: //p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  [ -n "$mirror" ] || mirror=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  [ -n "$mirror" ] || die "error=no-debian-mirror-found"
  rootfs=$(mktemp -d); t0=$(now)
  log "status=debootstrap suite=bookworm mirror=$mirror"
  if ! debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$CTX/debootstrap.log" 2>&1; then
    rm -rf "$rootfs"; die "error=debootstrap-failed log=$CTX/debootstrap.log"
  fi
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  # debootstrap's sources list names the release alone; the images install packages with the same
  # updates and security fixes as the host (and a prebuilt TimescaleDB needs the host's PostgreSQL
  # minor version), so they get the host's apt sources, or bookworm with its updates and security
  write_apt_sources "$rootfs" "$mirror"
  if ! tar -C "$rootfs" -c . | docker import - "$BASE_IMAGE" >/dev/null; then
    rm -rf "$rootfs"; die "error=import-failed image=$BASE_IMAGE"
  fi
  rm -rf "$rootfs"
  log "built image=$BASE_IMAGE seconds=$(secs "$t0" "$(now)") size_mb=$(size_mb "$BASE_IMAGE")"
}

write_apt_sources() {
  local rootfs=$1 mirror=$2
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    cp /etc/apt/sources.list.d/debian.sources "$rootfs/etc/apt/sources.list.d/debian.sources"
    : >"$rootfs/etc/apt/sources.list"
  else
    local security=${mirror%/debian}/debian-security
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
      "$mirror" "$mirror" "$security" >"$rootfs/etc/apt/sources.list"
  fi
}

needs_jre() { for c in $only; do case $c in agent|analytics|correlator|sink|console|registry|kafka) return 0 ;; esac; done; return 1; }

# --- the jars, from the Maven build ---------------------------------------------------------------
mkdir -p "$CTX"
modules=""
for c in $only; do
  case $c in
    agent) m=agents ;; analytics) m=flink-jobs,stack/flink-cluster ;; correlator) m=streams ;;
    sink) m=sink-timescale ;; console) m=console ;; registry|kafka) m=stack/services ;; *) m="" ;;
  esac
  [ -z "$m" ] || modules="${modules:+$modules,}$m"
done
if [ "$maven" = 1 ] && [ -n "$modules" ]; then
  t0=$(now)
  log "status=maven what=\"package + runtime dependencies\" modules=$modules"
  # shellcheck disable=SC2086 # FLEETSCOPE_MVN_OPTS holds several flags (default: offline)
  (cd "$ROOT" && mvn -B -q ${FLEETSCOPE_MVN_OPTS--o} -DskipTests -pl "$modules" -am \
      package dependency:copy-dependencies -DincludeScope=runtime) >"$CTX/maven.log" 2>&1 \
    || { tail -30 "$CTX/maven.log" >&2; die "error=maven-failed log=$CTX/maven.log"; }
  log "status=maven-done seconds=$(secs "$t0" "$(now)")"
fi

# lib/: third-party jars; app/: FleetScope's own (a layer that changes more often)
jvm_context() { # component module
  local c=$1 m=$2 d="$CTX/$1"
  [ -d "$ROOT/$m/target/dependency" ] || die "error=no-jars module=$m hint=\"run without --skip-maven\""
  rm -rf "$d"; mkdir -p "$d/lib" "$d/app"
  cp "$HERE/$c/Dockerfile" "$d/"
  cp "$ROOT/$m/target/dependency/"*.jar "$d/lib/"
  mv "$d/lib/"fleetscope-*.jar "$d/app/" 2>/dev/null || true
  cp "$ROOT/$m"/target/fleetscope-*.jar "$d/app/"
}

context() { # component -> prepares $CTX/component
  local c=$1 d="$CTX/$1"
  case $c in
    correlator) jvm_context correlator streams ;;
    sink) jvm_context sink sink-timescale ;;
    console) jvm_context console console ;;
    registry) jvm_context registry stack/services ;;
    kafka)
      jvm_context kafka stack/services
      mv "$d/app/"*.jar "$d/lib/"; cp "$HERE/kafka/"{server.properties,kafka-entrypoint.sh} "$d/" ;;
    agent)
      rm -rf "$d"; mkdir -p "$d"; cp "$HERE/agent/Dockerfile" "$d/"
      cp "$ROOT/agents/target/fleetscope-agent.jar" "$d/" ;;
    analytics)
      rm -rf "$d" "$CTX/flink-runtime"; mkdir -p "$d" "$CTX/flink-runtime/lib"
      cp "$HERE/analytics/Dockerfile" "$d/"
      cp "$ROOT/flink-jobs/target/fleetscope-analytics.jar" "$d/"
      cp "$HERE/flink-runtime/"{Dockerfile,config.yaml,log4j-console.properties,docker-entrypoint.sh} "$CTX/flink-runtime/"
      cp "$ROOT/stack/flink-cluster/target/lib/"*.jar "$CTX/flink-runtime/lib/" ;;
    timescaledb)
      rm -rf "$d"; mkdir -p "$d/patches"; cp "$HERE/timescaledb/"{Dockerfile,Dockerfile.prebuilt,docker-entrypoint.sh} "$d/"
      if [ "$tsdb_from_host" = 1 ]; then
        local lib=/usr/lib/postgresql/15/lib ext=/usr/share/postgresql/15/extension
        ls "$lib"/timescaledb*.so >/dev/null 2>&1 || die "error=no-timescaledb-on-host lib=$lib hint=\"deploy/local/install.sh\""
        mkdir -p "$d/prebuilt$lib" "$d/prebuilt$ext"
        cp -a "$lib"/timescaledb*.so "$d/prebuilt$lib/"; cp -a "$ext"/timescaledb* "$d/prebuilt$ext/"
        # the edition of the version CREATE EXTENSION picks: community when its TSL library is there
        local v; v=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$ext/timescaledb.control")
        if [ -f "$lib/timescaledb-tsl-$v.so" ]; then TSDB_APACHE_ONLY=OFF; else TSDB_APACHE_ONLY=ON; fi
      elif [ -f "$VENDOR/timescaledb-2.28.3.tar.gz" ]; then
        cp "$VENDOR/timescaledb-2.28.3.tar.gz" "$d/timescaledb-src.tar.gz"; TSDB_APACHE_ONLY=OFF
        # the source patches install.sh applies (deploy/local/timescaledb-patches/2.28.3)
        cp "$ROOT/deploy/local/timescaledb-patches/2.28.3/"*.patch "$d/patches/" 2>/dev/null || true
      else
        src=$(ls "$CACHE"/timescaledb_*.orig.tar.* 2>/dev/null | head -1 || true)
        [ -n "$src" ] || die "error=no-timescaledb-source hint=\"put timescaledb-2.28.3.tar.gz in $VENDOR or run deploy/local/install.sh\""
        cp "$src" "$d/timescaledb-src.tar.gz"; TSDB_APACHE_ONLY=ON
      fi ;;
    alertmanager)
      rm -rf "$d"; mkdir -p "$d"; cp "$HERE/alertmanager/Dockerfile" "$d/"
      cp "$ROOT/deploy/alertmanager/alertmanager.yml" "$d/" ;;
  esac
}

# --- the images ------------------------------------------------------------------------------------
make_base
if needs_jre; then
  mkdir -p "$CTX/jre"; cp "$HERE/jre/Dockerfile" "$CTX/jre/"
  build_image "$JRE_IMAGE" "$CTX/jre" "BASE=$BASE_IMAGE"
fi
for c in $only; do
  context "$c"
  case $c in
    timescaledb)
      if [ "$tsdb_from_host" = 1 ]; then
        DOCKERFILE=Dockerfile.prebuilt build_image "fleetscope/$c:$TAG" "$CTX/$c" "BASE=$BASE_IMAGE" "APACHE_ONLY=$TSDB_APACHE_ONLY"
      else
        build_image "fleetscope/$c:$TAG" "$CTX/$c" "BASE=$BASE_IMAGE" "APACHE_ONLY=$TSDB_APACHE_ONLY"
      fi ;;
    alertmanager) build_image "fleetscope/$c:$TAG" "$CTX/$c" "BASE=$BASE_IMAGE" ;;
    analytics)
      build_image "$FLINK_IMAGE" "$CTX/flink-runtime" "BASE=$JRE_IMAGE"
      build_image "fleetscope/$c:$TAG" "$CTX/$c" "BASE=$FLINK_IMAGE" ;;
    *) build_image "fleetscope/$c:$TAG" "$CTX/$c" "BASE=$JRE_IMAGE" ;;
  esac
done

printf '%-32s %10s\n' IMAGE SIZE_MB
for c in $only; do printf '%-32s %10s\n' "fleetscope/$c:$TAG" "$(size_mb "fleetscope/$c:$TAG")"; done
log "done images=\"$only\" total_seconds=$(secs "$t_all" "$(now)")"
