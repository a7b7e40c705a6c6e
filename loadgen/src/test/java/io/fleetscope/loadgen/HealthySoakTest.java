package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.loadgen.scenario.FaultSpec;
import io.fleetscope.loadgen.scenario.FaultType;
import io.fleetscope.loadgen.scenario.HealthySoak;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A short soak (3 h, 8 nodes, 10 s samples) has every healthy-fleet feature, each visible in the
 * records exactly as often as the scenario says: late records, temperature spikes, zero readings,
 * counter resets, agent restarts (a gap, agent_seq continuing, the inventory again), jobs stopping
 * and starting.
 */
class HealthySoakTest {
  private static final long INTERVAL = 10_000;
  private static Scenario soak;
  private static SimConfig cfg;
  private static List<SimRecord> records;

  @BeforeAll
  static void simulate() {
    soak = HealthySoak.of(8, Duration.ofHours(3), 5);
    cfg = SimConfig.of(8, soak, 5).withInterval(INTERVAL);
    FleetSimulator sim = new FleetSimulator(cfg);
    assertThat(sim.labels()).isEmpty();
    records = sim.stream().collect(Collectors.toList());
  }

  private static List<FaultSpec> faults(FaultType type) {
    return soak.faults().stream().filter(f -> f.type() == type).toList();
  }

  private static Map<String, List<GpuSample>> gpuSeries() {
    return records.stream().map(SimRecord::value).filter(GpuSample.class::isInstance).map(GpuSample.class::cast)
        .sorted(Comparator.comparingLong(GpuSample::getTs))
        .collect(Collectors.groupingBy(s -> s.getNode() + "/" + s.getGpu()));
  }

  @Test
  void everyKindOfHealthyEventIsScheduledAndScalesWithTheFleet() {
    assertThat(soak.faults()).allSatisfy(f -> assertThat(f.type().benign()).isTrue());
    assertThat(faults(FaultType.DIURNAL_LOAD)).hasSize(1);
    assertThat(faults(FaultType.JOB_STOP)).hasSize(1);
    for (FaultType t : List.of(FaultType.COUNTER_RESET, FaultType.AGENT_RESTART, FaultType.SENSOR_GLITCH)) {
      assertThat(faults(t)).as(t.yamlName()).isNotEmpty();
    }
    Scenario big = HealthySoak.of(125, Duration.ofHours(24), 1);
    assertThat(big.faults().stream().filter(f -> f.type() == FaultType.DIURNAL_LOAD)).hasSize(8);
    // 16 jobs, each stopping about every 150 min: 9-10 stops each over a day
    assertThat(big.faults().stream().filter(f -> f.type() == FaultType.JOB_STOP).count()).isBetween(140L, 160L);
    assertThat(big.faults().stream().filter(f -> f.type() == FaultType.AGENT_RESTART)).hasSize(12);
    assertThat(big.faults().stream().filter(f -> f.type() == FaultType.SENSOR_GLITCH)).hasSize(48);
  }

  @Test
  void lateRecordsAreAboutOneInTwoThousand() {
    long maxSeen = 0;
    int late = 0;
    int raw = 0;
    for (SimRecord r : records) {
      if (r.topic().equals("fleet.inventory.v1") || r.topic().equals("fleet.jobs.v1")) {
        continue;
      }
      raw++;
      long ts = (Long) r.value().get(0);
      if (maxSeen - ts >= 60_000) {
        late++;
      }
      maxSeen = Math.max(maxSeen, ts);
    }
    assertThat(late).isBetween((int) (raw * 0.0002), (int) (raw * 0.001));
  }

