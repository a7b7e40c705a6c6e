package io.fleetscope.flink.ckpt;

import io.fleetscope.flink.storage.StorageTierAnalytic;
import io.fleetscope.flink.storage.StorageTierSettings;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.KeyedAnalyticFunction;
import io.fleetscope.flink.core.NodeKeySelector;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Checkpoint I/O SLO: fleet.ckpt.v1 (keyed by job, with GPU counts from the topology) and the
 * interrupting XIDs of fleet.gpu.xid.v1 meet keyed by cluster; per finished checkpoint a
 * CheckpointSlo on fleet.ckpt.slo.v1 (throughput, compliance, burn rates, Young/Daly interval) and
 * the anomalies CheckpointSlow and CheckpointSloBurn. Config section {@code ckpt}. Every checkpoint
 * event also reaches the cluster stage as it arrives ({@link CheckpointArrivals}): whether a started
 * checkpoint is overdue is judged on the time fleet.ckpt.v1 itself has shown
 * ({@link CheckpointDeadline}), not on a watermark the XIDs may have moved ahead.
 */
public final class CheckpointSloAnalytic implements Analytic {
  public static final String NAME = "ckpt";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    CheckpointSloSettings c = cfg.section("ckpt", CheckpointSloSettings.class);
    TypeInformation<CkptInput> ti = TypeInformation.of(CkptInput.class);
    SingleOutputStreamOperator<io.fleetscope.avro.CheckpointEvent> sane = in.ckpt()
        .process(new CheckpointSanity(in.clock()), AvroTypeInfo.forClass(io.fleetscope.avro.CheckpointEvent.class))
        .name(NAME + "-sanity").uid(NAME + "-sanity");
    out.deadLetters(sane.getSideOutput(CheckpointSanity.REJECTED));
    SingleOutputStreamOperator<CkptInput> ckpts = sane
        .keyBy(CheckpointInputFunction::keyOf, Types.STRING).connect(in.topology())
        .process(new CheckpointInputFunction(c, in.pipeline(), in.clock()), ti)
        .name(NAME + "-checkpoints").uid(NAME + "-checkpoints");
    out.sideOutputsOf(ckpts);
    SingleOutputStreamOperator<CkptInput> xids = in.gpuXid()
        .keyBy(new NodeKeySelector<>(), Types.STRING).connect(in.topology())
        .process(new KeyedAnalyticFunction<>(new XidInputFunction(c), in.pipeline(), in.clock()), ti)
        .name(NAME + "-interruptions").uid(NAME + "-interruptions");
    out.sideOutputsOf(xids);
    // the shared storage tiers' state, to name a slow tier or a slow job on the anomalies (TierCause)
    SingleOutputStreamOperator<CkptInput> tiers = StorageTierAnalytic
        .tierStates(in, cfg.section(StorageTierAnalytic.NAME, StorageTierSettings.class))
        .map(new TierStateInput(), ti).name(NAME + "-tier-states").uid(NAME + "-tier-states");
    SingleOutputStreamOperator<CheckpointSlo> slo = ckpts.union(xids, CheckpointArrivals.of(sane, NAME), tiers)
        .keyBy(i -> i.cluster, Types.STRING)
        .process(new CheckpointSloFunction(c, in.pipeline().allowedLatenessMs(), NAME), AvroTypeInfo.forClass(CheckpointSlo.class))
        .name(NAME + "-slo").uid(NAME + "-slo");
    out.derived(slo);
    out.anomalies(slo.getSideOutput(TickedKeyedFunction.ANOMALIES));
  }
}
