package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 2, keyed by cluster: keeps the effective firing anomalies of each cluster in
 * {@value #MEMBERS} ({@code cluster|fingerprint}), regroups the cluster with {@link IncidentGrouper}
 * on every change and emits each incident whose content changed: new (firing, version 1),
 * changed (firing, version + 1) or gone (resolved with ends_at, version + 1). Incidents are kept in
 * {@value #INCIDENTS} ({@code cluster|incident fingerprint}); resolved ones stay for the retention so
 * a returning incident keeps counting its version.
 */
public final class IncidentProcessor extends ContextualProcessor<String, Anomaly, String, Alert> {
  public static final String MEMBERS = "alert-members";
  public static final String INCIDENTS = "incidents";
  private static final Logger log = LoggerFactory.getLogger(IncidentProcessor.class);
  private static final StringSerializer KEYS = new StringSerializer();

  private final IncidentGrouper grouper;
  private final String inventoryStore;
  private final Duration retention;
  private KeyValueStore<String, Anomaly> members;
  private KeyValueStore<String, Alert> incidents;
  private InventoryLookup inventory;

  public IncidentProcessor(IncidentGrouper grouper, String inventoryStore, Duration retention) {
    this.grouper = grouper;
    this.inventoryStore = inventoryStore;
    this.retention = retention;
  }

  public static String key(String cluster, String fingerprint) {
    return cluster + "|" + fingerprint;
  }

  @Override
  public void init(ProcessorContext<String, Alert> context) {
    super.init(context);
    members = context.getStateStore(MEMBERS);
    incidents = context.getStateStore(INCIDENTS);
    ReadOnlyKeyValueStore<String, ?> inv = context.getStateStore(inventoryStore);
    inventory = InventoryLookup.of(inv);
    context.schedule(Duration.ofMinutes(1), PunctuationType.WALL_CLOCK_TIME, this::purgeResolved);
  }

  @Override
  public void process(Record<String, Anomaly> record) {
    Anomaly a = record.value();
    String cluster = a.getLabels().get("cluster");
    String k = key(cluster, a.getFingerprint());
    if (AnomalyValidator.FIRING.equals(a.getStatus())) {
      members.put(k, a);
    } else {
      members.delete(k);
    }
    long changeTs = AnomalyValidator.RESOLVED.equals(a.getStatus()) && a.getEndsAt() != null ? a.getEndsAt() : record.timestamp();
    regroup(cluster, record.timestamp(), changeTs);
  }

  private void regroup(String cluster, long ts, long changeTs) {
    List<Anomaly> firing = new ArrayList<>();
    String prefix = cluster + "|";
    try (KeyValueIterator<String, Anomaly> it = members.prefixScan(prefix, KEYS)) {
      while (it.hasNext()) {
        firing.add(it.next().value);
      }
    }
    Map<String, Alert> existing = new HashMap<>();
    try (KeyValueIterator<String, Alert> it = incidents.prefixScan(prefix, KEYS)) {
      while (it.hasNext()) {
        KeyValue<String, Alert> kv = it.next();
        existing.put(kv.value.getFingerprint(), kv.value);
      }
    }
    Map<String, IncidentGrouper.Incident> wanted = grouper.group(firing, inventory, existing.values());
    for (IncidentGrouper.Incident w : wanted.values()) {
      Alert old = existing.get(w.fingerprint());
      boolean wasFiring = old != null && AnomalyValidator.FIRING.equals(old.getStatus());
      Alert next = Alert.newBuilder()
          .setTs(ts)
          .setFingerprint(w.fingerprint())
          .setStatus(AnomalyValidator.FIRING)
          .setLabels(w.labels())
          .setAnnotations(w.annotations())
          .setStartsAt(wasFiring ? old.getStartsAt() : w.startsAt())
          .setEndsAt(null)
          .setMembers(w.members())
          .setBlastRadius(w.blastRadius())
          .setRootCause(w.rootCause())
          .setVersion(old == null || old.getVersion() == null ? 1L : old.getVersion() + 1)
          .build();
      if (wasFiring && sameContent(old, next)) {
        continue;
      }
      emit(cluster, next, wasFiring ? "changed" : "firing");
    }
    for (Alert old : existing.values()) {
      if (AnomalyValidator.FIRING.equals(old.getStatus()) && !wanted.containsKey(old.getFingerprint())) {
        Alert resolved = Alert.newBuilder(old)
            .setTs(ts)
            .setStatus(AnomalyValidator.RESOLVED)
            .setEndsAt(Math.max(changeTs, old.getStartsAt()))
            .setVersion(old.getVersion() == null ? 1L : old.getVersion() + 1)
            .build();
        emit(cluster, resolved, "resolved");
      }
    }
  }

  private static boolean sameContent(Alert a, Alert b) {
    return a.getLabels().equals(b.getLabels()) && a.getAnnotations().equals(b.getAnnotations())
        && a.getMembers().equals(b.getMembers()) && java.util.Objects.equals(a.getBlastRadius(), b.getBlastRadius())
        && java.util.Objects.equals(a.getRootCause(), b.getRootCause());
  }

  private void emit(String cluster, Alert alert, String change) {
    incidents.put(key(cluster, alert.getFingerprint()), alert);
    int gpus = alert.getBlastRadius() == null ? 0 : alert.getBlastRadius().getGpus();
    int nodes = alert.getBlastRadius() == null ? 0 : alert.getBlastRadius().getNodes();
    log.info("incident {} fingerprint={} alertname={} cluster={} members={} gpus={} nodes={} version={}", change,
        alert.getFingerprint(), alert.getLabels().get("alertname"), cluster, alert.getMembers().size(), gpus, nodes,
        alert.getVersion());
    context().forward(new Record<>(alert.getFingerprint(), alert, alert.getTs()));
  }

  private void purgeResolved(long now) {
    List<String> old = new ArrayList<>();
    try (KeyValueIterator<String, Alert> it = incidents.all()) {
      while (it.hasNext()) {
        KeyValue<String, Alert> kv = it.next();
        Long ends = kv.value.getEndsAt();
        if (AnomalyValidator.RESOLVED.equals(kv.value.getStatus()) && ends != null && now - ends > retention.toMillis()) {
          old.add(kv.key);
        }
      }
    }
    old.forEach(incidents::delete);
    if (!old.isEmpty()) {
      log.info("incidents purged count={} retention_h={}", old.size(), retention.toHours());
    }
  }
}
