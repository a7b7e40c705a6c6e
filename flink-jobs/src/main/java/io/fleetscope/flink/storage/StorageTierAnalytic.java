package io.fleetscope.flink.storage;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Storage tiers: fleet.storage.v1. Local NVMe controllers keyed by node and controller
 * ({@link NvmeHealthFunction}: NvmeMediaErrors, StorageTierDegraded on a critical warning or worn
 * endurance); parallel-file-system clients keyed by cluster and tier ({@link TierPeerFunction}:
 * StorageTierDegraded for a tier whose median write latency is over its limit, or a client much
 * slower than its peers). Config section {@code storage}. The checkpoint analytic reads the same
 * tier stage ({@link #tierStates}, one per run whichever of the two builds it) to name the tier's state
 * on its anomalies.
 */
public final class StorageTierAnalytic implements Analytic {
  public static final String NAME = "storage";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    StorageTierSettings c = cfg.section(NAME, StorageTierSettings.class);
    SingleOutputStreamOperator<Anomaly> nvme = in.stream(StorageSample.class)
        .filter(new LocalTier()).name(NAME + "-local").uid(NAME + "-local")
        .keyBy(NvmeHealthFunction::keyOf, Types.STRING)
        .process(new NvmeHealthFunction(c, NAME), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-nvme").uid(NAME + "-nvme");
    out.anomalies(nvme);
    SingleOutputStreamOperator<TierState> tiers = tierStates(in, c);
    out.anomalies(tiers.getSideOutput(TickedKeyedFunction.ANOMALIES));
  }

  /**
   * The tier stage over the shared tiers' samples: {@link TierState} changes as its output,
   * StorageTierDegraded on {@link TickedKeyedFunction#ANOMALIES} (written by {@code storage}; only the
   * storage analytic emits them). Built once per run ({@link AnalyticInputs#shared}), with the uids
   * {@code storage-shared-tiers} and {@code storage-tier-peers} whichever analytic builds it, so
   * fleet.storage.v1's shared tiers are keyed and judged once in a run of both {@code storage} and
   * {@code ckpt}, and {@code --only ckpt} still has them.
   */
  public static SingleOutputStreamOperator<TierState> tierStates(AnalyticInputs in, StorageTierSettings c) {
    return in.shared(NAME + "-tier-states", () -> in.stream(StorageSample.class)
        .filter(new SharedTier()).name(NAME + "-shared-tiers").uid(NAME + "-shared-tiers")
        .keyBy(TierPeerFunction::keyOf, Types.STRING)
        .process(new TierPeerFunction(c, NAME), TypeInformation.of(TierState.class))
        .name(NAME + "-tier-peers").uid(NAME + "-tier-peers"));
  }

  /** Samples of a node's own NVMe. */
  static final class LocalTier implements org.apache.flink.api.common.functions.FilterFunction<StorageSample> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(StorageSample s) {
      return !TierPeerFunction.shared(s);
    }
  }

  /** Samples of a tier shared by many clients (Lustre, NFS). */
  static final class SharedTier implements org.apache.flink.api.common.functions.FilterFunction<StorageSample> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(StorageSample s) {
      return TierPeerFunction.shared(s);
    }
  }
}
