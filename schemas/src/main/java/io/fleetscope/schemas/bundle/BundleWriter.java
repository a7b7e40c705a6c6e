package io.fleetscope.schemas.bundle;

import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Writes a bundle directory: one Avro container file per topic under {@code records/} (the writer
 * schema embedded, blocks compressed with deflate, the algorithm of gzip, so any Avro tool reads them),
 * the same schema as {@code schemas/TOPIC.avsc}, text files (labels, settings) as given, and
 * {@code manifest.json} last, with the count, size and SHA-256 of every file. Not thread-safe.
 */
public final class BundleWriter implements AutoCloseable {
  /** Deflate level of the container files' blocks (6: gzip's default). */
  public static final int DEFLATE_LEVEL = 6;
  public static final String TOPIC_META = "fleetscope.topic";

  private final Path dir;
  private final Instant from;
  private final Instant to;
  private final Map<String, List<String>> scope;
  private final String incident;
  private final Map<String, TopicFile> topics = new LinkedHashMap<>();
  private final List<BundleFile> texts = new ArrayList<>();
  private Manifest finished;

  private BundleWriter(Path dir, Instant from, Instant to, Map<String, List<String>> scope, String incident) {
    this.dir = dir;
    this.from = from;
    this.to = to;
    this.scope = scope;
    this.incident = incident;
  }

  /** A writer into {@code dir} (created; it must not hold a bundle already) for the range [from, to). */
  public static BundleWriter create(Path dir, Instant from, Instant to, Map<String, List<String>> scope, String incident)
      throws IOException {
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException("the bundle's from (" + from + ") must be before its to (" + to + ")");
    }
    if (Files.exists(dir.resolve(Manifest.FILE))) {
      throw new IllegalArgumentException(dir + " already holds a bundle (" + Manifest.FILE + "); choose another --out");
    }
    Files.createDirectories(dir.resolve("records"));
    Files.createDirectories(dir.resolve("schemas"));
    return new BundleWriter(dir, from, to, scope, incident);
  }

  /** The file of {@code topic}, opened on first use; every record appended to it must have the topic's schema. */
  public TopicFile topic(String topic, BundleRole role, RecordSource source, String keyField) throws IOException {
    TopicFile f = topics.get(topic);
    if (f == null) {
      f = new TopicFile(topic, role, source, keyField);
      topics.put(topic, f);
    } else if (f.role != role || f.source != source) {
      throw new IllegalArgumentException("topic " + topic + " already opened as " + f.role.id() + " from " + f.source.id());
    }
    return f;
  }

  /** Adds a text file (ground-truth labels, analytics settings) under {@code name}. */
  public void text(String name, BundleRole role, String content) throws IOException {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content, StandardCharsets.UTF_8);
    long lines = content.lines().filter(l -> !l.isBlank()).count();
    texts.add(new BundleFile(name, null, role, RecordSource.FILE, null, lines, Files.size(p), sha256(p), null, null));
  }

  /** Closes every file and writes the manifest; the manifest. */
  public Manifest finish() throws IOException {
    if (finished != null) {
      return finished;
    }
    List<BundleFile> files = new ArrayList<>();
    for (TopicFile f : topics.values()) {
      files.add(f.close());
    }
    files.addAll(texts);
    finished = new Manifest(Manifest.FORMAT, version(), Instant.now(), from, to, scope, incident, files);
    Files.writeString(dir.resolve(Manifest.FILE), finished.toJson(), StandardCharsets.UTF_8);
    return finished;
  }

  @Override
  public void close() throws IOException {
    finish();
  }

  /** The FleetScope version these classes were built as. */
  public static String version() {
    try (InputStream in = BundleWriter.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Hex CRC-64-AVRO fingerprint of the schema's parsing canonical form. */
  public static String fingerprint(Schema s) {
    return String.format("%016x", SchemaNormalization.parsingFingerprint64(s));
  }

  static String sha256(Path p) throws IOException {
    try (DigestInputStream in = new DigestInputStream(Files.newInputStream(p), MessageDigest.getInstance("SHA-256"))) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
      return HexFormat.of().formatHex(in.getMessageDigest().digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in this JVM", e);
    }
  }

  /** The container file of one topic. */
  public final class TopicFile {
    private final String topic;
    private final BundleRole role;
    private final RecordSource source;
    private final String keyField;
    private final Schema schema;
    private final String name;
    private final DataFileWriter<SpecificRecord> out;
    private Integer schemaId;
    private List<Integer> writerSchemaIds = List.of();
    private long records;

    private TopicFile(String topic, BundleRole role, RecordSource source, String keyField) throws IOException {
      this.topic = topic;
      this.role = role;
      this.source = source;
      this.keyField = keyField;
      this.schema = Topics.require(topic).schema();
      this.name = "records/" + topic + ".avro";
      Files.writeString(dir.resolve("schemas/" + topic + ".avsc"), schema.toString(true) + "\n", StandardCharsets.UTF_8);
      this.out = new DataFileWriter<SpecificRecord>(new SpecificDatumWriter<>(schema));
      out.setCodec(CodecFactory.deflateCodec(DEFLATE_LEVEL));
      out.setMeta(TOPIC_META, topic);
      out.create(schema, dir.resolve(name).toFile());
    }

    public void append(SpecificRecord r) {
      try {
        out.append(r);
        records++;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + name + ": " + e.getMessage(), e);
      }
    }

    /** The registry's id of the topic's schema, when the records came from Kafka. */
    public void schemaId(int id) {
      this.schemaId = id;
    }

    /** The registry ids the records were written with (from Kafka); with exactly one, it is also {@link #schemaId}. */
    public void schemaIds(java.util.Collection<Integer> ids) {
      this.writerSchemaIds = List.copyOf(new java.util.TreeSet<>(ids));
      if (writerSchemaIds.size() == 1) {
        schemaId = writerSchemaIds.get(0);
      }
    }

    public long records() {
      return records;
    }

    private BundleFile close() throws IOException {
      out.close();
      Path p = dir.resolve(name);
      return new BundleFile(name, topic, role, source, keyField, records, Files.size(p), sha256(p), fingerprint(schema),
          schemaId, writerSchemaIds);
    }
  }
}
