package io.fleetscope.streams;

import static io.fleetscope.streams.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.contract.Fingerprint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Topology grouping on the real topology: cooling root cause + blast radius, absorption, resolution, rails. */
class GroupingTopologyTest {
  private Harness h;

  @BeforeEach
  void setUp() throws Exception {
    h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "0"));
  }

  @AfterEach
  void tearDown() throws Exception {
    h.close();
  }

  private static final Map<String, String> COOLING_LABELS = Map.of("alertname", "CoolantFlowLow", "severity", "critical",
      "cluster", "c1", "device", "cdu-3", "loop", "loop-a", "rack", "r07", "scope", "cdu_loop");

  @Test
  void rackCoolingFailureHeating32GpusIsOneIncidentWithItsBlastRadius() {
    Anomaly cause = Fleet.coolantFlowLow(T0.plusSeconds(1));
    h.pipe(cause, T0.plusSeconds(1));
    List<Anomaly> hot = Fleet.rack07Hot(T0.plusSeconds(2));
    h.pipeAll(hot, T0.plusSeconds(2));
    Anomaly other = Fleet.gpuHot(T0.plusSeconds(3), Fleet.node(8, 1), 5); // another rack, other CDU loop
    h.pipe(other, T0.plusSeconds(3));

    List<TestRecord<String, Alert>> out = h.alerts.readRecordsToList();
    assertThat(out).hasSize(34);
    String incident = Fingerprint.of(COOLING_LABELS);
    // the incident grows from the cause alone (version 1) to 32 GPUs (version 33), never one page per GPU
    assertThat(out.subList(0, 33)).extracting(TestRecord::key).containsOnly(incident);
    assertThat(out.subList(0, 33)).extracting(r -> r.value().getVersion())
        .containsExactlyElementsOf(IntStream.rangeClosed(1, 33).mapToObj(i -> (long) i).toList());
    assertThat(out.get(0).value().getBlastRadius().getGpus()).isZero();
    // the cause pages before any GPU behind it heats up: the summary says what it serves, not "0 GPUs"
    assertThat(out.get(0).value().getAnnotations().get("summary"))
        .isEqualTo("CoolantFlowLow on CDU cdu-3 loop loop-a: no GPU alerting yet; serves racks r07");

    Alert full = out.get(32).value();
    assertThat(full.getStatus()).isEqualTo("firing");
    assertThat(full.getLabels()).isEqualTo(COOLING_LABELS);
    assertThat(full.getStartsAt()).isEqualTo(T0.plusSeconds(1).toEpochMilli());
    assertThat(full.getRootCause()).isEqualTo("CoolantFlowLow on CDU cdu-3 loop loop-a (anomaly " + cause.getFingerprint() + ")");
    assertThat(full.getBlastRadius().getGpus()).isEqualTo(32);
    assertThat(full.getBlastRadius().getNodes()).isEqualTo(4);
    assertThat(full.getBlastRadius().getNodeList())
        .containsExactly("gpu-r07-n01", "gpu-r07-n02", "gpu-r07-n03", "gpu-r07-n04");
    assertThat(full.getBlastRadius().getGpuList()).hasSize(32)
        .startsWith("gpu-r07-n01/0", "gpu-r07-n01/1").endsWith("gpu-r07-n04/7");
    List<String> members = new ArrayList<>();
    members.add(cause.getFingerprint());
    hot.forEach(a -> members.add(a.getFingerprint()));
    assertThat(full.getMembers()).containsExactlyInAnyOrderElementsOf(members);
    assertThat(full.getAnnotations())
        .containsEntry("summary", "CoolantFlowLow on CDU cdu-3 loop loop-a: 32 GPUs on 4 nodes affected")
        .containsEntry("runbook_url", "docs/runbooks.md#coolantflowlow")
        .containsEntry(IncidentGrouper.ROOT_CAUSE_FP, cause.getFingerprint());

    // the GPU on rack r08 is not behind cdu-3: an incident of its own
    Alert single = out.get(33).value();
    assertThat(out.get(33).key()).isEqualTo(other.getFingerprint());
    Map<String, String> enriched = new java.util.HashMap<>(other.getLabels());
    enriched.put("rack", "r08"); // from the inventory, for Alertmanager's group_by and inhibition
    assertThat(single.getLabels()).isEqualTo(enriched);
    assertThat(single.getRootCause()).isNull();
    assertThat(single.getBlastRadius().getGpuList()).containsExactly("gpu-r08-n01/5");

    // state store: exactly the two incidents, and the 34 member anomalies
    assertThat(h.firingIncidents()).extracting(Alert::getFingerprint)
        .containsExactlyInAnyOrder(incident, other.getFingerprint());
    assertThat(h.<Anomaly>store(IncidentProcessor.MEMBERS)).hasSize(34)
        .extracting(kv -> kv.key).contains(IncidentProcessor.key("c1", cause.getFingerprint()));
  }

  @Test
  void incidentOutlivesItsClearedCauseUntilTheLastGpuResolvesThenResolves() {
    Anomaly cause = Fleet.coolantFlowLow(T0);
    h.pipe(cause, T0);
    List<Anomaly> hot = Fleet.rack07Hot(T0.plusSeconds(1));
    h.pipeAll(hot, T0.plusSeconds(1));
    h.alerts.readRecordsToList();
    String incident = Fingerprint.of(COOLING_LABELS);

    h.pipe(Fleet.resolved(cause, T0.plusSeconds(600)), T0.plusSeconds(600));
    List<Alert> afterCause = h.alerts.readValuesToList();
    assertThat(afterCause).hasSize(1);
    assertThat(afterCause.get(0).getFingerprint()).isEqualTo(incident);
    assertThat(afterCause.get(0).getStatus()).isEqualTo("firing");
    assertThat(afterCause.get(0).getVersion()).isEqualTo(34L);
    assertThat(afterCause.get(0).getBlastRadius().getGpus()).isEqualTo(32);
    assertThat(afterCause.get(0).getAnnotations().get("summary")).startsWith("CoolantFlowLow on CDU cdu-3 loop loop-a")
        .endsWith("cleared; 32 GPUs on 4 nodes still alerting");

    for (int i = 0; i < hot.size(); i++) {
      h.pipe(Fleet.resolved(hot.get(i), T0.plusSeconds(700 + i)), T0.plusSeconds(700 + i));
    }
    List<TestRecord<String, Alert>> out = h.alerts.readRecordsToList();
    assertThat(out).hasSize(32).extracting(TestRecord::key).containsOnly(incident); // no per-GPU incident on the way down
    assertThat(out.get(30).value().getBlastRadius().getGpus()).isEqualTo(1);
    Alert last = out.get(31).value();
    assertThat(last.getStatus()).isEqualTo("resolved");
    assertThat(last.getEndsAt()).isEqualTo(T0.plusSeconds(731).toEpochMilli());
    assertThat(last.getVersion()).isEqualTo(66L);
    assertThat(h.firingIncidents()).isEmpty();
    assertThat(h.<Anomaly>store(IncidentProcessor.MEMBERS)).isEmpty();
  }

  @Test
  void gpuAlertsThatFiredBeforeTheCauseAreAbsorbedIntoItsIncident() {
    Anomaly g0 = Fleet.gpuHot(T0, Fleet.node(7, 1), 0);
    Anomaly g1 = Fleet.gpuHot(T0, Fleet.node(7, 2), 3);
    h.pipe(g0, T0);
    h.pipe(g1, T0);
    assertThat(h.alerts.readKeyValuesToList()).extracting(kv -> kv.key, kv -> kv.value.getStatus())
        .containsExactly(org.assertj.core.groups.Tuple.tuple(g0.getFingerprint(), "firing"),
            org.assertj.core.groups.Tuple.tuple(g1.getFingerprint(), "firing"));

    Anomaly cause = Fleet.coolantFlowLow(T0.plusSeconds(20));
    h.pipe(cause, T0.plusSeconds(20));
    List<KeyValue<String, Alert>> out = h.alerts.readKeyValuesToList();
    assertThat(out).hasSize(3);
    Alert grouped = out.get(0).value;
    assertThat(grouped.getFingerprint()).isEqualTo(Fingerprint.of(COOLING_LABELS));
    assertThat(grouped.getStatus()).isEqualTo("firing");
    assertThat(grouped.getStartsAt()).isEqualTo(T0.toEpochMilli()); // the first symptom
    assertThat(grouped.getBlastRadius().getGpuList()).containsExactly("gpu-r07-n01/0", "gpu-r07-n02/3");
    assertThat(out.subList(1, 3)).extracting(kv -> kv.key, kv -> kv.value.getStatus(), kv -> kv.value.getEndsAt())
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(g0.getFingerprint(), "resolved", T0.plusSeconds(20).toEpochMilli()),
            org.assertj.core.groups.Tuple.tuple(g1.getFingerprint(), "resolved", T0.plusSeconds(20).toEpochMilli()));
    assertThat(h.firingIncidents()).extracting(Alert::getFingerprint).containsExactly(grouped.getFingerprint());
  }

  @Test
  void rackPowerOverCoolingGroupsTheGpusOfThatRackOnly() {
    Anomaly power = Fleet.firing(T0, Fleet.labels("alertname", "RackPowerOverCooling", "severity", "critical", "rack", "r07"));
    h.pipe(power, T0);
    h.pipe(Fleet.gpuHot(T0, Fleet.node(7, 3), 1), T0);
    h.pipe(Fleet.gpuHot(T0, Fleet.node(8, 1), 1), T0);
    List<Alert> incidents = h.firingIncidents();
    assertThat(incidents).hasSize(2);
    Alert rack = incidents.stream().filter(a -> "rack".equals(a.getLabels().get("scope"))).findFirst().orElseThrow();
    assertThat(rack.getLabels()).containsEntry("alertname", "RackPowerOverCooling").containsEntry("rack", "r07");
    assertThat(rack.getBlastRadius().getGpuList()).containsExactly("gpu-r07-n03/1");
  }

  @Test
  void portAlertsOnOneRailBecomeOneRailIncident() {
    Anomaly down = Fleet.firing(T0, Fleet.labels("alertname", "IbLinkDown", "severity", "critical", "node", Fleet.node(7, 1),
        "device", "mlx5_3", "port", "1", "rail", "3"));
    // no rail label: the rail comes from the node's inventory (mlx5_3 -> rail 3)
    Anomaly symbols = Fleet.firing(T0, Fleet.labels("alertname", "IbSymbolErrors", "severity", "warning", "node",
        Fleet.node(7, 2), "device", "mlx5_3", "port", "1"));
    Anomaly degraded = Fleet.firing(T0, Fleet.labels("alertname", "IbLinkDegraded", "severity", "warning", "node",
        Fleet.node(7, 3), "device", "mlx5_4", "port", "1", "rail", "4"));
    h.pipe(down, T0);
    h.pipe(symbols, T0.plusSeconds(1));
    h.pipe(degraded, T0.plusSeconds(2));

    Map<String, String> rail3 = Map.of("alertname", "IbRailDegraded", "severity", "critical", "cluster", "c1", "rail", "3",
        "scope", "rail");
    List<KeyValue<String, Alert>> out = h.alerts.readKeyValuesToList();
    assertThat(out).extracting(kv -> kv.key, kv -> kv.value.getVersion(), kv -> kv.value.getMembers().size())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Fingerprint.of(rail3), 1L, 1),
            org.assertj.core.groups.Tuple.tuple(Fingerprint.of(rail3), 2L, 2),
            org.assertj.core.groups.Tuple.tuple(Fingerprint.of(new java.util.TreeMap<>(Map.of("alertname", "IbRailDegraded",
                "severity", "critical", "cluster", "c1", "rail", "4", "scope", "rail"))), 1L, 1));
    Alert r3 = out.get(1).value;
    assertThat(r3.getLabels()).isEqualTo(rail3);
    assertThat(r3.getRootCause()).isEqualTo("IbLinkDown on rail 3");
    assertThat(r3.getBlastRadius().getNodeList()).containsExactly("gpu-r07-n01", "gpu-r07-n02");
    assertThat(r3.getAnnotations().get("description")).isEqualTo("ports: gpu-r07-n01/mlx5_3:1, gpu-r07-n02/mlx5_3:1");
    assertThat(r3.getAnnotations().get("runbook_url")).isEqualTo("docs/runbooks.md#iblinkdown");

    h.pipe(Fleet.resolved(down, T0.plusSeconds(60)), T0.plusSeconds(60));
    h.pipe(Fleet.resolved(symbols, T0.plusSeconds(61)), T0.plusSeconds(61));
    List<Alert> after = h.alerts.readValuesToList();
    assertThat(after).extracting(Alert::getStatus).containsExactly("firing", "resolved");
    assertThat(after.get(1).getEndsAt()).isEqualTo(T0.plusSeconds(61).toEpochMilli());
    assertThat(h.firingIncidents()).extracting(a -> a.getLabels().get("rail")).containsExactly("4");
  }

  @Test
  void badRecordsGoToTheDeadLetterTopicAndProcessingContinues() {
    h.rawAnomalies.pipeInput("k1", new byte[] {1, 2, 3, 4, 5, 6}, T0);
    Anomaly noCluster = Anomaly.newBuilder(Fleet.gpuHot(T0, Fleet.node(8, 1), 0))
        .setLabels(Map.of("alertname", "GpuThermalThrottleRisk", "node", "x")).build();
    h.pipe(noCluster, T0);
    Anomaly good = Fleet.gpuHot(T0, Fleet.node(8, 1), 2);
    h.pipe(good, T0);

    var dead = h.dlq.readValuesToList();
    assertThat(dead).hasSize(2);
    assertThat(dead.get(0).getReason()).startsWith("undecodable: not Confluent wire format: magic byte is 1");
    assertThat(dead.get(0).getStage()).isEqualTo("streams");
    assertThat(dead.get(0).getSourceTopic()).isEqualTo("fleet.anomalies.v1");
    assertThat(dead.get(0).getKey()).isEqualTo("k1");
    assertThat(dead.get(0).getPayload().array()).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(dead.get(1).getReason()).isEqualTo("invalid anomaly: missing label cluster");
    assertThat(dead.get(1).getPayloadJson()).contains("\"alertname\":\"GpuThermalThrottleRisk\"");
    assertThat(h.alerts.readValuesToList()).extracting(Alert::getFingerprint).containsExactly(good.getFingerprint());
  }
}
