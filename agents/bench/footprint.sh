#!/usr/bin/env bash
# Footprint benchmark of the node agent (not part of the test run): RSS and CPU of one agent
# sampling 8 GPUs and 8 HCAs from captures at 1 s, publishing to a real local Kafka broker, for
# each JVM flag set in FootprintBench, side by side.
#   agents/bench/footprint.sh [SECONDS_PER_RUN=120] [RUNS=3]
# FOOTPRINT_FLAGS=tuned,tuned-small runs only those flag sets; the probes floor-idle (the JVM
# alone), floor-io (the agent's I/O without agent code) and tuned-dry-run (collectors without
# Kafka) run only when named there, e.g. FOOTPRINT_FLAGS=tuned,floor-idle,floor-io,tuned-dry-run.
# The j25* sets run on a Java 25 JDK: JAVA25_HOME, else the first /usr/lib/jvm/temurin-25*.
# FOOTPRINT_NMT=1 adds native memory tracking and prints its committed MiB per category per agent.
# FOOTPRINT_CLASSLOG=1 makes each agent log the classes it loads (-Xlog:class+load) to classes.log in its run directory.
# FOOTPRINT_SCENARIO=node_1s (default: 8 GPUs + 8 HCAs at 1 s), node_10s_16hca or facility_20
# (20 Redfish PDUs and CDUs at 10 s); see FootprintBench.Scenario.
# FOOTPRINT_BEFORE_JAR=JAR: the flag set "before" runs that (earlier) agent jar with the tuned flags.
# j17-small-stream: the launcher's flags with nvidia_smi in loop mode, its nvidia-smi played by
# agents/bench/nvidia-smi-loop-standin.sh (one long-running process printing the CSV every interval);
# j17-small-stream-b16k: the same with a 16 KiB producer batch.size. "with children" counts running
# children's CPU too (from /proc/PID/stat of each descendant), not only exited ones.
# Each run also prints the CPU of the agent's threads (by thread name), to show where the time goes.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-120}
runs=${2:-3}
# one reactor build, so that the classpath names this build's schemas and stack-services jars
mvn -B -q -o -pl agents -am package dependency:build-classpath -DskipTests -Dmdep.includeScope=test \
  -Dmdep.outputFile="$PWD/agents/target/bench.classpath"
if [ -z "${JAVA25_HOME:-}" ]; then
  JAVA25_HOME=$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1 || true)
fi
export JAVA25_HOME
work=$(mktemp -d /tmp/fleetscope-footprint.XXXXXX)
java -cp "agents/target/test-classes:agents/target/classes:$(cat agents/target/bench.classpath)" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dflags="${FOOTPRINT_FLAGS:-}" -Dscenario="${FOOTPRINT_SCENARIO:-node_1s}" \
  io.fleetscope.agent.bench.FootprintBench "$work" agents/target/fleetscope-agent.jar "$secs" "$runs" agents/examples
