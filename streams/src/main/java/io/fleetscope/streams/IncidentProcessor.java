package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.JobImpact;
import io.fleetscope.schemas.contract.AlertAnnotations;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.schemas.contract.AlertStatus;
import io.fleetscope.streams.jobs.JobImpactLine;
import io.fleetscope.streams.jobs.JobImpacts;
import io.fleetscope.streams.jobs.LastCheckpointProcessor;
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
 *
 * <p>Each firing incident carries the training jobs its blast radius touches ({@link JobImpactSource}:
 * the {@value #JOBS} GlobalKTable and the last completed checkpoints), with the one-line summary in
 * the {@code jobs} annotation. A change of those jobs (GPUs, size, a newer checkpoint) is a change of
 * the incident; the checkpoint's age growing with the clock is not.
 */
public final class IncidentProcessor extends ContextualProcessor<String, Anomaly, String, Alert> {
  public static final String MEMBERS = "alert-members";
  public static final String INCIDENTS = "incidents";
  /** The GlobalKTable store of fleet.jobs.v1. */
  public static final String JOBS = "jobs";
  private static final Logger log = LoggerFactory.getLogger(IncidentProcessor.class);
  private static final StringSerializer KEYS = new StringSerializer();

  private final IncidentGrouper grouper;
  private final String inventoryStore;
  private final Duration retention;
  private KeyValueStore<String, Anomaly> members;
  private KeyValueStore<String, Alert> incidents;
  private InventoryLookup inventory;
  private JobImpactSource jobs;
  /** Decoded copies of the two stores per cluster (loaded from the stores on first use), so a regroup decodes nothing. */
  private final Map<String, Map<String, Anomaly>> memberCache = new HashMap<>();
  private final Map<String, Map<String, Alert>> incidentCache = new HashMap<>();

  private final long inventoryCacheMs;

  public IncidentProcessor(IncidentGrouper grouper, String inventoryStore, Duration retention, Duration inventoryCache) {
    this.grouper = grouper;
    this.inventoryStore = inventoryStore;
    this.retention = retention;
    this.inventoryCacheMs = inventoryCache.toMillis();
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
    inventory = InventoryLookup.cached(InventoryLookup.of(inv), inventoryCacheMs, context::currentSystemTimeMs);
    jobs = new JobImpactSource(context.getStateStore(JOBS), context.getStateStore(LastCheckpointProcessor.STORE),
        inventoryCacheMs, context::currentSystemTimeMs);
    context.schedule(Duration.ofMinutes(1), PunctuationType.WALL_CLOCK_TIME, this::purgeResolved);
  }

  @Override
  public void process(Record<String, Anomaly> record) {
    Anomaly a = record.value();
    String cluster = a.getLabels().get(AlertLabels.CLUSTER);
    String k = key(cluster, a.getFingerprint());
    Map<String, Anomaly> firing = membersOf(cluster);
    if (AlertStatus.isFiring(a.getStatus())) {
      members.put(k, a);
      firing.put(a.getFingerprint(), a);
    } else {
      members.delete(k);
      firing.remove(a.getFingerprint());
    }
    long changeTs = AlertStatus.isResolved(a.getStatus()) && a.getEndsAt() != null ? a.getEndsAt() : record.timestamp();
    String name = a.getLabels().get(AlertLabels.ALERTNAME);
    if (grouper.alwaysAlone(name) || (grouper.gpuMember(name) && !hasGroupedIncident(cluster))) {
      regroupOne(cluster, a, record.timestamp(), changeTs);
    } else {
      regroup(cluster, record.timestamp(), changeTs);
    }
  }

  private boolean hasGroupedIncident(String cluster) {
    for (Alert i : incidentsOf(cluster).values()) {
      if (AlertStatus.isFiring(i.getStatus()) && i.getAnnotations().containsKey(IncidentGrouper.ROOT_CAUSE_FP)) {
        return true;
      }
    }
    for (Anomaly m : membersOf(cluster).values()) {
      if (!grouper.alwaysAlone(m.getLabels().get(AlertLabels.ALERTNAME)) && !grouper.gpuMember(m.getLabels().get(AlertLabels.ALERTNAME))) {
        return true; // a cause (or port alert) is firing
      }
    }
    return false;
  }

  /**
   * The fast path, same result as {@link #regroup} when the anomaly can only be an incident of its own:
   * only its incident is reconciled, so a cluster with thousands of alerts costs O(1) per change.
   */
  private void regroupOne(String cluster, Anomaly a, long ts, long changeTs) {
    Map<String, IncidentGrouper.Incident> wanted = new HashMap<>();
    if (AlertStatus.isFiring(a.getStatus())) {
      IncidentGrouper.Incident single = grouper.single(a, inventory);
      wanted.put(single.fingerprint(), single);
    }
    Map<String, Alert> existing = new HashMap<>();
    Alert old = incidentsOf(cluster).get(a.getFingerprint());
    if (old != null) {
      existing.put(old.getFingerprint(), old);
    }
    reconcile(cluster, wanted, existing, ts, changeTs);
  }

  private Map<String, Anomaly> membersOf(String cluster) {
    return memberCache.computeIfAbsent(cluster, c -> {
      Map<String, Anomaly> m = new HashMap<>();
      try (KeyValueIterator<String, Anomaly> it = members.prefixScan(c + "|", KEYS)) {
        it.forEachRemaining(kv -> m.put(kv.value.getFingerprint(), kv.value));
      }
      return m;
    });
  }

  private Map<String, Alert> incidentsOf(String cluster) {
    return incidentCache.computeIfAbsent(cluster, c -> {
      Map<String, Alert> m = new HashMap<>();
      try (KeyValueIterator<String, Alert> it = incidents.prefixScan(c + "|", KEYS)) {
        it.forEachRemaining(kv -> m.put(kv.value.getFingerprint(), kv.value));
      }
      return m;
    });
  }

  private void regroup(String cluster, long ts, long changeTs) {
    Map<String, Alert> existing = new HashMap<>(incidentsOf(cluster));
    List<Alert> previous = new ArrayList<>();
    for (Alert a : existing.values()) {
      if (AlertStatus.isFiring(a.getStatus()) && a.getAnnotations().containsKey(IncidentGrouper.ROOT_CAUSE_FP)) {
        previous.add(a);
      }
    }
    Map<String, IncidentGrouper.Incident> wanted = grouper.group(membersOf(cluster).values(), inventory, previous);
    reconcile(cluster, wanted, existing, ts, changeTs);
  }

  /** Emits what differs between the {@code wanted} incidents and the {@code existing} ones. */
  private void reconcile(String cluster, Map<String, IncidentGrouper.Incident> wanted, Map<String, Alert> existing,
                         long ts, long changeTs) {
    for (IncidentGrouper.Incident w : wanted.values()) {
      Alert old = existing.get(w.fingerprint());
      boolean wasFiring = old != null && AlertStatus.isFiring(old.getStatus());
      List<JobImpact> touched = jobs.of(cluster, w.blastRadius(), ts);
      if (wasFiring && sameContent(old, w) && JobImpacts.sameJobs(old.getJobs(), touched)) {
        continue;
      }
      Map<String, String> annotations = w.annotations();
      String line = JobImpactLine.of(touched);
      if (line != null) {
        annotations = new java.util.TreeMap<>(annotations);
        annotations.put(AlertAnnotations.JOBS, line);
      }
      Alert next = Alert.newBuilder()
          .setTs(ts)
          .setFingerprint(w.fingerprint())
          .setStatus(AlertStatus.FIRING)
          .setLabels(w.labels())
          .setAnnotations(annotations)
          .setStartsAt(wasFiring ? old.getStartsAt() : w.startsAt())
          .setEndsAt(null)
          .setMembers(w.members())
          .setBlastRadius(w.blastRadius())
          .setRootCause(w.rootCause())
          .setVersion(old == null || old.getVersion() == null ? 1L : old.getVersion() + 1)
          .setJobs(touched.isEmpty() ? null : touched)
          .build();
      emit(cluster, next, wasFiring ? "changed" : "firing");
    }
    for (Alert old : existing.values()) {
      if (AlertStatus.isFiring(old.getStatus()) && !wanted.containsKey(old.getFingerprint())) {
        Alert resolved = Alert.newBuilder(old)
            .setTs(ts)
            .setStatus(AlertStatus.RESOLVED)
            .setEndsAt(Math.max(changeTs, old.getStartsAt()))
            .setVersion(old.getVersion() == null ? 1L : old.getVersion() + 1)
            .build();
        emit(cluster, resolved, "resolved");
      }
    }
  }

  private static boolean sameContent(Alert a, IncidentGrouper.Incident b) {
    Map<String, String> annotations = a.getAnnotations();
    if (annotations.containsKey(AlertAnnotations.JOBS) && !b.annotations().containsKey(AlertAnnotations.JOBS)) {
      annotations = new HashMap<>(annotations);
      annotations.remove(AlertAnnotations.JOBS); // compared through the jobs themselves
    }
    return a.getMembers().equals(b.members()) && a.getLabels().equals(b.labels()) && annotations.equals(b.annotations())
        && java.util.Objects.equals(a.getBlastRadius(), b.blastRadius()) && java.util.Objects.equals(a.getRootCause(), b.rootCause());
  }

  private void emit(String cluster, Alert alert, String change) {
    incidents.put(key(cluster, alert.getFingerprint()), alert);
    incidentsOf(cluster).put(alert.getFingerprint(), alert);
    int gpus = alert.getBlastRadius() == null ? 0 : alert.getBlastRadius().getGpus();
    int nodes = alert.getBlastRadius() == null ? 0 : alert.getBlastRadius().getNodes();
    List<JobImpact> touched = alert.getJobs() == null ? List.of() : alert.getJobs();
    log.info("incident {} fingerprint={} alertname={} cluster={} members={} gpus={} nodes={} jobs={} gpu_hours_at_risk={} version={}",
        change, alert.getFingerprint(), alert.getLabels().get(AlertLabels.ALERTNAME), cluster, alert.getMembers().size(), gpus,
        nodes, touched.size(), Math.round(touched.stream().mapToDouble(j -> j.getGpuHoursAtRisk() == null ? 0 : j.getGpuHoursAtRisk()).sum()),
        alert.getVersion());
    context().forward(new Record<>(alert.getFingerprint(), alert, alert.getTs()));
  }

  private void purgeResolved(long now) {
    List<String> old = new ArrayList<>();
    try (KeyValueIterator<String, Alert> it = incidents.all()) {
      while (it.hasNext()) {
        KeyValue<String, Alert> kv = it.next();
        Long ends = kv.value.getEndsAt();
        if (AlertStatus.isResolved(kv.value.getStatus()) && ends != null && now - ends > retention.toMillis()) {
          old.add(kv.key);
        }
      }
    }
    old.forEach(incidents::delete);
    if (!old.isEmpty()) {
      incidentCache.clear(); // reloaded from the store on next use
      log.info("incidents purged count={} retention_h={}", old.size(), retention.toHours());
    }
  }
}
