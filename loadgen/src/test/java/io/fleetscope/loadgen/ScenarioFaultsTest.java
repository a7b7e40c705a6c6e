package io.fleetscope.loadgen;

import static io.fleetscope.loadgen.ScenarioRun.in;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.avro.PduReading;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.loadgen.catalog.GpuCatalog;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.SimRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each scenario's fault is visible in the raw data exactly where its labels say, and nowhere else. */
class ScenarioFaultsTest {
  private static final double SLOWDOWN = GpuCatalog.H200_SXM.slowdownTempC();
  private static final double MAX_OP = GpuCatalog.H200_SXM.maxOperatingTempC();

  @Test
  void healthyFleetStaysCoolUnthrottledAndLinksUp() {
    ScenarioRun run = new ScenarioRun("healthy", 8, 11);
    assertThat(run.sim.labels()).isEmpty();
    List<GpuSample> g = run.of(GpuSample.class);
    assertThat(g).hasSize(8 * 8 * 600);
    assertThat(g).allSatisfy(s -> {
      assertThat(s.getTempC()).isLessThan(MAX_OP - 10);
      assertThat(s.getThrottleReasons()).isZero();
      assertThat(s.getEccDbeTotal()).isZero();
      assertThat(s.getRowRemapFailure()).isFalse();
    });
    assertThat(g.stream().mapToDouble(GpuSample::getTempC).max().orElseThrow()).isGreaterThan(55);
    assertThat(run.of(GpuXid.class)).isEmpty();
    assertThat(run.of(IbPortSample.class)).allSatisfy(p -> {
      assertThat(p.getState()).isEqualTo("ACTIVE");
      assertThat(p.getRateGbps()).isEqualTo(400.0);
    });
    // power and utilisation follow the training phases: both compute-level and all-reduce-level samples occur
    assertThat(g.stream().filter(s -> s.getUtilPct() >= 95).count()).isGreaterThan(g.size() / 3);
    assertThat(g.stream().filter(s -> s.getUtilPct() < 80 && s.getUtilPct() > 60).count()).isGreaterThan(g.size() / 10);
    // checkpoints happen and meet the 60 s SLO
    List<CheckpointEvent> done = run.of(CheckpointEvent.class).stream().filter(c -> c.getStatus().equals("completed")).toList();
    assertThat(done).isNotEmpty().allSatisfy(c -> assertThat(c.getFinishedTs() - c.getStartedTs()).isLessThan(60_000));
    // racks stay within their 40 kW cooling capacity
    assertThat(rackKw(run).values()).allSatisfy(kw -> assertThat(kw).isBetween(10.0, 40.0));
  }

