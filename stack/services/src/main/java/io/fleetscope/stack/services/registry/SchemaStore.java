package io.fleetscope.stack.services.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's state and rules, independent of HTTP. Every change is appended to the
 * {@link SchemaLog} before it is applied in memory and answered; at start the log is replayed,
 * so ids and versions survive a restart.
 *
 * <p>Log record format (key and value are JSON strings):
 * <pre>
 * schema version:  key   {"keytype":"SCHEMA","subject":"s","version":1}
 *                  value {"subject":"s","version":1,"id":7,"schema":"...","deleted":false}
 * compatibility:   key   {"keytype":"CONFIG","subject":"s"}   (subject null: the global level)
 *                  value {"compatibilityLevel":"BACKWARD"}     (null value: subject level removed)
 * </pre>
 * A soft delete rewrites each version of the subject with {@code "deleted":true}. Schema ids are
 * global: the same schema (Avro canonical text) gets the same id under every subject; new
 * schemas get the highest id seen so far plus one.
 */
public final class SchemaStore {
  private static final Logger log = LoggerFactory.getLogger(SchemaStore.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One version of a subject. */
  public record SchemaVersion(String subject, int version, int id, String schema, boolean deleted) {}

  private final SchemaLog store;
  private final Map<String, NavigableMap<Integer, SchemaVersion>> subjects = new TreeMap<>();
  private final Map<Integer, String> schemasById = new HashMap<>();
  private final Map<String, Integer> idsBySchema = new HashMap<>();
  private final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
  private CompatibilityLevel globalLevel;
  private final CompatibilityLevel defaultLevel;
  private int maxId;
  private boolean needsResync;

  public SchemaStore(SchemaLog store, CompatibilityLevel defaultLevel) {
    this.store = store;
    this.defaultLevel = defaultLevel;
    this.globalLevel = defaultLevel;
    store.replay(this::apply);
    log.info("registry replayed subjects={} schemas={} max_id={}", subjects.size(), schemasById.size(), maxId);
  }

  // ---- replay / apply ----------------------------------------------------------------------

  private void apply(String key, String value) {
    try {
      JsonNode k = JSON.readTree(key);
      String type = k.path("keytype").asText("");
      if ("SCHEMA".equals(type)) {
        if (value == null) {
          String subject = k.path("subject").asText();
          NavigableMap<Integer, SchemaVersion> vs = subjects.get(subject);
          if (vs != null) {
            vs.remove(k.path("version").asInt());
          }
          return;
        }
        JsonNode v = JSON.readTree(value);
        applyVersion(new SchemaVersion(v.path("subject").asText(), v.path("version").asInt(),
            v.path("id").asInt(), v.path("schema").asText(), v.path("deleted").asBoolean(false)));
      } else if ("CONFIG".equals(type)) {
        String subject = k.hasNonNull("subject") ? k.get("subject").asText() : null;
        CompatibilityLevel level = value == null ? null
            : CompatibilityLevel.parse(JSON.readTree(value).path("compatibilityLevel").asText());
        applyConfig(subject, level);
      } else {
        log.warn("registry skipped log record reason=unknown-keytype key={}", key);
      }
    } catch (Exception e) {
      log.warn("registry skipped log record reason=\"{}\" key={}", e.getMessage(), key);
    }
  }

  private void applyVersion(SchemaVersion v) {
    subjects.computeIfAbsent(v.subject(), s -> new TreeMap<>()).put(v.version(), v);
    schemasById.putIfAbsent(v.id(), v.schema());
    idsBySchema.putIfAbsent(v.schema(), v.id());
    maxId = Math.max(maxId, v.id());
  }

  private void applyConfig(String subject, CompatibilityLevel level) {
    if (subject == null) {
      globalLevel = level == null ? defaultLevel : level;
    } else if (level == null) {
      subjectLevels.remove(subject);
    } else {
      subjectLevels.put(subject, level);
    }
  }

  private void append(ObjectNode key, ObjectNode value) {
    resyncIfNeeded();
    try {
      store.append(JSON.writeValueAsString(key), value == null ? null : JSON.writeValueAsString(value));
    } catch (RegistryException e) {
      throw e;
    } catch (Exception e) {
      // the write may still have landed (a lost ack): rebuild from the log before the next change,
      // so an id is never handed out twice
      needsResync = true;
      throw RegistryException.storeError(e.getMessage());
    }
  }

  private void resyncIfNeeded() {
    if (!needsResync) {
      return;
    }
    try {
      subjects.clear();
      schemasById.clear();
      idsBySchema.clear();
      subjectLevels.clear();
      globalLevel = defaultLevel;
      int keepMax = maxId;
      maxId = 0;
      store.replay(this::apply);
      maxId = Math.max(maxId, keepMax);
      needsResync = false;
      log.info("registry resynced subjects={} schemas={} max_id={}", subjects.size(), schemasById.size(), maxId);
    } catch (RuntimeException e) {
      throw RegistryException.storeError("cannot re-read the schema log: " + e.getMessage());
    }
  }

  private void write(SchemaVersion v) {
    ObjectNode key = JSON.createObjectNode().put("keytype", "SCHEMA").put("subject", v.subject()).put("version", v.version());
    ObjectNode value = JSON.createObjectNode().put("subject", v.subject()).put("version", v.version())
        .put("id", v.id()).put("schema", v.schema()).put("deleted", v.deleted());
    append(key, value);
    applyVersion(v);
  }

  // ---- schema operations --------------------------------------------------------------------

  /** Parses and canonicalises an Avro schema; 422/42201 when it is not a valid Avro schema. */
  public static Schema parse(String schemaText, String schemaType) {
    if (schemaType != null && !schemaType.isBlank() && !"AVRO".equalsIgnoreCase(schemaType)) {
      throw RegistryException.invalidSchema("schemaType " + schemaType + " is not supported (only AVRO)");
    }
    if (schemaText == null || schemaText.isBlank()) {
      throw RegistryException.invalidSchema("empty schema");
    }
    try {
      return new Schema.Parser().parse(schemaText);
    } catch (SchemaParseException | NullPointerException | IllegalArgumentException e) {
      throw RegistryException.invalidSchema(e.getMessage());
    } catch (RuntimeException e) {
      throw RegistryException.invalidSchema(e.toString());
    }
  }

  /** Registers a schema under a subject; the same schema again returns the same id. */
  public synchronized int register(String subject, String schemaText, String schemaType) {
    resyncIfNeeded();
    Schema schema = parse(schemaText, schemaType);
    String canonical = schema.toString();
    Optional<SchemaVersion> existing = live(subject).stream().filter(v -> v.schema().equals(canonical)).findFirst();
    if (existing.isPresent()) {
      return existing.get().id();
    }
    List<String> reasons = level(subject).check(schema, liveSchemas(subject));
    if (!reasons.isEmpty()) {
      throw RegistryException.incompatible(subject, reasons);
    }
    int id = idsBySchema.getOrDefault(canonical, maxId + 1);
    NavigableMap<Integer, SchemaVersion> all = subjects.get(subject);
    int version = all == null || all.isEmpty() ? 1 : all.lastKey() + 1;
    write(new SchemaVersion(subject, version, id, canonical, false));
    log.info("registry registered subject={} version={} id={}", subject, version, id);
    return id;
  }

  /** The live version of {@code subject} holding this schema (POST /subjects/{s}). */
  public synchronized SchemaVersion lookup(String subject, String schemaText, String schemaType) {
    List<SchemaVersion> live = live(subject);
    if (live.isEmpty()) {
      throw RegistryException.subjectNotFound(subject);
    }
    String canonical = parse(schemaText, schemaType).toString();
    return live.stream().filter(v -> v.schema().equals(canonical)).findFirst()
        .orElseThrow(() -> RegistryException.schemaNotFound("for subject '" + subject + "'"));
  }

  /** Subjects with at least one live version, sorted. */
  public synchronized List<String> subjects() {
    return subjects(false);
  }

  /** Subjects with at least one live version (or any version, soft-deleted included), sorted. */
  public synchronized List<String> subjects(boolean includeDeleted) {
    List<String> out = new ArrayList<>();
    subjects.forEach((s, vs) -> {
      if (vs.values().stream().anyMatch(v -> includeDeleted || !v.deleted())) {
        out.add(s);
      }
    });
    return out;
  }

  /** Live version numbers of a subject; 40401 when it has none. */
  public synchronized List<Integer> versions(String subject) {
    return versions(subject, false);
  }

  /** Version numbers of a subject (soft-deleted ones too when asked); 40401 when none. */
  public synchronized List<Integer> versions(String subject, boolean includeDeleted) {
    List<SchemaVersion> vs = includeDeleted ? all(subject) : live(subject);
    if (vs.isEmpty()) {
      throw RegistryException.subjectNotFound(subject);
    }
    return vs.stream().map(SchemaVersion::version).toList();
  }

  /** One live version ("latest", "-1" or a number >= 1); 40401 / 40402 / 42202. */
  public synchronized SchemaVersion version(String subject, String versionText) {
    return version(subject, versionText, false);
  }

  /** One version, soft-deleted ones too when asked; 40401 / 40402 / 42202. */
  public synchronized SchemaVersion version(String subject, String versionText, boolean includeDeleted) {
    Integer v = parseVersion(versionText);
    List<SchemaVersion> live = includeDeleted ? all(subject) : live(subject);
    if (live.isEmpty()) {
      throw RegistryException.subjectNotFound(subject);
    }
    if (v == null) {
      return live.get(live.size() - 1);
    }
    return live.stream().filter(x -> x.version() == v).findFirst()
        .orElseThrow(() -> RegistryException.versionNotFound(subject, v));
  }

  /** The schema with this id; 40403 when unknown. */
  public synchronized String schemaById(int id) {
    String s = schemasById.get(id);
    if (s == null) {
      throw RegistryException.schemaNotFound(Integer.toString(id));
    }
    return s;
  }

  /** Every (subject, version) using this schema id, deleted ones included; 40403 when unknown. */
  public synchronized List<SchemaVersion> usesOf(int id) {
    schemaById(id);
    List<SchemaVersion> out = new ArrayList<>();
    subjects.values().forEach(vs -> vs.values().stream().filter(v -> v.id() == id && !v.deleted()).forEach(out::add));
    return out;
  }

  /** Soft-deletes every live version of a subject; returns their numbers; 40401 when none. */
  public synchronized List<Integer> deleteSubject(String subject) {
    List<SchemaVersion> live = live(subject);
    if (live.isEmpty()) {
      throw RegistryException.subjectNotFound(subject);
    }
    List<Integer> out = new ArrayList<>();
    for (SchemaVersion v : live) {
      write(new SchemaVersion(v.subject(), v.version(), v.id(), v.schema(), true));
      out.add(v.version());
    }
    log.info("registry deleted subject={} versions={}", subject, out);
    return out;
  }

  /**
   * Compatibility of a schema with a subject's version. A number checks that version only;
   * "latest" checks what a registration would be checked against (the latest, or every live
   * version for transitive levels); a subject without versions is compatible with anything.
   */
  public synchronized List<String> checkCompatibility(String subject, String versionText, String schemaText,
      String schemaType) {
    Integer v = parseVersion(versionText);
    Schema schema = parse(schemaText, schemaType);
    List<SchemaVersion> live = live(subject);
    if (v == null) {
      return level(subject).check(schema, liveSchemas(subject));
    }
    if (live.isEmpty()) {
      throw RegistryException.subjectNotFound(subject);
    }
    SchemaVersion target = live.stream().filter(x -> x.version() == v).findFirst()
        .orElseThrow(() -> RegistryException.versionNotFound(subject, v));
    return level(subject).check(schema, List.of(new Schema.Parser().parse(target.schema())));
  }

  // ---- config -------------------------------------------------------------------------------

  public synchronized CompatibilityLevel globalLevel() {
    return globalLevel;
  }

  /** The subject-level setting, if one is set. */
  public synchronized Optional<CompatibilityLevel> subjectLevel(String subject) {
    return Optional.ofNullable(subjectLevels.get(subject));
  }

  /** Sets the global level (subject null) or a subject's level. */
  public synchronized CompatibilityLevel setLevel(String subject, CompatibilityLevel level) {
    ObjectNode key = JSON.createObjectNode().put("keytype", "CONFIG");
    if (subject == null) {
      key.putNull("subject");
    } else {
      key.put("subject", subject);
    }
    append(key, JSON.createObjectNode().put("compatibilityLevel", level.name()));
    applyConfig(subject, level);
    log.info("registry config subject={} compatibility={}", subject == null ? "(global)" : subject, level);
    return level;
  }

  /** Removes a subject's level (falls back to global); returns the removed level; 40408 if none. */
  public synchronized CompatibilityLevel deleteSubjectLevel(String subject) {
    CompatibilityLevel prev = subjectLevels.get(subject);
    if (prev == null) {
      throw RegistryException.subjectLevelConfigNotFound(subject);
    }
    append(JSON.createObjectNode().put("keytype", "CONFIG").put("subject", subject), null);
    applyConfig(subject, null);
    return prev;
  }

  private CompatibilityLevel level(String subject) {
    return subjectLevels.getOrDefault(subject, globalLevel);
  }

  private List<SchemaVersion> all(String subject) {
    NavigableMap<Integer, SchemaVersion> vs = subjects.get(subject);
    return vs == null ? List.of() : List.copyOf(vs.values());
  }

  private List<SchemaVersion> live(String subject) {
    NavigableMap<Integer, SchemaVersion> vs = subjects.get(subject);
    if (vs == null) {
      return List.of();
    }
    return vs.values().stream().filter(v -> !v.deleted()).toList();
  }

  private List<Schema> liveSchemas(String subject) {
    return live(subject).stream().map(v -> new Schema.Parser().parse(v.schema())).toList();
  }

  /** null for latest; 42202 for anything that is not "latest", -1 or 1..2^31-1. */
  static Integer parseVersion(String text) {
    if (text == null || text.equalsIgnoreCase("latest")) {
      return null;
    }
    try {
      int v = Integer.parseInt(text);
      if (v == -1) {
        return null;
      }
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // falls through
    }
    throw RegistryException.invalidVersion(text);
  }
}
