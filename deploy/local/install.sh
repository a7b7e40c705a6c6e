#!/usr/bin/env bash
# Installs the local services FleetScope's stack and tests use, idempotently:
#   PostgreSQL 15 (Debian), TimescaleDB (community edition from ../shared/vendor when its source
#   tarball is there, else the Apache-2 edition from Debian's source package),
#   Prometheus Alertmanager (Debian), net-snmp's snmpd (Debian), Node.js/npm for the registry
#   interoperability test, kubectl (Debian kubernetes-client) for the deploy/k8s tests.
# Re-running it does nothing when everything is present. The TimescaleDB build is cached under
# ${FLEETSCOPE_CACHE:-$HOME/.cache/fleetscope}.
set -euo pipefail

log() { printf 'install step=%s %s\n' "$1" "${2:-}"; }

# Debian packages, the package lists refreshed once per run however many blocks install something
APT_UPDATED=0
apt_install() {
  if [ "$APT_UPDATED" = 0 ]; then $SUDO apt-get update -qq; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

WITH_DOCKER=0
for arg in "$@"; do
  case "$arg" in
    --with-docker) WITH_DOCKER=1 ;;
    *) echo "install error=unknown-argument arg=$arg usage=\"install.sh [--with-docker]\"" >&2; exit 2 ;;
  esac
done

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
CACHE=${FLEETSCOPE_CACHE:-$HOME/.cache/fleetscope}
TSDB_VERSION_WANTED=${TSDB_VERSION:-}

need_pkgs=()
for p in postgresql-15 postgresql-server-dev-15 libkrb5-dev cmake gcc make xz-utils patch \
         prometheus-alertmanager snmpd snmp python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need_pkgs+=("$p")