  @Test
  void countersAreMonotonicExceptTheInjectedReset() {
    // the healthy scenario with two NVLink links per GPU: the driver reload zeroes the links' counters too
    Scenario healthy = ScenarioLoader.load("healthy");
    ScenarioRun run = new ScenarioRun(new Scenario(healthy.name(), healthy.description(), healthy.duration(),
        healthy.minNodes(), healthy.site(), Map.of("nvlink_links", 2), healthy.faults(), healthy.analytics()), 8, 3);
    long resetTs = run.start() + 4 * 60_000;
    Map<String, GpuSample> lastGpu = new HashMap<>();
    int energyResets = 0;
    for (GpuSample s : sortedByTs(run.of(GpuSample.class))) {
      // as from the real GPU collectors: NVLink only per link, on fleet.nvlink.v1
      assertThat(s.getNvlinkTxBytes()).isNull();
      assertThat(s.getNvlinkRxBytes()).isNull();
      GpuSample prev = lastGpu.put(s.getNode() + "/" + s.getGpu(), s);
      if (prev == null) {
        continue;
      }
      if (s.getNode().equals("gpu-0001") && s.getTs() == resetTs) {
        energyResets += s.getEnergyMj() < prev.getEnergyMj() ? 1 : 0;
        continue;
      }
      assertThat(s.getEccSbeTotal()).isGreaterThanOrEqualTo(prev.getEccSbeTotal());
      assertThat(s.getPcieReplayTotal()).isGreaterThanOrEqualTo(prev.getPcieReplayTotal());
      assertThat(s.getEnergyMj()).isGreaterThan(prev.getEnergyMj());
    }
    assertThat(energyResets).as("the reload zeroes every GPU's energy counter").isEqualTo(8);
    Map<String, NvlinkSample> lastLink = new HashMap<>();
    int resets = 0;
    for (NvlinkSample s : sortedByTs(run.of(NvlinkSample.class))) {
      NvlinkSample prev = lastLink.put(s.getNode() + "/" + s.getGpu() + "/" + s.getLink(), s);
      if (prev == null) {
        continue;
      }
      if (s.getTxBytes() < prev.getTxBytes()) {
        resets++;
        assertThat(s.getNode()).isEqualTo("gpu-0001");
        assertThat(s.getTs()).isEqualTo(resetTs);
        assertThat(s.getRxBytes()).isLessThan(prev.getRxBytes());
      } else {
        assertThat(s.getRxBytes()).isGreaterThanOrEqualTo(prev.getRxBytes());
        assertThat(s.getReplayErrors()).isGreaterThanOrEqualTo(prev.getReplayErrors());
      }
    }
    assertThat(resets).isEqualTo(8 * 2);
    Map<String, IbPortSample> lastPort = new HashMap<>();
    int portResets = 0;
    for (IbPortSample p : sortedByTs(run.of(IbPortSample.class))) {
      IbPortSample prev = lastPort.put(p.getNode() + "/" + p.getDevice(), p);
      if (prev == null) {
        continue;
      }
      if (p.getXmitBytes() < prev.getXmitBytes()) {
        portResets++;
        assertThat(p.getNode()).isEqualTo("gpu-0001");
        assertThat(p.getTs()).isEqualTo(resetTs);
      } else {
        assertThat(p.getRcvBytes()).isGreaterThanOrEqualTo(prev.getRcvBytes());
        assertThat(p.getXmitPkts()).isGreaterThanOrEqualTo(prev.getXmitPkts());
        assertThat(p.getSymbolErrors()).isGreaterThanOrEqualTo(prev.getSymbolErrors());
        assertThat(p.getXmitBytes() - prev.getXmitBytes()).isLessThanOrEqualTo(50_000_000_000L * (p.getTs() - prev.getTs()) / 1000);
      }
    }
    assertThat(portResets).isEqualTo(8);
    Map<String, PduReading> lastOutlet = new HashMap<>();
    for (PduReading r : sortedByTs(run.of(PduReading.class))) {
      PduReading prev = lastOutlet.put(r.getDevice() + "/" + r.getOutlet(), r);
      if (prev != null) {
        assertThat(r.getEnergyWh()).isGreaterThan(prev.getEnergyWh());
      }
    }
  }

  @Test
  void someRecordsArriveOutOfOrderAndSomeLate() {
    ScenarioRun run = new ScenarioRun("healthy", 8, 9);
    long maxSeen = 0;
    int outOfOrder = 0;
    int late = 0;
    for (SimRecord r : run.records) {
      if (r.value() instanceof GpuSample || r.value() instanceof IbPortSample || r.value() instanceof PduReading) {
        long ts = (Long) r.value().get(0);
        if (ts < maxSeen) {
          outOfOrder++;
          if (maxSeen - ts >= 60_000) {
            late++;
          }
        }
        maxSeen = Math.max(maxSeen, ts);
      }
    }
    int total = run.records.size();
    assertThat(outOfOrder).isBetween(total / 2000, total / 100);
    assertThat(late).isGreaterThan(0).isLessThan(outOfOrder);
    // agent_seq stays per-node increasing in generation order: a delayed record carries its original number
    Map<String, Long> seq = new HashMap<>();
    run.of(GpuSample.class).stream().sorted((a, b) -> Long.compare(a.getAgentSeq(), b.getAgentSeq()))
        .forEach(s -> seq.merge(s.getNode(), 1L, Long::sum));
    assertThat(seq).hasSize(8);
  }

