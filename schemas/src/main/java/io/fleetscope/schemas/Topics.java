package io.fleetscope.schemas;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.EccTrend;
import io.fleetscope.avro.GpuMigSample;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.avro.PduReading;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.avro.ThermalRisk;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Topic names of ARCHITECTURE.md, the value schema each one carries, and how each is created
 * ({@link TopicSettings}: partitions, compaction or retention), for {@link TopicBootstrap}.
 */
public final class Topics {
  private Topics() {}

  public static final String GPU = "fleet.gpu.v1";
  public static final String GPU_XID = "fleet.gpu.xid.v1";
  /** Per GPU and NVLink link: state, throughput and error counters (raw, keyed by node). */
  public static final String NVLINK = "fleet.nvlink.v1";
  public static final String IB = "fleet.ib.v1";
  public static final String PDU = "fleet.pdu.v1";
  public static final String COOLANT = "fleet.coolant.v1";
  public static final String CKPT = "fleet.ckpt.v1";
  public static final String INVENTORY = "fleet.inventory.v1";
  public static final String JOBS = "fleet.jobs.v1";
  /** Lossless-fabric configuration of each RDMA NIC port (compacted, keyed by node/device/port). */
  public static final String FABRIC_CONFIG = "fleet.fabric.config.v1";
  public static final String RAIL_BW = "fleet.rail.bw.v1";
  public static final String THERMAL_RISK = "fleet.thermal.risk.v1";
  public static final String ECC_TREND = "fleet.ecc.trend.v1";
  public static final String CKPT_SLO = "fleet.ckpt.slo.v1";
  public static final String ANOMALIES = "fleet.anomalies.v1";
  public static final String ALERTS = "fleet.alerts.v1";
  public static final String DLQ = "fleet.dlq.v1";
  /** Storage tiers per node: local NVMe health and parallel file system client I/O. */
  public static final String STORAGE = "fleet.storage.v1";
  /** One record per MIG device of a GPU in MIG mode (keyed by node); the GPU's own sample stays on fleet.gpu.v1. */
  public static final String GPU_MIG = "fleet.gpu.mig.v1";

  /**
   * Partitions of every topic: an even share for each of the analytics' two source subtasks (their
   * default parallelism) and for each of the sink's two workers.
   */
  public static final int PARTITIONS = 4;
  /** How long the records of a topic that is not compacted are kept. */
  public static final Duration RETENTION = Duration.ofDays(7);

  /**
   * One topic: its value class and how it is created. Compacted topics (keyed latest-value:
   * inventory, job allocations) keep the latest record per key; the others keep {@link #RETENTION}.
   */
  public record TopicSpec(Class<? extends SpecificRecord> valueClass, TopicSettings settings) {
    public String name() {
      return settings.name();
    }
    public boolean compacted() {
      return settings.compacted();
    }
    public Schema schema() {
      return SchemaLookup.schemaOf(valueClass);
    }
    public String valueSubject() {
      return name() + "-value";
    }
  }

  private static final Map<String, TopicSpec> ALL;

  static {
    Map<String, TopicSpec> m = new LinkedHashMap<>();
    put(m, GPU, GpuSample.class, false);
    put(m, GPU_XID, GpuXid.class, false);
    put(m, NVLINK, NvlinkSample.class, false);
    put(m, IB, IbPortSample.class, false);
    put(m, PDU, PduReading.class, false);
    put(m, COOLANT, CoolantReading.class, false);
    put(m, CKPT, CheckpointEvent.class, false);
    put(m, INVENTORY, InventoryRecord.class, true);
    put(m, JOBS, JobAllocations.class, true);
    put(m, FABRIC_CONFIG, PortConfig.class, true);
    put(m, RAIL_BW, RailBandwidth.class, false);
    put(m, THERMAL_RISK, ThermalRisk.class, false);
    put(m, ECC_TREND, EccTrend.class, false);
    put(m, CKPT_SLO, CheckpointSlo.class, false);
    put(m, ANOMALIES, Anomaly.class, false);
    put(m, ALERTS, Alert.class, false);
    put(m, DLQ, DeadLetter.class, false);
    put(m, STORAGE, StorageSample.class, false);
    put(m, GPU_MIG, GpuMigSample.class, false);
    ALL = Collections.unmodifiableMap(m);
  }

  private static void put(Map<String, TopicSpec> m, String n, Class<? extends SpecificRecord> c, boolean compacted) {
    TopicSettings settings = compacted ? TopicSettings.compacted(n, PARTITIONS) : TopicSettings.retained(n, PARTITIONS, RETENTION);
    m.put(n, new TopicSpec(c, settings));
  }

  /** Every topic, in data-flow order. */
  public static Map<String, TopicSpec> all() {
    return ALL;
  }

  /** How every topic is created, in data-flow order. */
  public static List<TopicSettings> settings() {
    return ALL.values().stream().map(TopicSpec::settings).toList();
  }

  public static Optional<TopicSpec> find(String topic) {
    return Optional.ofNullable(ALL.get(topic));
  }

  /** The spec of a topic, or an IllegalArgumentException naming the known topics. */
  public static TopicSpec require(String topic) {
    TopicSpec s = ALL.get(topic);
    if (s == null) {
      throw new IllegalArgumentException("unknown topic '" + topic + "'; known topics: " + String.join(", ", ALL.keySet()));
    }
    return s;
  }
}
