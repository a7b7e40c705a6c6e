package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.loadgen.output.KafkaSink;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.SinkConfig;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The first end-to-end path of the walking skeleton: the simulated fleet (loadgen) -> the real Kafka
 * broker through the real serde and registry -> sink-timescale -> TimescaleDB. Every produced
 * fleet.gpu.v1 and fleet.ib.v1 record is in its table exactly once, also after the same records are
 * sent a second time.
 */
class FirstPathIT {

  @Test
  void everySimulatedRecordLandsExactlyOnceAlsoWhenSentTwice() throws Exception {
    LocalKafka kafka = TestServices.kafka();
    String registry = TestServices.registry().url();
    LocalPostgres pg = TestServices.postgres();
    String jdbc = pg.createDatabase("first_path");
    kafka.createTopic(Topics.GPU, 3);
    kafka.createTopic(Topics.IB, 3);
    kafka.createTopic(Topics.DLQ, 1);

    SimConfig cfg = SimConfig.of(4, ScenarioLoader.load("healthy"), 42L).withDuration(Duration.ofSeconds(20));
    List<SimRecord> produced = new FleetSimulator(cfg).stream()
        .filter(r -> r.topic().equals(Topics.GPU) || r.topic().equals(Topics.IB))
        .collect(Collectors.toList());
    Set<String> gpuKeys = new HashSet<>();
    Set<String> ibKeys = new HashSet<>();
    for (SimRecord r : produced) {
      if (r.value() instanceof GpuSample g) {
        gpuKeys.add(g.getNode() + "/" + g.getGpu() + "/" + g.getTs());
      } else {
        IbPortSample p = (IbPortSample) r.value();
        ibKeys.add(p.getNode() + "/" + p.getDevice() + "/" + p.getPort() + "/" + p.getTs());
      }
    }
    assertThat(gpuKeys).as("4 nodes x 8 GPUs x 20 s").hasSize(4 * 8 * 20);
    assertThat(ibKeys).as("4 nodes x 8 ports x 20 s").hasSize(4 * 8 * 20);

    Map<String, String> m = new LinkedHashMap<>();
    m.put(SinkConfig.KAFKA.name(), kafka.bootstrapServers());
    m.put(SinkConfig.REGISTRY.name(), registry);
    m.put(SinkConfig.JDBC_URL.name(), jdbc);
    m.put(SinkConfig.JDBC_USER.name(), LocalPostgres.SUPERUSER);
    m.put(SinkConfig.GROUP_ID.name(), "first-path-sink");
    m.put(SinkConfig.TOPICS.name(), Topics.GPU + "," + Topics.IB);
    m.put(SinkConfig.ROLLUP_INTERVAL.name(), "0");
    m.put(SinkConfig.RETENTION_INTERVAL.name(), "0");
    m.put(SinkConfig.METRICS_PORT.name(), "0"); // a free port: the local stack's sink may hold 18084
    try (SinkService sink = new SinkService(SinkConfig.of(m))) {
      sink.start();
      send(kafka, registry, produced);
      awaitRows(jdbc, gpuKeys.size(), ibKeys.size(), Duration.ofSeconds(90));
      long consumed = sink.metrics().records.get();
      send(kafka, registry, produced);
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (sink.metrics().records.get() < consumed + produced.size() && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(sink.metrics().records.get()).as("the second copy was consumed").isGreaterThanOrEqualTo(consumed + produced.size());
      assertThat(sink.metrics().rejected.get()).isZero();
    }
    // the shared broker's topics may also hold other test classes' records (another node's agent):
    // count the simulated nodes' rows only
    String ours = produced.stream().map(r -> r.value() instanceof GpuSample g ? g.getNode().toString()
            : ((IbPortSample) r.value()).getNode().toString())
        .distinct().map(n -> "'" + n.replace("'", "''") + "'").collect(Collectors.joining(", ", " WHERE node IN (", ")"));
    try (Connection c = DriverManager.getConnection(jdbc, LocalPostgres.SUPERUSER, "")) {
      assertThat(keys(c, "SELECT node || '/' || gpu || '/' || (extract(epoch from ts) * 1000)::bigint FROM gpu" + ours))
          .isEqualTo(gpuKeys);
      assertThat(keys(c, "SELECT node || '/' || device || '/' || port || '/' || (extract(epoch from ts) * 1000)::bigint FROM ib" + ours))
          .isEqualTo(ibKeys);
      assertThat(count(c, "SELECT count(*) FROM gpu" + ours)).isEqualTo(gpuKeys.size());
      assertThat(count(c, "SELECT count(*) FROM ib" + ours)).isEqualTo(ibKeys.size());
    }
  }

  private static void send(LocalKafka kafka, String registry, List<SimRecord> records) throws Exception {
    try (KafkaSink out = KafkaSink.connect(kafka.bootstrapServers(), registry)) {
      for (SimRecord r : records) {
        out.accept(r);
      }
      out.flush();
      assertThat(out.failed()).isZero();
    }
  }

  private static void awaitRows(String jdbc, long gpu, long ib, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long g = -1;
    long i = -1;
    while (System.nanoTime() < deadline) {
      try (Connection c = DriverManager.getConnection(jdbc, LocalPostgres.SUPERUSER, "")) {
        g = count(c, "SELECT count(*) FROM gpu");
        i = count(c, "SELECT count(*) FROM ib");
        if (g >= gpu && i >= ib) {
          return;
        }
      } catch (java.sql.SQLException notYet) {
        // tables are created by the sink's migrations at start
      }
      Thread.sleep(250);
    }
    throw new AssertionError("rows did not arrive in time: gpu=" + g + "/" + gpu + " ib=" + i + "/" + ib);
  }

  private static Set<String> keys(Connection c, String sql) throws Exception {
    Set<String> out = new HashSet<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  private static long count(Connection c, String sql) throws Exception {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