  @Test
  void thermalRunawayGpuPassesSlowdownInsideItsWindowOthersStayCool() {
    ScenarioRun run = new ScenarioRun("thermal-runaway", 8, 1);
    GroundTruthLabel l = run.label("GpuThermalThrottleRisk");
    assertThat(l.target()).containsEntry("node", "gpu-0003").containsEntry("gpu", "5");
    List<GpuSample> target = run.gpu(s -> s.getNode().equals("gpu-0003") && s.getGpu() == 5);
    assertThat(target.stream().filter(s -> in(s.getTs(), l)).mapToDouble(GpuSample::getTempC).max().orElseThrow())
        .isGreaterThanOrEqualTo(SLOWDOWN);
    assertThat(target.stream().filter(s -> in(s.getTs(), l)).anyMatch(s -> (s.getThrottleReasons() & 0x40) != 0)).isTrue();
    assertThat(target.stream().filter(s -> s.getTs() < l.startTs()).mapToDouble(GpuSample::getTempC).max().orElseThrow())
        .isLessThan(75);
    assertThat(run.gpu(s -> !(s.getNode().equals("gpu-0003") && s.getGpu() == 5))).allSatisfy(s -> {
      assertThat(s.getTempC()).isLessThan(75);
      assertThat(s.getThrottleReasons()).isZero();
    });
  }

  @Test
  void cduFlowLossHeatsEveryRackOnTheLoopAndRecovers() {
    ScenarioRun run = new ScenarioRun("cdu-flow-loss", 8, 1);
    GroundTruthLabel flow = run.label("CoolantFlowLow");
    assertThat(flow.target()).containsEntry("device", "cdu-01");
    List<CoolantReading> cdu = run.of(CoolantReading.class);
    double nominal = 45.0 * 2;
    assertThat(cdu.stream().filter(c -> c.getTs() < flow.startTs())).allSatisfy(c -> assertThat(c.getFlowLpm()).isGreaterThan(0.9 * nominal));
    assertThat(cdu.stream().filter(c -> c.getTs() > flow.startTs() + 60_000 && c.getTs() < run.start() + 8 * 60_000))
        .isNotEmpty().allSatisfy(c -> assertThat(c.getFlowLpm()).isLessThan(0.2 * nominal));
    List<GroundTruthLabel> racks = run.sim.labels().stream().filter(x -> x.alertname().equals("GpuThermalThrottleRisk")).toList();
    assertThat(racks).extracting(x -> x.target().get("rack")).containsExactly("rack-001", "rack-002");
    for (String rack : List.of("rack-001", "rack-002")) {
      List<GpuSample> g = run.gpu(s -> run.sim.topology().node(s.getNode()).rack().equals(rack));
      assertThat(g.stream().filter(s -> in(s.getTs(), flow)).mapToDouble(GpuSample::getTempC).max().orElseThrow())
          .isGreaterThan(MAX_OP);
      assertThat(g.stream().filter(s -> s.getTs() < flow.startTs()).mapToDouble(GpuSample::getTempC).max().orElseThrow())
          .isLessThan(75);
      assertThat(g.stream().filter(s -> s.getTs() > run.start() + 9 * 60_000 + 30_000).mapToDouble(GpuSample::getTempC).max()
          .orElseThrow()).isLessThan(80);
    }
  }

  @Test
  void rackPowerExceedsCoolingCapacityOnlyOnTheTargetRackInItsWindow() {
    ScenarioRun run = new ScenarioRun("rack-power-over-cooling", 8, 1);
    GroundTruthLabel l = run.label("RackPowerOverCooling");
    assertThat(l.target()).containsEntry("rack", "rack-002");
    Map<String, Double> kw = rackKw(run);
    List<Double> inWindow = new java.util.ArrayList<>();
    kw.forEach((k, v) -> {
      String rack = k.substring(k.indexOf(' ') + 1);
      long ts = Long.parseLong(k.substring(0, k.indexOf(' ')));
      if (rack.equals("rack-002") && in(ts, l)) {
        if (ts < run.start() + 8 * 60_000) {
          inWindow.add(v);
        }
      } else {
        assertThat(v).as(k).isLessThan(40);
      }
    });
    // over capacity except while a checkpoint idles the GPUs
    assertThat(inWindow).hasSize(60);
    assertThat(inWindow.stream().filter(v -> v > 40).count()).isGreaterThan(inWindow.size() * 7 / 10);
    assertThat(inWindow.stream().mapToDouble(Double::doubleValue).average().orElseThrow()).isGreaterThan(40);
  }

