package io.fleetscope.agent.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SchedulerTest {
  static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1767225600000L), ZoneOffset.UTC);

  static Collector fixed(String name, int n) {
    return new Collector() {
      public String name() {
        return name;
      }

      public List<AgentRecord> collect(CollectContext ctx) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> new AgentRecord(Topics.GPU_XID, ctx.node(),
            GpuXid.newBuilder().setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setXid(79).setMessage("m" + i).build())).toList();
      }
    };
  }

  @Test
  void failingAndHangingCollectorsDoNotStopTheOthers() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    Collector hangs = new Collector() {
      public String name() {
        return "hangs";
      }

      public List<AgentRecord> collect(CollectContext ctx) throws Exception {
        try {
          never.await();
        } catch (InterruptedException e) {
          interrupted.countDown();
          throw e;
        }
        return List.of();
      }
    };
    Collector fails = new Collector() {
      public String name() {
        return "fails";
      }

      public List<AgentRecord> collect(CollectContext ctx) {
        throw new IllegalStateException("nvidia-smi not found");
      }
    };
    SelfMetrics m = new SelfMetrics();
    try (Scheduler s = new Scheduler(List.of(
        new Scheduler.Job(hangs, Duration.ofSeconds(1), Duration.ofMillis(200)),
        // generous deadlines for the others: their first round loads classes (Avro), slow on a loaded machine
        new Scheduler.Job(fails, Duration.ofSeconds(1), Duration.ofSeconds(10)),
        new Scheduler.Job(fixed("ok", 3), Duration.ofSeconds(1), Duration.ofSeconds(10))), "c", "n", CLOCK, m)) {
      List<Scheduler.Outcome> out = s.runOnce(CLOCK.millis());
      assertThat(out).extracting(Scheduler.Outcome::collector).containsExactly("hangs", "fails", "ok");
      assertThat(out).extracting(Scheduler.Outcome::result).containsExactly("timeout", "error", "ok");
      assertThat(out.get(1).error()).isEqualTo("nvidia-smi not found");
      assertThat(out.get(2).records()).hasSize(3);
      assertThat(((GpuXid) out.get(2).records().get(0).value()).getTs()).isEqualTo(CLOCK.millis());
      // The cancelled future returns at once; the interrupted thread reaches its catch a moment later.
      assertThat(interrupted.await(5, TimeUnit.SECONDS)).as("the hung round was interrupted at its deadline").isTrue();

      String text = m.render();
      assertThat(text).contains("fleetscope_agent_collector_success{collector=\"ok\"} 1")
          .contains("fleetscope_agent_collector_success{collector=\"fails\"} 0")
          .contains("fleetscope_agent_collector_success{collector=\"hangs\"} 0")
          .contains("fleetscope_agent_collector_rounds_total{collector=\"hangs\",result=\"timeout\"} 1")
          .contains("fleetscope_agent_collector_rounds_total{collector=\"fails\",result=\"error\"} 1")
          .contains("fleetscope_agent_collector_records_total{collector=\"ok\"} 3")
          .contains("# TYPE fleetscope_agent_collector_duration_seconds gauge");
    }
  }

  @Test
  void metricsServedOnLoopback() throws Exception {
    SelfMetrics m = new SelfMetrics().declare("fleetscope_agent_test", "gauge", "A test gauge.");
    m.set("fleetscope_agent_test", SelfMetrics.labels("collector", "a\"b"), 2.5);
    try (MetricsServer server = new MetricsServer(0, m)) {
      var c = (java.net.HttpURLConnection) java.net.URI.create("http://127.0.0.1:" + server.port() + "/metrics").toURL().openConnection();
      assertThat(c.getResponseCode()).isEqualTo(200);
      assertThat(c.getContentType()).startsWith("text/plain; version=0.0.4");
      String body = new String(c.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertThat(body).isEqualTo("# HELP fleetscope_agent_test A test gauge.\n# TYPE fleetscope_agent_test gauge\nfleetscope_agent_test{collector=\"a\\\"b\"} 2.5\n");
    }
  }
}
