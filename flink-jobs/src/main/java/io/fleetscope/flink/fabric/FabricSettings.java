package io.fleetscope.flink.fabric;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Configuration of the fabric configuration audit (config section {@code fabric}; keys are the
 * snake_case component names, documented with their defaults in {@code analytics-defaults-fabric.yaml}).
 *
 * @param policy the site policy every RoCE port must follow
 * @param minRailPorts a rail's ports are compared with each other only when at least this many of
 *     them report a field ({@code min_rail_ports}, 4)
 * @param peerQuorumPct a value is the rail's norm when at least this percent of the rail's ports that
 *     report the field hold it ({@code peer_quorum_pct}, 75); a port that differs from the norm drifts
 */
public record FabricSettings(Policy policy, int minRailPorts, double peerQuorumPct) implements Serializable {

  /**
   * The site policy; a null (or empty) key is not checked against a policy (its rail's peers still
   * are).
   *
   * @param pfcPrios exactly these priorities have PFC on ({@code pfc_prios}, [3])
   * @param trust priority trust state ({@code trust}, dscp)
   * @param ecnPrios the ECN notification and reaction points are on at least for these priorities
   *     ({@code ecn_prios}, [3])
   * @param mtuBytes the interface MTU is one of these ({@code mtu_bytes}, [4096, 9000])
   * @param cnpDscp the DSCP of CNPs ({@code cnp_dscp}, not checked)
   * @param dcqcn DCQCN parameters by their mlx5 debugfs name and value ({@code dcqcn}, none)
   */
  public record Policy(List<Integer> pfcPrios, String trust, List<Integer> ecnPrios, List<Integer> mtuBytes,
      Integer cnpDscp, Map<String, Long> dcqcn) implements Serializable {
    public Policy {
      pfcPrios = pfcPrios == null ? null : List.copyOf(pfcPrios.stream().sorted().toList());
      ecnPrios = ecnPrios == null || ecnPrios.isEmpty() ? null : List.copyOf(ecnPrios.stream().sorted().toList());
      mtuBytes = mtuBytes == null || mtuBytes.isEmpty() ? null : List.copyOf(mtuBytes);
      trust = trust == null || trust.isBlank() ? null : trust;
      dcqcn = dcqcn == null ? new TreeMap<>() : new TreeMap<>(dcqcn);
      for (Integer p : pfcPrios == null ? List.<Integer>of() : pfcPrios) prio("pfc_prios", p);
      for (Integer p : ecnPrios == null ? List.<Integer>of() : ecnPrios) prio("ecn_prios", p);
      if (trust != null && !trust.equals("dscp") && !trust.equals("pcp")) {
        throw new IllegalArgumentException("fabric: policy.trust must be dscp or pcp, got '" + trust + "'");
      }
      for (Integer m : mtuBytes == null ? List.<Integer>of() : mtuBytes) {
        if (m == null || m < 576) {
          throw new IllegalArgumentException("fabric: policy.mtu_bytes must be >= 576, got " + m);
        }
      }
      if (cnpDscp != null && (cnpDscp < 0 || cnpDscp > 63)) {
        throw new IllegalArgumentException("fabric: policy.cnp_dscp must be within 0..63, got " + cnpDscp);
      }
    }

    private static void prio(String key, Integer p) {
      if (p == null || p < 0 || p > 7) {
        throw new IllegalArgumentException("fabric: policy." + key + " holds priorities 0..7, got " + p);
      }
    }
  }

  public FabricSettings {
    if (policy == null) {
      throw new IllegalArgumentException("fabric: policy is missing");
    }
    if (minRailPorts < 2) {
      throw new IllegalArgumentException("fabric: min_rail_ports must be >= 2, got " + minRailPorts);
    }
    if (!(peerQuorumPct > 50 && peerQuorumPct <= 100)) {
      throw new IllegalArgumentException("fabric: peer_quorum_pct must be within (50,100], got " + peerQuorumPct);
    }
  }

  public static FabricSettings defaults() {
    return new FabricSettings(new Policy(List.of(3), "dscp", List.of(3), List.of(4096, 9000), null, Map.of()), 4, 75);
  }
}
