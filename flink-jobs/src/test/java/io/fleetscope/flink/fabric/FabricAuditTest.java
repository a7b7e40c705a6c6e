package io.fleetscope.flink.fabric;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.AnomalyFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FabricAuditTest {
  private final AnomalyFactory f = new AnomalyFactory("fabric");

  /** A port as the agent reports one that follows the default policy (PFC and ECN on 3, dscp, MTU 9000). */
  static PortConfig.Builder port(String node, int rail, long ts) {
    return PortConfig.newBuilder().setTs(ts).setCluster("c1").setNode(node).setAgentSeq(1).setSource("sysfs,mlnx_qos,debugfs")
        .setDevice("mlx5_" + rail).setPort(1).setNetdev("eth" + rail).setRail(rail).setLinkLayer("Ethernet")
        .setMtuBytes(9000).setTrust("dscp").setPfcPrios(List.of(3)).setEcnNpPrios(List.of(3)).setEcnRpPrios(List.of(3))
        .setCnpDscp(48).setDcqcn(Map.of("rp_time_reset", 300L, "rp_ai_rate", 5L));
  }

  static String brief(Anomaly a) {
    return a.getStatus() + " " + a.getLabels().get("node") + " " + a.getLabels().get("field");
  }

  private List<Anomaly> feed(FabricAudit audit, FabricSettings cfg, List<PortConfig> in) {
    List<Anomaly> out = new ArrayList<>();
    for (PortConfig c : in) out.addAll(audit.onConfig(c, cfg, f));
    return out;
  }

  @Test
  void aFleetThatFollowsThePolicyRaisesNothing() {
    FabricAudit a = new FabricAudit();
    List<PortConfig> in = new ArrayList<>();
    for (int n = 1; n <= 8; n++) in.add(port("n" + n, 0, t(0)).build());
    assertThat(feed(a, FabricSettings.defaults(), in)).isEmpty();
    assertThat(a.size()).isEqualTo(8);
  }

  @Test
  void pfcOffOnOnePortFiresNamingTheFieldTheValueAndTheExpectedOneAndResolvesWhenFixed() {
    FabricAudit a = new FabricAudit();
    List<PortConfig> in = new ArrayList<>();
    for (int n = 1; n <= 8; n++) in.add(port("n" + n, 0, t(0)).build());
    in.add(port("n5", 0, t(60)).setPfcPrios(List.of()).build());
    List<Anomaly> out = feed(a, FabricSettings.defaults(), in);
    assertThat(out).extracting(FabricAuditTest::brief).containsExactly("firing n5 pfc_prios");
    Anomaly fired = out.get(0);
    assertThat(fired.getLabels()).containsEntry("alertname", "FabricConfigDrift").containsEntry("severity", "warning")
        .containsEntry("device", "mlx5_0").containsEntry("port", "1").containsEntry("rail", "0").containsEntry("netdev", "eth0");
    assertThat(fired.getAnnotations().get("summary"))
        .isEqualTo("fabric configuration drift on n5 mlx5_0/1 (eth0): pfc_prios is [], expected [3] (site policy)");
    assertThat(fired.getTs()).isEqualTo(t(60));

    List<Anomaly> fixed = a.onConfig(port("n5", 0, t(300)).build(), FabricSettings.defaults(), f);
    assertThat(fixed).extracting(FabricAuditTest::brief).containsExactly("resolved n5 pfc_prios");
    assertThat(fixed.get(0).getStartsAt()).isEqualTo(t(60));
    assertThat(a.firing()).isZero();
  }

  @Test
  void aConsistentFleetThatDiffersFromTheDefaultIsQuietUnderItsOwnSitePolicy() {
    List<PortConfig> in = new ArrayList<>();
    for (int n = 1; n <= 8; n++) {
      in.add(port("n" + n, 0, t(0)).setPfcPrios(List.of(5)).setEcnNpPrios(List.of(5)).setEcnRpPrios(List.of(5))
          .setMtuBytes(4200).build());
    }
    assertThat(feed(new FabricAudit(), FabricSettings.defaults(), in)).as("default policy: every port drifts")
        .hasSize(8 * 4);
    FabricSettings site = AnalyticsConfig.fromYaml("fabric: {policy: {pfc_prios: [5], ecn_prios: [5], mtu_bytes: [4200]}}")
        .section("fabric", FabricSettings.class);
    assertThat(feed(new FabricAudit(), site, in)).isEmpty();
  }

  @Test
  void aPortThatDiffersFromItsRailPeersWhereThePolicySaysNothingDrifts() {
    List<PortConfig> in = new ArrayList<>();
    for (int n = 1; n <= 6; n++) in.add(port("n" + n, 0, t(0)).build());
    in.add(port("n7", 0, t(0)).setDcqcn(Map.of("rp_time_reset", 1200L, "rp_ai_rate", 5L)).setMtuBytes(4096).build());
    List<Anomaly> out = feed(new FabricAudit(), FabricSettings.defaults(), in);
    assertThat(out).extracting(FabricAuditTest::brief)
        .containsExactlyInAnyOrder("firing n7 mtu_bytes", "firing n7 dcqcn.rp_time_reset");
    assertThat(out).filteredOn(x -> x.getLabels().get("field").equals("dcqcn.rp_time_reset")).first()
        .extracting(x -> x.getAnnotations().get("summary"))
        .isEqualTo("fabric configuration drift on n7 mlx5_0/1 (eth0): dcqcn.rp_time_reset is 1200, expected 300 (rail peers (6 of 7 ports))");
  }

  @Test
  void tooFewPeersOrNoQuorumIsNoNormAndAnUnknownFieldIsNotJudged() {
    List<PortConfig> in = new ArrayList<>();
    for (int n = 1; n <= 2; n++) in.add(port("n" + n, 0, t(0)).build());
    in.add(port("n3", 0, t(0)).setMtuBytes(4096).build());
    assertThat(feed(new FabricAudit(), FabricSettings.defaults(), in)).as("3 ports < min_rail_ports").isEmpty();

    List<PortConfig> split = new ArrayList<>();
    for (int n = 1; n <= 6; n++) split.add(port("n" + n, 0, t(0)).setMtuBytes(n % 2 == 0 ? 4096 : 9000).build());
    assertThat(feed(new FabricAudit(), FabricSettings.defaults(), split)).as("3 of 6 is no quorum").isEmpty();

    FabricAudit a = new FabricAudit();
    List<PortConfig> unknown = new ArrayList<>();
    for (int n = 1; n <= 6; n++) unknown.add(port("n" + n, 0, t(0)).build());
    unknown.add(port("n7", 0, t(0)).setPfcPrios(null).setTrust(null).build());
    assertThat(feed(a, FabricSettings.defaults(), unknown)).as("mlnx_qos missing on n7: unknown, not off").isEmpty();
  }

  /** An InfiniBand port as the agent reports it from sysfs: link and capability mask only. */
  static PortConfig ib(String node, String rate, long ts) {
    String[] r = rate.split(" ");
    return PortConfig.newBuilder().setTs(ts).setCluster("c1").setNode(node).setAgentSeq(1).setSource("sysfs").setDevice("mlx5_2")
        .setPort(1).setRail(2).setLinkLayer("InfiniBand").setDcqcn(Map.of()).setRateGbps(Double.valueOf(r[0]))
        .setLinkWidth(r[1]).setLinkSpeed(r[2]).setCapMask("0xa651ec48").build();
  }

  @Test
  void anInfinibandPortTrainedNarrowerOrSlowerThanItsRailDriftsAndTheRoceFieldsAreNotJudged() {
    FabricAudit a = new FabricAudit();
    List<PortConfig> in = new ArrayList<>();
    for (int n = 1; n <= 8; n++) in.add(ib("n" + n, "400 4X NDR", t(0)));
    assertThat(feed(a, FabricSettings.defaults(), in)).as("PFC, trust, ECN, MTU unknown on IB: not judged").isEmpty();
    // n3 retrains at 2 lanes (a lane lost), n6 at HDR (a cable that only does 200G)
    List<Anomaly> out = feed(a, FabricSettings.defaults(), List.of(ib("n3", "200 2X NDR", t(60)), ib("n6", "200 4X HDR", t(70))));
    assertThat(out).extracting(FabricAuditTest::brief).containsExactlyInAnyOrder("firing n3 rate_gbps", "firing n3 link_width",
        "firing n6 rate_gbps", "firing n6 link_speed");
    Anomaly width = out.stream().filter(x -> "link_width".equals(x.getLabels().get("field"))).findFirst().orElseThrow();
    assertThat(width.getAnnotations().get("summary"))
        .isEqualTo("fabric configuration drift on n3 mlx5_2/1: link_width is 2X, expected 4X (rail peers (7 of 8 ports))");
    assertThat(width.getAnnotations().get("description")).contains("InfiniBand port", "fewer lanes");
    assertThat(feed(a, FabricSettings.defaults(), List.of(ib("n3", "400 4X NDR", t(300)))))
        .extracting(FabricAuditTest::brief).containsExactlyInAnyOrder("resolved n3 rate_gbps", "resolved n3 link_width");
  }

  /** An InfiniBand port with what ibv_devinfo and smpquery report: MTU 4096, SL i on VL i mod 4. */
  static PortConfig.Builder verbs(String node, long ts) {
    List<Integer> sl2vl = new ArrayList<>();
    for (int sl = 0; sl < 16; sl++) sl2vl.add(sl % 4);
    return PortConfig.newBuilder(ib(node, "400 4X NDR", ts)).setSource("sysfs,ibv_devinfo,smpquery")
        .setActiveMtu(4096).setMaxMtu(4096).setSl2vl(sl2vl);
  }

  @Test
  void anInfinibandPortWithASmallerActiveMtuOrAnotherSl2vlTableThanItsRailDriftsAndResolvesWhenFixed() {
    FabricAudit a = new FabricAudit();
    List<PortConfig> in = new ArrayList<>();
    for (int n = 1; n <= 8; n++) in.add(verbs("n" + n, t(0)).build());
    assertThat(feed(a, FabricSettings.defaults(), in)).isEmpty();
    // n4 came up with a 2048-byte MTU; on n7 the subnet manager's QoS never reached the port (every SL on VL 0)
    List<Integer> flat = new ArrayList<>(java.util.Collections.nCopies(16, 0));
    List<Anomaly> out = feed(a, FabricSettings.defaults(), List.of(verbs("n4", t(60)).setActiveMtu(2048).build(),
        verbs("n7", t(70)).setSl2vl(flat).build()));
    assertThat(out).extracting(FabricAuditTest::brief).containsExactly("firing n4 active_mtu", "firing n7 sl2vl");
    assertThat(out.get(0).getAnnotations().get("summary"))
        .isEqualTo("fabric configuration drift on n4 mlx5_2/1: active_mtu is 2048, expected 4096 (rail peers (7 of 8 ports))");
    assertThat(out.get(0).getAnnotations().get("description")).contains("active MTU of 2048 bytes", "on rail 2");
    assertThat(out.get(1).getAnnotations().get("summary")).isEqualTo("fabric configuration drift on n7 mlx5_2/1: sl2vl is "
        + "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], expected [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] "
        + "(rail peers (7 of 8 ports))");
    assertThat(out.get(1).getAnnotations().get("description")).contains("service levels 0-15", "qos_sl2vl");
    // a port whose smpquery is not installed: its table is unknown, not judged; max_mtu is not audited
    assertThat(feed(a, FabricSettings.defaults(), List.of(verbs("n2", t(80)).setSl2vl(null).setMaxMtu(2048).build()))).isEmpty();
    assertThat(feed(a, FabricSettings.defaults(), List.of(verbs("n4", t(300)).build(), verbs("n7", t(310)).build())))
        .extracting(FabricAuditTest::brief).containsExactly("resolved n4 active_mtu", "resolved n7 sl2vl");
    assertThat(a.firing()).isZero();
  }

  @Test
  void aRocePortWhoseActiveMtuDiffersFromItsRailDriftsThoughItsInterfaceMtuIsTheSame() {
    List<PortConfig> in = new ArrayList<>();
    for (int n = 1; n <= 6; n++) in.add(port("n" + n, 0, t(0)).setActiveMtu(4096).setMaxMtu(4096).build());
    in.add(port("n7", 0, t(0)).setActiveMtu(1024).setMaxMtu(4096).build());
    assertThat(feed(new FabricAudit(), FabricSettings.defaults(), in)).extracting(FabricAuditTest::brief)
        .containsExactly("firing n7 active_mtu");
  }

  @Test
  void badSettingsAreRefusedWithTheirKey() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            AnalyticsConfig.fromYaml("fabric: {policy: {pfc_prios: [9]}}").section("fabric", FabricSettings.class))
        .hasMessageContaining("fabric: policy.pfc_prios holds priorities 0..7, got 9");
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            AnalyticsConfig.fromYaml("fabric: {peer_quorum_pct: 50}").section("fabric", FabricSettings.class))
        .hasMessageContaining("peer_quorum_pct must be within (50,100]");
    assertThat(AnalyticsConfig.defaults().section("fabric", FabricSettings.class)).isEqualTo(FabricSettings.defaults());
  }
}
