package io.fleetscope.flink.core;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.avro.PduReading;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.WallClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What an analytic reads: one event-time stream per raw topic, already validated (bad, impossible and
 * far-future records went to fleet.dlq.v1), with timestamps from {@code ts} and bounded
 * out-of-orderness watermarks with idleness (section {@code pipeline}); and the topology broadcast
 * (fleet.inventory.v1 + fleet.jobs.v1) read through {@link Topology#INVENTORY} / {@link Topology#JOBS}.
 */
public final class AnalyticInputs {
  private final StreamExecutionEnvironment env;
  private final Map<Class<?>, DataStream<? extends SpecificRecord>> streams;
  private final DataStream<SpecificRecord> topologyRecords;
  private final BroadcastStream<SpecificRecord> topology;
  /** A live (unbounded, streaming) run: the node operators hold their watermark for nodes catching up. */
  private final boolean streaming;
  private final PipelineConfig pipeline;
  private final WallClock clock;
  private final Readers readers;
  private final Map<Class<?>, DataStream<? extends SpecificRecord>> arrivals = new HashMap<>();
  private NodeStage gpuNodes;
  private NodeStage ibNodes;
  /** Stages that several analytics read, by name: built once per run, by the first analytic that asks. */
  private final Map<String, Object> sharedStages = new HashMap<>();

  /** Opens a reader of a raw topic of its own: source, watermarks, valid records only. */
  interface Readers {
    <T extends SpecificRecord> DataStream<T> open(Class<T> valueClass);
  }

  AnalyticInputs(StreamExecutionEnvironment env, Map<Class<?>, DataStream<? extends SpecificRecord>> streams,
      PipelineConfig pipeline, WallClock clock, boolean streaming, Readers readers) {
    this.streaming = streaming;
    this.readers = readers;
    this.env = env;
    this.streams = streams;
    this.pipeline = pipeline;
    this.clock = clock;
    DataStream<SpecificRecord> inv = stream(InventoryRecord.class).map(r -> (SpecificRecord) r)
        .returns(AvroTypeInfo.anyOf(InventoryRecord.class, JobAllocations.class)).name("topology-inventory").uid("topology-inventory");
    DataStream<SpecificRecord> jobs = stream(JobAllocations.class).map(r -> (SpecificRecord) r)
        .returns(AvroTypeInfo.anyOf(InventoryRecord.class, JobAllocations.class)).name("topology-jobs").uid("topology-jobs");
    this.topologyRecords = inv.union(jobs);
    this.topology = topologyRecords.broadcast(Topology.INVENTORY, Topology.JOBS);
  }

  @SuppressWarnings("unchecked")
  public <T extends SpecificRecord> DataStream<T> stream(Class<T> c) {
    DataStream<? extends SpecificRecord> s = streams.get(c);
    if (s == null) {
      throw new IllegalArgumentException("no input stream of " + c.getSimpleName());
    }
    return (DataStream<T>) s;
  }

  /**
   * The records of a raw topic for a fast path ({@link ArrivalFunction}): validated like
   * {@link #stream}, with the same timestamps and watermarks, but read by source operators of their
   * own (uids {@code kafka-fast-<topic>}, {@code fast-valid-<topic>}) when
   * {@code pipeline.fast_path_own_sources} is set, so backpressure of the windowed stages on the
   * shared source does not delay them. One reader per topic, shared by every fast path.
   */
  @SuppressWarnings("unchecked")
  public <T extends SpecificRecord> DataStream<T> arrivals(Class<T> c) {
    if (!pipeline.fastPathOwnSources()) {
      return stream(c);
    }
    stream(c); // refuses a class that is no raw topic's
    return (DataStream<T>) arrivals.computeIfAbsent(c, k -> readers.open(c));
  }

  public DataStream<GpuSample> gpu() {
    return stream(GpuSample.class);
  }

  public DataStream<GpuXid> gpuXid() {
    return stream(GpuXid.class);
  }

  public DataStream<IbPortSample> ib() {
    return stream(IbPortSample.class);
  }

  public DataStream<PduReading> pdu() {
    return stream(PduReading.class);
  }

  public DataStream<CoolantReading> coolant() {
    return stream(CoolantReading.class);
  }

  public DataStream<CheckpointEvent> ckpt() {
    return stream(CheckpointEvent.class);
  }

  public DataStream<InventoryRecord> inventory() {
    return stream(InventoryRecord.class);
  }

  public DataStream<JobAllocations> jobs() {
    return stream(JobAllocations.class);
  }

  /**
   * Runs {@code a} inside the one node-keyed operator of fleet.gpu.v1 + fleet.gpu.xid.v1 (uid
   * {@code node-gpu}) and returns its records (timestamps: the tick's timer time, as from a
   * {@link TickedKeyedFunction}).
   */
  public <OUT> DataStream<OUT> gpuNodes(NodeAnalytic<?, ?, OUT, ?> a) {
    if (gpuNodes == null) {
      AvroTypeInfo<SpecificRecord> both = AvroTypeInfo.anyOf(GpuSample.class, GpuXid.class);
      DataStream<SpecificRecord> g = gpu().map(r -> (SpecificRecord) r).returns(both).name("node-gpu-in").uid("node-gpu-in");
      DataStream<SpecificRecord> x = gpuXid().map(r -> (SpecificRecord) r).returns(both).name("node-gpu-xid-in").uid("node-gpu-xid-in");
      gpuNodes = new NodeStage("node-gpu", g.union(x));
    }
    return gpuNodes.add(a);
  }

  /**
   * A stage that several analytics read (e.g. the storage tiers' state, read by {@code storage} and
   * {@code ckpt}): {@code build} runs once per run, for the first analytic that asks, and every later
   * one gets the same stream. Its operators' names and uids must not depend on who built it.
   */
  @SuppressWarnings("unchecked")
  public <T> T shared(String name, java.util.function.Supplier<T> build) {
    Object s = sharedStages.get(name);
    if (s == null) {
      s = build.get();
      sharedStages.put(name, s);
    }
    return (T) s;
  }

  /** Like {@link #gpuNodes}, for fleet.ib.v1 (uid {@code node-ib}). */
  public <OUT> DataStream<OUT> ibNodes(NodeAnalytic<?, ?, OUT, ?> a) {
    if (ibNodes == null) {
      DataStream<SpecificRecord> i = ib().map(r -> (SpecificRecord) r).returns(AvroTypeInfo.anyOf(IbPortSample.class))
          .name("node-ib-in").uid("node-ib-in");
      ibNodes = new NodeStage("node-ib", i);
    }
    return ibNodes.add(a);
  }

  /** The node operators built so far (their anomalies, late and rejected records go to the outputs). */
  List<SingleOutputStreamOperator<Void>> nodeOperators() {
    List<SingleOutputStreamOperator<Void>> l = new ArrayList<>();
    if (gpuNodes != null) {
      l.add(gpuNodes.op);
    }
    if (ibNodes != null) {
      l.add(ibNodes.op);
    }
    return l;
  }

  private final class NodeStage {
    final NodeFunction fn;
    final SingleOutputStreamOperator<Void> op;

    NodeStage(String name, DataStream<SpecificRecord> input) {
      fn = new NodeFunction(name, pipeline, clock);
      if (streaming) {
        // its output watermark waits for nodes catching up on a backlog (NodeOperator); the same
        // operator and state as process() builds, so its uid restores what that wrote
        op = input.keyBy(new NodeKeySelector<>(), Types.STRING).connect(topologyRecords.broadcast())
            .transform(name, Types.VOID, new NodeOperator(fn)).uid(name);
      } else {
        op = input.keyBy(new NodeKeySelector<>(), Types.STRING).connect(topology)
            .process(fn, Types.VOID).name(name).uid(name);
      }
    }

    <OUT> DataStream<OUT> add(NodeAnalytic<?, ?, OUT, ?> a) {
      fn.add(a);
      return op.getSideOutput(a.output());
    }
  }

  /**
   * How long a fast path ({@link ArrivalFunction#holdingForInventory}) holds a record whose node's
   * inventory has not reached it: {@code pipeline.inventory_hold_ms} in a live run, 0 in a bounded one.
   */
  public long inventoryHoldMs() {
    return streaming ? pipeline.inventoryHoldMs() : 0;
  }

  /** fleet.inventory.v1 and fleet.jobs.v1 as one broadcast; connect a keyed stream to it. */
  public BroadcastStream<SpecificRecord> topology() {
    return topology;
  }

  public StreamExecutionEnvironment env() {
    return env;
  }

  public PipelineConfig pipeline() {
    return pipeline;
  }

  /** Wall clock for dead-letter times (fixed in reproducible runs). */
  public WallClock clock() {
    return clock;
  }
}