done
if [ ${#need_pkgs[@]} -gt 0 ]; then
  log apt "status=installing packages=\"${need_pkgs[*]}\""
  apt_install "${need_pkgs[@]}"
  log apt status=done
else
  log apt status=present
fi
# Debian starts a system alertmanager and snmpd on install; FleetScope runs its own instances.
for svc in prometheus-alertmanager snmpd; do
  if command -v systemctl >/dev/null && systemctl is-active -q "$svc" 2>/dev/null; then
    $SUDO systemctl stop "$svc" || true
  fi
done
# without systemd (containers, CI), Debian's postinst starts it through its init script
if [ -x /etc/init.d/prometheus-alertmanager ] && ! command -v systemctl >/dev/null; then
  $SUDO /etc/init.d/prometheus-alertmanager stop >/dev/null 2>&1 || true
fi
pkill -f '^/usr/bin/prometheus-alertmanager$' 2>/dev/null || true

pkglib=$($PG_CONFIG --pkglibdir)
# TimescaleDB. With the community source (Apache core + TSL: compression, continuous aggregates,
# policies) at ../shared/vendor/timescaledb-<version>.tar.gz next to the repository (or
# $FLEETSCOPE_TSDB_TARBALL), that edition is built and installed; otherwise the Apache-2 edition
# from Debian's source package. Both can be installed side by side: the community build installs
# timescaledb-<version>.so and timescaledb-tsl-<version>.so, and each cluster's
# timescaledb.license setting (apache | timescale) decides whether the TSL part loads.
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tsdb_tarball=${FLEETSCOPE_TSDB_TARBALL:-$(ls "$repo_root"/../shared/vendor/timescaledb-[0-9]*.tar.gz 2>/dev/null | sort -V | tail -1 || true)}

# Patches to TimescaleDB's source, per release: deploy/local/timescaledb-patches/<version>/*.patch
# (each says why in its header). The set applied to the installed community build is stamped in
# $CACHE, so a build without the current set is rebuilt.
tsdb_patch_dir() { echo "$repo_root/deploy/local/timescaledb-patches/$1"; }
tsdb_patch_stamp() { # the current patch set of version $1: "name sha256" lines, empty for none
  local p
  for p in "$(tsdb_patch_dir "$1")"/*.patch; do
    [ -f "$p" ] && printf '%s %s\n' "$(basename "$p")" "$(sha256sum "$p" | cut -d' ' -f1)"
  done
  return 0
}

build_timescaledb() { # $1 source tarball, $2 extra cmake flags, $3 version whose patches apply (optional)
  local tarball=$1 flags=$2 version=${3:-} build dir p
  build=$(mktemp -d)
  log timescaledb "status=building source=$(basename "$tarball") flags=\"$flags\""
  tar xf "$tarball" -C "$build"
  dir=$(ls -d "$build"/timescaledb-*/ | head -1)
  if [ -n "$version" ]; then
    for p in "$(tsdb_patch_dir "$version")"/*.patch; do
      [ -f "$p" ] || continue
      patch -d "$dir" -p1 --forward --batch --quiet <"$p" \
        || { echo "install error=timescaledb-patch-failed patch=$p" >&2; exit 1; }
      log timescaledb "status=patched patch=$(basename "$p")"
    done
  fi
  # shellcheck disable=SC2086
  (cd "$dir" && ./bootstrap -DREGRESS_CHECKS=OFF -DTAP_CHECKS=OFF -DWARNINGS_AS_ERRORS=OFF -DLINTER=OFF \
      -DSEND_TELEMETRY_DEFAULT=NO -DPG_CONFIG=$PG_CONFIG $flags >"$build/bootstrap.log" 2>&1 \
   && cd build && make -j"$(nproc)" >"$build/make.log" 2>&1 && $SUDO make install >"$build/install.log" 2>&1) \
   || { echo "install error=timescaledb-build-failed logs=$build" >&2; exit 1; }
  rm -rf "$build"
}

if [ -n "$tsdb_tarball" ] && [ -f "$tsdb_tarball" ]; then
  tsl_version=$(basename "$tsdb_tarball" | sed -n 's/^timescaledb-\([0-9.]*\)\.tar\.gz$/\1/p')
  [ -n "$tsl_version" ] || { echo "install error=timescaledb-tarball-name tarball=$tsdb_tarball hint=\"expected timescaledb-X.Y.Z.tar.gz\"" >&2; exit 1; }
  stamp="$CACHE/timescaledb-$tsl_version.patches"
  want_patches=$(tsdb_patch_stamp "$tsl_version")
  have_patches=$(cat "$stamp" 2>/dev/null || true)
  if [ -f "$pkglib/timescaledb-tsl-$tsl_version.so" ] && [ -f "$pkglib/timescaledb-$tsl_version.so" ] \
     && [ "$want_patches" = "$have_patches" ]; then
    log timescaledb "status=present edition=community version=$tsl_version lib=$pkglib/timescaledb-tsl-$tsl_version.so"
  else
    if [ -f "$pkglib/timescaledb-tsl-$tsl_version.so" ]; then
      log timescaledb "status=rebuilding reason=patches-changed version=$tsl_version hint=\"restart running clusters after the install\""
    fi
    build_timescaledb "$tsdb_tarball" "" "$tsl_version"
    [ -f "$pkglib/timescaledb-tsl-$tsl_version.so" ] || { echo "install error=timescaledb-tsl-missing-after-build version=$tsl_version" >&2; exit 1; }
    mkdir -p "$CACHE" && printf '%s' "$want_patches" >"$stamp"
    log timescaledb "status=built edition=community version=$tsl_version lib=$pkglib/timescaledb-tsl-$tsl_version.so"
  fi
  tsdb_edition=community
elif [ -f "$pkglib/timescaledb.so" ]; then
  log timescaledb "status=present edition=apache lib=$pkglib/timescaledb.so"
  tsdb_edition=apache
else
  mkdir -p "$CACHE"
  src_tar=$(ls "$CACHE"/timescaledb_*.orig.tar.* 2>/dev/null | head -1 || true)
  if [ -z "$src_tar" ]; then
    log timescaledb status=downloading-source
    w=$(mktemp -d); mkdir -p "$w/lists/partial"
    uri=""
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)
    fi
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
      uri=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list)
    fi
    [ -n "$uri" ] || { echo "install error=no-debian-mirror-found" >&2; exit 1; }
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie main" > "$w/src.list"
    apt_opts=(-o Dir::Etc::SourceList="$w/src.list" -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$w/lists")
    $SUDO apt-get "${apt_opts[@]}" update -qq
    (cd "$CACHE" && $SUDO apt-get "${apt_opts[@]}" source --download-only timescaledb${TSDB_VERSION_WANTED:+=$TSDB_VERSION_WANTED} >/dev/null)
    src_tar=$(ls "$CACHE"/timescaledb_*.orig.tar.* | head -1)
  fi
  build_timescaledb "$src_tar" "-DAPACHE_ONLY=1"
  log timescaledb "status=built edition=apache lib=$pkglib/timescaledb.so"
  tsdb_edition=apache
fi

if ! command -v npm >/dev/null; then
  log node status=installing
  apt_install nodejs npm
  log node "status=installed version=$(node --version)"
else
  log node "status=present version=$(node --version) npm=$(npm --version)"
fi

# kubectl, for the deploy/k8s tests (kubectl kustomize, offline): Debian's kubernetes-client only when
# no kubectl is installed, so a newer one already on the machine is kept
if ! command -v kubectl >/dev/null; then
  log kubectl status=installing
  apt_install kubernetes-client
  log kubectl "status=installed version=$(kubectl version --client 2>/dev/null | head -1)"
else
  log kubectl "status=present version=$(kubectl version --client 2>/dev/null | head -1)"
fi

# Debian's Chromium for the console's end-to-end tests (ConsoleBrowserIT drives it headless
# over the DevTools protocol)
if ! command -v chromium >/dev/null; then
  log chromium status=installing
  apt_install chromium
  log chromium "status=installed version=\"$(chromium --version 2>/dev/null)\""
else
  log chromium "status=present version=\"$(chromium --version 2>/dev/null)\""
fi

# --with-docker: Docker (Debian's docker.io) and debootstrap, a daemon with no bridge and no iptables
# rules (data under $CACHE/docker, deploy/images/dockerd.sh), and the images the containers backend
# of the tests runs (deploy/images/build.sh --only kafka,registry,timescaledb,alertmanager, its
# TimescaleDB the one built above rather than a second compile).
install_docker() {
  local need=()
  for p in docker.io debootstrap; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    log docker "status=installing packages=\"${need[*]}\""
    apt_install "${need[@]}"
  fi
  local here; here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../images" && pwd)"
  FLEETSCOPE_CACHE="$CACHE" $SUDO "$here/dockerd.sh" start
  local missing=()
  for c in kafka registry timescaledb alertmanager; do
    docker image inspect "fleetscope/$c:0.1.0" >/dev/null 2>&1 || missing+=("$c")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log docker "status=building-images images=\"${missing[*]}\""
    local list; list=$(IFS=,; echo "${missing[*]}")
    FLEETSCOPE_CACHE="$CACHE" FLEETSCOPE_MVN_OPTS="${FLEETSCOPE_MVN_OPTS-}" "$here/build.sh" --timescaledb-from-host --only "$list"
  fi
  log docker "status=ok daemon=$(docker version --format '{{.Server.Version}}') images=present"
}
if [ "$WITH_DOCKER" = 1 ]; then install_docker; fi

# what the stack and tests will find
[ -x /usr/sbin/runuser ] || { echo "install error=no-runuser hint=\"apt-get install util-linux\"" >&2; exit 1; }
pg_version=$(/usr/lib/postgresql/15/bin/postgres --version | awk '{print $3}')
tsdb_version=$(ls "$pkglib"/timescaledb-[0-9]*.so 2>/dev/null | sed -n 's/.*timescaledb-\([0-9.]*\)\.so/\1/p' | sort -V | tail -1)
am_version=$(/usr/bin/prometheus-alertmanager --version 2>&1 | awk '/version/{print $3; exit}')
log done "status=ok postgres=$pg_version timescaledb=${tsdb_version:-?} timescaledb_edition=$tsdb_edition alertmanager=${am_version:-?}"
