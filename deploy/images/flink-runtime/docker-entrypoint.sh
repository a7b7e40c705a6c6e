#!/bin/sh
# jobmanager|taskmanager [-D key=value ...]: a Flink session-cluster process from /opt/flink/lib,
# with the JVM memory flags Flink computes for this configuration (BashJavaUtils, what Flink's
# bin/ scripts call). Anything else is run as a command.
set -eu
CONF=/opt/flink/conf
CP=$(ls /opt/flink/lib/*.jar | tr '\n' ':')
ADD_OPENS="--add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
 --add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
 --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
 --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
 --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
 --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
 --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED"
LOGGING="-Dlog4j2.configurationFile=/opt/flink/conf/log4j-console.properties -Dlog.file=/opt/flink/log/flink.log"

resource_params() { # GET_JM_RESOURCE_PARAMS|GET_TM_RESOURCE_PARAMS, dynamic properties...
  what=$1; shift
  java -cp "$CP" org.apache.flink.runtime.util.bash.BashJavaUtils "$what" --configDir "$CONF" "$@" \
    | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p'
}

case "${1:-}" in
  jobmanager|taskmanager)
    role=$1; shift
    if [ "$role" = jobmanager ]; then
      what=GET_JM_RESOURCE_PARAMS; main=org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint
    else
      what=GET_TM_RESOURCE_PARAMS; main=org.apache.flink.runtime.taskexecutor.TaskManagerRunner
    fi
    params=$(resource_params "$what" "$@")
    jvm=$(printf '%s\n' "$params" | sed -n 1p)
    dynamic=$(printf '%s\n' "$params" | sed -n 2p)
    # shellcheck disable=SC2086 # word splitting of the flag lists is intended
    exec java $jvm $ADD_OPENS $LOGGING -cp "$CP" "$main" --configDir "$CONF" $dynamic "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