  @Test
  void eachGlitchIsOneWrongSample() {
    int spikes = 0;
    int zeros = 0;
    for (List<GpuSample> s : gpuSeries().values()) {
      for (int i = 1; i + 1 < s.size(); i++) {
        double t = s.get(i).getTempC();
        if (t == 0 && s.get(i).getPowerW() == 0) {
          zeros++;
          assertThat(s.get(i + 1).getTempC()).isGreaterThan(25);
        } else if (t - s.get(i - 1).getTempC() >= 9 && t - s.get(i + 1).getTempC() >= 9) {
          spikes++;
        }
      }
    }
    long wantSpikes = faults(FaultType.SENSOR_GLITCH).stream().filter(f -> f.param("kind", "").equals("temp_spike"))
        .count();
    assertThat(spikes).isEqualTo(wantSpikes);
    assertThat(zeros).isEqualTo(faults(FaultType.SENSOR_GLITCH).size() - wantSpikes);
  }

  @Test
  void driverReloadsResetCountersAndAgentRestartsLeaveAGapWithAgentSeqContinuing() {
    int resets = 0;
    int gaps = 0;
    // a driver reload zeroes every port counter of the node (the soak simulates no NVLink links, and the GPU
    // samples carry no NVLink totals, as from the real collectors)
    Map<String, List<IbPortSample>> ports = records.stream().map(SimRecord::value).filter(IbPortSample.class::isInstance)
        .map(IbPortSample.class::cast).sorted(Comparator.comparingLong(IbPortSample::getTs))
        .collect(Collectors.groupingBy(p -> p.getNode() + "/" + p.getDevice()));
    for (List<IbPortSample> p : ports.values()) {
      for (int i = 1; i < p.size(); i++) {
        if (p.get(i).getXmitBytes() < p.get(i - 1).getXmitBytes()) {
          resets++;
        }
      }
    }
    for (List<GpuSample> s : gpuSeries().values()) {
      for (int i = 1; i < s.size(); i++) {
        GpuSample prev = s.get(i - 1);
        GpuSample cur = s.get(i);
        assertThat(cur.getNvlinkTxBytes()).isNull();
        if (cur.getTs() - prev.getTs() > INTERVAL) {
          gaps++;
          assertThat(cur.getTs() - prev.getTs()).isLessThanOrEqualTo(70_000 + INTERVAL);
          assertThat(cur.getAgentSeq()).isGreaterThan(prev.getAgentSeq());
        }
      }
    }
    List<Integer> resetNodes = faults(FaultType.COUNTER_RESET).stream().map(f -> (Integer) f.target().get("node"))
        .distinct().toList();
    assertThat(resets).isEqualTo(8 * faults(FaultType.COUNTER_RESET).size());
    assertThat(resetNodes).isNotEmpty();
    assertThat(gaps).isEqualTo(8 * faults(FaultType.AGENT_RESTART).size());
    // back from a restart, the agent publishes its inventory again
    long republished = records.stream().map(SimRecord::value).filter(InventoryRecord.class::isInstance)
        .map(InventoryRecord.class::cast).filter(r -> r.getTs() > cfg.startMs()).count();
    assertThat(republished).isEqualTo(faults(FaultType.AGENT_RESTART).size());
  }

  @Test
  void aStoppedJobLeavesItsNodesAndComesBack() {
    FaultSpec stop = faults(FaultType.JOB_STOP).get(0);
    long stopTs = cfg.startMs() + stop.start().toMillis();
    long backTs = cfg.startMs() + stop.end().toMillis();
    Map<Long, List<JobAllocations>> byTs = new HashMap<>();
    records.stream().map(SimRecord::value).filter(JobAllocations.class::isInstance).map(JobAllocations.class::cast)
        .filter(j -> j.getTs() > cfg.startMs()).forEach(j -> byTs.computeIfAbsent(j.getTs(), k -> new ArrayList<>()).add(j));
    assertThat(byTs.keySet()).containsExactlyInAnyOrder(stopTs, backTs);
    assertThat(byTs.get(stopTs)).hasSize(8).allSatisfy(j -> assertThat(j.getAllocations()).isEmpty());
    assertThat(byTs.get(backTs)).hasSize(8).allSatisfy(j -> assertThat(j.getAllocations()).hasSize(1));
  }
}
