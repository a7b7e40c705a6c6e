package io.fleetscope.loadgen.bench.chaos;

import io.fleetscope.loadgen.LoadgenMain;
import io.fleetscope.loadgen.output.KafkaSink;
import io.fleetscope.loadgen.output.RecordSink;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.serde.RestSchemaRegistryClient;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
  private final AtomicLong generated = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile Throwable error;

  public ChaosFleet(FleetSimulator sim, String kafka, String registry) {
    this.sim = sim;
    this.kafka = kafka;
    this.registry = registry;
  }

  @Override
  public void run() {
    try (Producer<String, SpecificRecord> p = KafkaSink.producer(kafka, new RestSchemaRegistryClient(registry))) {
      LoadgenMain.emit(sim, new AckingSink(p), true);
      p.flush();
    } catch (RuntimeException e) {
      error = e;
      log.warn("chaos fleet stopped reason=\"{}\"", e.toString());
    }
    log.info("chaos fleet done generated={} acked={} failed={}", generated.get(), acked.total(), failed.get());
  }

  public RecordTally acked() {
    return acked;
  }

  public long generated() {
    return generated.get();
  }

  public long failed() {
    return failed.get();
  }

  /** What stopped the fleet early, or null. */
  public Throwable error() {
    return error;
  }

  private final class AckingSink implements RecordSink {
    private final Producer<String, SpecificRecord> producer;

    AckingSink(Producer<String, SpecificRecord> producer) {
      this.producer = producer;
    }

    @Override
    public void accept(SimRecord r) {
      generated.incrementAndGet();
      RecordId id = RecordId.of(r.topic(), r.value());
      Long ts = r.value().getSchema().getField("ts") == null ? null
          : (Long) r.value().get(r.value().getSchema().getField("ts").pos());
      producer.send(new ProducerRecord<>(r.topic(), null, ts, r.key(), r.value()), (md, ex) -> {
        if (ex == null) {
          acked.add(id);
        } else if (failed.incrementAndGet() <= 10) {
          log.warn("chaos fleet send failed topic={} key={} reason=\"{}\"", r.topic(), r.key(), ex.toString());
        }
      });
    }

    @Override
    public void flush() {
      producer.flush();
    }

    @Override
    public long failed() {
      return failed.get();
    }

    @Override
    public void close() {
      // the fleet closes the producer
    }
  }
}