  @Test
  void eccCorrectedErrorsRiseThenOneUncorrectable() {
    ScenarioRun run = new ScenarioRun("ecc-degradation", 8, 1);
    GroundTruthLabel rising = run.label("GpuEccCorrectableRising");
    GroundTruthLabel dbe = run.label("GpuEccUncorrectable");
    assertThat(rising.endTs()).isEqualTo(dbe.startTs()).isEqualTo(run.start() + 7 * 60_000);
    List<GpuSample> g = sortedByTs(run.gpu(s -> s.getNode().equals("gpu-0006") && s.getGpu() == 3));
    long sbeAtStart = at(g, rising.startTs()).getEccSbeTotal();
    long sbeMid = at(g, rising.startTs() + 150_000).getEccSbeTotal();
    long sbeEnd = at(g, rising.endTs()).getEccSbeTotal();
    assertThat(sbeMid - sbeAtStart).isGreaterThan(10);
    assertThat(sbeEnd - sbeMid).as("rate rises").isGreaterThan(2 * (sbeMid - sbeAtStart));
    assertThat(g.stream().filter(s -> s.getTs() < dbe.startTs())).allSatisfy(s -> assertThat(s.getEccDbeTotal()).isZero());
    assertThat(g.stream().filter(s -> s.getTs() >= dbe.startTs())).allSatisfy(s -> assertThat(s.getEccDbeTotal()).isEqualTo(1));
    assertThat(run.of(GpuXid.class)).extracting(GpuXid::getXid).contains(48);
    assertThat(run.of(GpuXid.class)).allSatisfy(x -> assertThat(x.getTs()).isEqualTo(dbe.startTs()));
    assertThat(run.gpu(s -> !(s.getNode().equals("gpu-0006") && s.getGpu() == 3)))
        .allSatisfy(s -> assertThat(s.getEccSbeTotal()).isLessThan(3));
  }

  @Test
  void rowRemapFailureFromItsStartOnly() {
    ScenarioRun run = new ScenarioRun("row-remap-failure", 8, 1);
    GroundTruthLabel l = run.label("GpuRowRemapFailure");
    assertThat(run.gpu(GpuSample::getRowRemapFailure)).isNotEmpty().allSatisfy(s -> {
      assertThat(s.getNode()).isEqualTo("gpu-0005");
      assertThat(s.getGpu()).isEqualTo(6);
      assertThat(s.getTs()).isGreaterThanOrEqualTo(l.startTs());
    });
    assertThat(run.of(GpuXid.class)).singleElement().satisfies(x -> {
      assertThat(x.getXid()).isEqualTo(64);
      assertThat(x.getTs()).isEqualTo(l.startTs());
    });
  }

  @Test
  void xidStormOnlyInsideItsWindow() {
    ScenarioRun run = new ScenarioRun("xid-storm", 8, 1);
    GroundTruthLabel l = run.label("GpuXid");
    List<GpuXid> x = run.of(GpuXid.class);
    assertThat(x.size()).isBetween(35, 90);
    assertThat(x).allSatisfy(e -> {
      assertThat(in(e.getTs(), l)).isTrue();
      assertThat(e.getXid()).isEqualTo(74);
      assertThat(e.getNode()).isEqualTo("gpu-0002");
      assertThat(e.getGpu()).isEqualTo(2);
    });
  }

