package io.fleetscope.loadgen.bench.chaos;

import io.fleetscope.loadgen.LoadgenMain;
import io.fleetscope.loadgen.output.KafkaSink;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.serde.RestSchemaRegistryClient;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chaos run's fleet: the simulator paced at 1x into Kafka with the loadgen's producer
 * (idempotent, acks=all), keeping the id of every record the broker acknowledged. A record whose
 * send failed is counted, not retried: the producer already retried it for its delivery timeout.
 */
public final class ChaosFleet implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(ChaosFleet.class);

  private final FleetSimulator sim;
  private final String kafka;
  private final String registry;
  private final RecordTally acked = new RecordTally();
  private volatile KafkaSink sink;
  private volatile Throwable error;

  public ChaosFleet(FleetSimulator sim, String kafka, String registry) {
    this.sim = sim;
    this.kafka = kafka;
    this.registry = registry;
  }

  @Override
  public void run() {
    try (Producer<String, SpecificRecord> p = KafkaSink.producer(kafka, new RestSchemaRegistryClient(registry))) {
      sink = new KafkaSink(p, r -> acked.add(RecordId.of(r.topic(), r.value())));
      LoadgenMain.emit(sim, sink, true);
      p.flush();
    } catch (RuntimeException e) {
      error = e;
      log.warn("chaos fleet stopped reason=\"{}\"", e.toString());
    }
    log.info("chaos fleet done generated={} acked={} failed={}", generated(), acked.total(), failed());
  }

  public RecordTally acked() {
    return acked;
  }

  /** Records sent so far, acknowledged or failed (those still in flight not counted). */
  public long generated() {
    KafkaSink s = sink;
    return s == null ? 0 : s.sent() + s.failed();
  }

  public long failed() {
    KafkaSink s = sink;
    return s == null ? 0 : s.failed();
  }

  /** What stopped the fleet early, or null. */
  public Throwable error() {
    return error;
  }
}
