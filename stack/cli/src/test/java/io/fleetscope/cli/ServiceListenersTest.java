package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.collectors.ckpt.CheckpointBuffer;
import io.fleetscope.agent.collectors.ckpt.CheckpointServer;
import io.fleetscope.agent.schedule.MetricsServer;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.console.ConsoleConfig;
import io.fleetscope.console.ConsoleServer;
import io.fleetscope.sink.SinkConfig;
import io.fleetscope.stack.services.FreePorts;
import io.fleetscope.stack.services.ListeningSockets;
import io.fleetscope.streams.IncidentHttpServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP servers of the services, started with their defaults in this JVM: the console, the
 * correlator's incidents API, the notification receiver, the agent's /metrics and checkpoint
 * endpoint, the sink's /metrics. What the kernel says they listen on (/proc/net/tcp[6]) is 127.0.0.1 and nothing else.
 */
class ServiceListenersTest {
  @Test
  void everyServerListensOnLoopbackByDefault(@TempDir Path dir) throws Exception {
    int console = FreePorts.pick();
    int incidents = FreePorts.pick();
    int receiver = FreePorts.pick();
    int metrics = FreePorts.pick();
    int ckpt = FreePorts.pick();
    int sinkMetrics = FreePorts.pick();
    try (ConsoleServer c = new ConsoleServer(ConsoleConfig.defaults().withPort(console)).start();
         NotificationReceiver r = new NotificationReceiver(receiver, dir.resolve("notifications.log"), null).start()) {
      IncidentHttpServer i = new IncidentHttpServer(incidents, () -> null).start();
      MetricsServer m = new MetricsServer(metrics, new SelfMetrics());
      CheckpointServer k = new CheckpointServer(ckpt, new CheckpointBuffer(16, 4), 1 << 16, System::currentTimeMillis);
      var sink = io.fleetscope.schemas.metrics.MetricsServer.start("sink", SinkConfig.METRICS_ADDRESS.name(),
          SinkConfig.defaults().string(SinkConfig.METRICS_ADDRESS), sinkMetrics,
          new io.prometheus.metrics.model.registry.PrometheusRegistry());
      try {
        Map<Integer, List<ListeningSockets.Listener>> byPort = ListeningSockets.of(List.of(ProcessHandle.current().pid()))
            .stream().collect(Collectors.groupingBy(ListeningSockets.Listener::port));
        for (int port : new int[] {console, incidents, receiver, metrics, ckpt, sinkMetrics}) {
          assertThat(byPort.get(port)).as("port " + port).isNotNull().hasSize(1)
              .allSatisfy(l -> assertThat(l.address()).as(l.toString()).isIn("127.0.0.1", "::ffff:127.0.0.1"));
        }
      } finally {
        sink.close();
        k.close();
        m.close();
        i.close();
      }
    }
  }
}
