#!/usr/bin/env bash
# Footprint benchmark of the node agent (not part of the test run): RSS and CPU of one agent
# sampling 8 GPUs and 8 HCAs from captures at 1 s, publishing to a real local Kafka broker, for
# each JVM flag set in FootprintBench, side by side.
#   agents/bench/footprint.sh [SECONDS_PER_RUN=120] [RUNS=3]
# FOOTPRINT_FLAGS=tuned,tuned-small runs only those flag sets; the probes floor-idle (the JVM
# alone), floor-io (the agent's I/O without agent code) and tuned-dry-run (collectors without
# Kafka) run only when named there, e.g. FOOTPRINT_FLAGS=tuned,floor-idle,floor-io,tuned-dry-run.
# Each run also prints the CPU of the agent's threads (by thread name), to show where the time goes.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-120}
runs=${2:-3}
mvn -B -q -o -pl agents package -DskipTests
mvn -B -q -o -pl agents dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/agents/target/bench.classpath"
work=$(mktemp -d /tmp/fleetscope-footprint.XXXXXX)
java -cp "agents/target/test-classes:agents/target/classes:$(cat agents/target/bench.classpath)" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dflags="${FOOTPRINT_FLAGS:-}" \
  io.fleetscope.agent.bench.FootprintBench "$work" agents/target/fleetscope-agent.jar "$secs" "$runs" agents/examples
