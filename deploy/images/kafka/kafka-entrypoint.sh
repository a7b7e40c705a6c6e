#!/bin/sh
# [server.properties]: formats log.dirs once (KRaft, a new cluster id), then runs the broker.
set -eu
PROPS=${1:-/etc/kafka/server.properties}
CP="/opt/kafka/lib/*"
DATA=$(sed -n 's/^log\.dirs=//p' "$PROPS" | cut -d, -f1)
if [ ! -f "$DATA/meta.properties" ]; then
  id=$(java -Xmx128m -cp "$CP" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)
  java -Xmx256m -cp "$CP" kafka.tools.StorageTool format -t "$id" -c "$PROPS" >/dev/null
  echo "kafka format=done cluster_id=$id log_dirs=$DATA" >&2
fi
# shellcheck disable=SC2086 # KAFKA_HEAP_OPTS holds several flags
exec java ${KAFKA_HEAP_OPTS:--Xmx512m -Xms64m} -Dorg.slf4j.simpleLogger.log.kafka.log.LogCleaner=warn \
  -Dorg.slf4j.simpleLogger.log.state.change.logger=warn -cp "$CP" kafka.Kafka "$PROPS"