  @Test
  void ibLinkDownStopsTrafficAndCountsOneDowned() {
    ScenarioRun run = new ScenarioRun("ib-link-down", 8, 1);
    GroundTruthLabel l = run.label("IbLinkDown");
    List<IbPortSample> p = sortedByTs(run.ib(s -> s.getNode().equals("gpu-0007") && s.getRail() == 3));
    assertThat(p).allSatisfy(s -> assertThat(s.getState()).isEqualTo(in(s.getTs(), l) ? "DOWN" : "ACTIVE"));
    IbPortSample first = p.stream().filter(s -> in(s.getTs(), l)).findFirst().orElseThrow();
    IbPortSample last = p.stream().filter(s -> in(s.getTs(), l)).reduce((a, b) -> b).orElseThrow();
    assertThat(last.getXmitBytes()).isEqualTo(first.getXmitBytes());
    assertThat(last.getLinkDowned()).isEqualTo(1);
    assertThat(run.ib(s -> !(s.getNode().equals("gpu-0007") && s.getRail() == 3)))
        .allSatisfy(s -> assertThat(s.getState()).isEqualTo("ACTIVE"));
  }

  @Test
  void degradedLinkRunsAtHalfRateWithSymbolErrors() {
    ScenarioRun run = new ScenarioRun("ib-link-degraded", 8, 1);
    GroundTruthLabel l = run.label("IbLinkDegraded");
    List<IbPortSample> p = sortedByTs(run.ib(s -> s.getNode().equals("gpu-0004") && s.getRail() == 5));
    assertThat(p).allSatisfy(s -> assertThat(s.getRateGbps()).isEqualTo(in(s.getTs(), l) ? 200.0 : 400.0));
    long errs = at(p, l.endTs() - 1000).getSymbolErrors() - at(p, l.startTs()).getSymbolErrors();
    assertThat(errs).isBetween(100L, 200L);
  }

  @Test
  void sharedHcaLeavesOneRailIdleAndDoublesAnother() {
    ScenarioRun run = new ScenarioRun("rail-imbalance-shared-hca", 8, 1);
    GroundTruthLabel l = run.label("RailImbalance");
    long from = l.startTs() + 10_000;
    long to = l.endTs() - 10_000;
    double r0 = bytesPerS(run, "gpu-0003", 0, from, to);
    double r1 = bytesPerS(run, "gpu-0003", 1, from, to);
    double peer0 = bytesPerS(run, "gpu-0004", 0, from, to);
    assertThat(r1).isLessThan(peer0 / 100);
    // rail 0 carries both rails' traffic, capped by its line rate during all-reduce
    assertThat(r0 / peer0).isBetween(1.1, 2.1);
    // the node republishes its inventory without rail 1's HCA (8 GPUs on 7 rails), and with it after the fault
    List<InventoryRecord> inv = run.of(InventoryRecord.class).stream().filter(i -> i.getId().equals("gpu-0003")).toList();
    assertThat(inv).extracting(i -> i.getTs() - run.start(), i -> i.getHcas().size())
        .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 8), org.assertj.core.groups.Tuple.tuple(180_000L, 7),
            org.assertj.core.groups.Tuple.tuple(480_000L, 8));
    assertThat(inv.get(1).getHcas()).noneMatch(h -> h.getRail() == 1);
    assertThat(run.ib(p -> p.getNode().equals("gpu-0003") && p.getRail() == 1 && in(p.getTs(), l))).isEmpty();
    double before1 = bytesPerS(run, "gpu-0003", 1, run.start(), l.startTs());
    assertThat(before1 / bytesPerS(run, "gpu-0004", 1, run.start(), l.startTs())).isBetween(0.8, 1.25);
  }

  @Test
  void fabricPfcOffRepublishesOnePortsConfigurationAndLabelsIt() {
    ScenarioRun run = new ScenarioRun("fabric-pfc-off", 8, 1);
    GroundTruthLabel l = run.label("FabricConfigDrift");
    assertThat(l.target()).containsEntry("node", "gpu-0003").containsEntry("rail", "1").containsEntry("field", "pfc_prios");
    assertThat(l.match()).containsExactly("cluster", "node", "rail", "field");
    List<PortConfig> all = run.of(PortConfig.class);
    // every port of every node at the start, following the default policy
    assertThat(all.stream().filter(p -> p.getTs() == run.start())).hasSize(8 * 8)
        .allSatisfy(p -> assertThat(p.getPfcPrios()).containsExactly(3));
    List<PortConfig> port = all.stream().filter(p -> p.getNode().equals("gpu-0003") && p.getRail() == 1).toList();
    assertThat(port).extracting(p -> p.getTs() - run.start(), p -> p.getPfcPrios().size())
        .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, 1), org.assertj.core.groups.Tuple.tuple(180_000L, 0),
            org.assertj.core.groups.Tuple.tuple(420_000L, 1));
    assertThat(all).hasSize(8 * 8 + 2);
  }

  @Test
  void aSiteOwnFabricPolicyIsFollowedByEveryPortAndHandedToTheAnalytics() {
    ScenarioRun run = new ScenarioRun("fabric-site-policy", 8, 1);
    assertThat(run.of(PortConfig.class)).hasSize(8 * 8).allSatisfy(p -> {
      assertThat(p.getPfcPrios()).containsExactly(5);
      assertThat(p.getEcnRpPrios()).containsExactly(5);
      assertThat(p.getMtuBytes()).isEqualTo(4200);
    });
    assertThat(io.fleetscope.loadgen.scenario.ScenarioLoader.load("fabric-site-policy").analytics())
        .containsKey("fabric");
  }

  @Test
  void roceCongestionStormsPfcOnOneRail() {
    ScenarioRun run = new ScenarioRun("roce-congestion", 8, 1);
    GroundTruthLabel l = run.label("RoceCongestion");
    List<IbPortSample> rail2 = sortedByTs(run.ib(s -> s.getNode().equals("gpu-0001") && s.getRail() == 2));
    List<IbPortSample> rail3 = sortedByTs(run.ib(s -> s.getNode().equals("gpu-0001") && s.getRail() == 3));
    assertThat(rail2.get(0).getLinkLayer()).isEqualTo("Ethernet");
    long pfcIn = at(rail2, l.endTs() - 1000).getPfcPauseRx() - at(rail2, l.startTs()).getPfcPauseRx();
    long pfcBefore = at(rail2, l.startTs() - 1000).getPfcPauseRx() - rail2.get(0).getPfcPauseRx();
    long pfcOther = at(rail3, l.endTs() - 1000).getPfcPauseRx() - at(rail3, l.startTs()).getPfcPauseRx();
    assertThat(pfcIn).isGreaterThan(1_000_000);
    assertThat(pfcBefore).isLessThan(1000);
    assertThat(pfcOther).isLessThan(1000);
    assertThat(at(rail2, l.endTs() - 1000).getEcnMarkedPkts()).isGreaterThan(at(rail3, l.endTs() - 1000).getEcnMarkedPkts() + 1_000_000);
  }

  @Test
  void slowTierMakesCheckpointsMissTheSlo() {
    ScenarioRun run = new ScenarioRun("slow-checkpoint-tier", 8, 1);
    GroundTruthLabel l = run.label("CheckpointSlow");
    List<CheckpointEvent> done = run.of(CheckpointEvent.class).stream().filter(c -> c.getStatus().equals("completed")).toList();
    assertThat(done).anySatisfy(c -> assertThat(c.getStartedTs()).isLessThan(l.startTs()));
    for (CheckpointEvent c : done) {
      long d = c.getFinishedTs() - c.getStartedTs();
      if (c.getStartedTs() >= l.startTs() && c.getStartedTs() < run.start() + 8 * 60_000) {
        assertThat(d).isGreaterThan(100_000);
        assertThat(c.getFinishedTs()).isLessThanOrEqualTo(l.endTs());
      } else {
        assertThat(d).isLessThan(60_000);
      }
    }
    assertThat(done.stream().filter(c -> c.getFinishedTs() - c.getStartedTs() > 100_000).count()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void mixedModelsJobHasTwoModelsInInventoryAndSamples() {
    ScenarioRun run = new ScenarioRun("mixed-gpu-models", 8, 1);
    run.label("JobMixedGpuModels");
    Map<String, String> model = run.gpu(s -> true).stream().collect(Collectors.toMap(GpuSample::getNode,
        GpuSample::getModel, (a, b) -> a, TreeMap::new));
    assertThat(model.values().stream().distinct()).containsExactlyInAnyOrder("NVIDIA H200", "NVIDIA H100 80GB HBM3");
    assertThat(model).containsEntry("gpu-0007", "NVIDIA H100 80GB HBM3").containsEntry("gpu-0008", "NVIDIA H100 80GB HBM3")
        .containsEntry("gpu-0006", "NVIDIA H200");
    InventoryRecord inv = run.of(InventoryRecord.class).stream().filter(i -> i.getId().equals("gpu-0008")).findFirst().orElseThrow();
    assertThat(inv.getGpus().get(0).getModel()).isEqualTo("NVIDIA H100 80GB HBM3");
    assertThat(inv.getGpus().get(0).getHbmGb()).isEqualTo(80.0);
  }

  @Test
  void silentNodeSendsNothingInItsWindow() {
    ScenarioRun run = new ScenarioRun("node-silent", 8, 1);
    GroundTruthLabel l = run.label("TelemetryStale");
    List<SimRecord> fromNode = run.records.stream().filter(r -> r.key().equals("gpu-0008")
        && (r.topic().equals("fleet.gpu.v1") || r.topic().equals("fleet.ib.v1"))).toList();
    assertThat(fromNode).noneSatisfy(r -> assertThat(in((Long) r.value().get(0), l)).isTrue());
    assertThat(fromNode.stream().filter(r -> (Long) r.value().get(0) >= l.endTs()).count()).isGreaterThan(1000);
    assertThat(run.gpu(s -> s.getNode().equals("gpu-0007") && in(s.getTs(), l))).hasSize(8 * 180);
  }

  @Test
  void demoHeatsOnlyTheFirstRackAfterAboutAMinuteThenRecovers() {
    ScenarioRun run = new ScenarioRun("demo", 8, 1);
    GroundTruthLabel l = run.label("CoolantFlowLow");
    assertThat(l.startTs() - run.start()).isBetween(60_000L, 90_000L);
    List<GpuSample> r1 = run.gpu(s -> run.sim.topology().node(s.getNode()).rack().equals("rack-001"));
    long firstHot = r1.stream().filter(s -> s.getTempC() > MAX_OP).mapToLong(GpuSample::getTs).min().orElseThrow();
    assertThat(firstHot - l.startTs()).isBetween(10_000L, 120_000L);
    assertThat(run.gpu(s -> run.sim.topology().node(s.getNode()).rack().equals("rack-002")))
        .allSatisfy(s -> assertThat(s.getTempC()).isLessThan(75));
    assertThat(r1.stream().filter(s -> s.getTs() > run.start() + 9 * 60_000)).allSatisfy(s -> assertThat(s.getTempC()).isLessThan(75));
  }

  private static double bytesPerS(ScenarioRun run, String node, int rail, long from, long to) {
    List<IbPortSample> p = sortedByTs(run.ib(s -> s.getNode().equals(node) && s.getRail() == rail));
    return (at(p, to).getXmitBytes() - at(p, from).getXmitBytes()) / ((to - from) / 1000.0);
  }

  private static <T extends org.apache.avro.specific.SpecificRecord> List<T> sortedByTs(List<T> in) {
    return in.stream().sorted((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0))).collect(Collectors.toList());
  }

  private static <T extends org.apache.avro.specific.SpecificRecord> T at(List<T> sorted, long ts) {
    T best = null;
    for (T t : sorted) {
      if ((Long) t.get(0) <= ts) {
        best = t;
      }
    }
    return best;
  }

  /** "ts rack" -> rack kW summed over all of its PDU outlets at that reading. */
  private static Map<String, Double> rackKw(ScenarioRun run) {
    Map<String, Double> out = new TreeMap<>();
    for (PduReading r : run.of(PduReading.class)) {
      out.merge(r.getTs() + " " + r.getRack(), r.getPowerW() / 1000, Double::sum);
    }
    return out;
  }
}
