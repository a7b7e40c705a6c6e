package io.fleetscope.schemas.bundle;

import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;

/**
 * Opens a bundle and checks it before anything is read: the manifest parses, every file it lists
 * is there with the SHA-256 it lists, and every container file names a known topic whose current
 * schema can read the embedded writer schema. Any failure is a {@link BadBundleException} naming
 * the file.
 */
public final class BundleReader {
  private final Path dir;
  private final Manifest manifest;

  private BundleReader(Path dir, Manifest manifest) {
    this.dir = dir;
    this.manifest = manifest;
  }

  public static BundleReader open(Path dir) {
    Path mf = dir.resolve(Manifest.FILE);
    String json;
    try {
      json = Files.readString(mf, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new BadBundleException(Manifest.FILE, "missing in " + dir + " (not a bundle directory)");
    } catch (IOException e) {
      throw new BadBundleException(Manifest.FILE, "unreadable: " + e.getMessage());
    }
    Manifest m = Manifest.parse(json);
    for (BundleFile f : m.files()) {
      verify(dir, f);
    }
    return new BundleReader(dir, m);
  }

  /** Whether {@code dir} holds a bundle manifest (a bundle, as opposed to a JSON-lines file or export). */
  public static boolean isBundle(Path dir) {
    return Files.isDirectory(dir) && Files.isRegularFile(dir.resolve(Manifest.FILE));
  }

  private static void verify(Path dir, BundleFile f) {
    Path p = dir.resolve(f.file()).normalize();
    if (!p.startsWith(dir.normalize())) {
      throw new BadBundleException(f.file(), "lies outside the bundle directory");
    }
    if (!Files.isRegularFile(p)) {
      throw new BadBundleException(f.file(), "missing (listed in " + Manifest.FILE + ")");
    }
    String sum;
    try {
      sum = BundleWriter.sha256(p);
    } catch (IOException e) {
      throw new BadBundleException(f.file(), "unreadable: " + e.getMessage());
    }
    if (!sum.equalsIgnoreCase(f.sha256())) {
      throw new BadBundleException(f.file(), "checksum mismatch: sha256 is " + sum + ", " + Manifest.FILE + " says " + f.sha256());
    }
    if (f.isAvro()) {
      Schema reader = Topics.find(f.topic()).map(Topics.TopicSpec::schema)
          .orElseThrow(() -> new BadBundleException(f.file(), "unknown topic '" + f.topic() + "'"));
      Schema writer = writerSchema(p, f.file());
      if (f.schemaFingerprint() != null && !f.schemaFingerprint().equals(BundleWriter.fingerprint(writer))) {
        throw new BadBundleException(f.file(), "its embedded schema has fingerprint " + BundleWriter.fingerprint(writer) + ", "
            + Manifest.FILE + " says " + f.schemaFingerprint());
      }
      var compat = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
      if (compat.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
        throw new BadBundleException(f.file(), "unknown schema " + writer.getFullName() + " (fingerprint "
            + BundleWriter.fingerprint(writer) + "): this version's " + reader.getFullName() + " for " + f.topic()
            + " cannot read it: " + compat.getDescription());
      }
    }
  }

  private static Schema writerSchema(Path p, String name) {
    try (DataFileReader<Object> r = new DataFileReader<>(p.toFile(), new org.apache.avro.generic.GenericDatumReader<>())) {
      return r.getSchema();
    } catch (IOException e) {
      throw new BadBundleException(name, "not an Avro container file: " + e.getMessage());
    }
  }

  public Manifest manifest() {
    return manifest;
  }

  public Path dir() {
    return dir;
  }

  /** The records of one listed container file, in file order, read with the topic's current schema. */
  public List<SpecificRecord> records(BundleFile f) {
    if (!f.isAvro()) {
      throw new IllegalArgumentException(f.file() + " holds no records");
    }
    Schema reader = Topics.require(f.topic()).schema();
    List<SpecificRecord> out = new ArrayList<>();
    SpecificDatumReader<SpecificRecord> datum = new SpecificDatumReader<>(null, reader);
    try (DataFileReader<SpecificRecord> r = new DataFileReader<>(dir.resolve(f.file()).toFile(), datum)) {
      while (r.hasNext()) {
        out.add(r.next());
      }
    } catch (IOException | RuntimeException e) {
      throw new BadBundleException(f.file(), "cannot decode: " + e.getMessage());
    }
    return out;
  }

  /** The records of every container file whose role passes {@code roles}, as JSON-lines envelopes sorted by ts (stable). */
  public List<JsonLines.Line> lines(Predicate<BundleRole> roles) {
    List<JsonLines.Line> out = new ArrayList<>();
    for (BundleFile f : manifest.files()) {
      if (!f.isAvro() || !roles.test(f.role())) {
        continue;
      }
      for (SpecificRecord r : records(f)) {
        out.add(new JsonLines.Line(f.topic(), key(f, r), r));
      }
    }
    out.sort(Comparator.comparingLong(BundleReader::ts));
    return out;
  }

  /** The text of the first file with {@code role} (labels, settings), if the bundle has one. */
  public Optional<String> text(BundleRole role) {
    return manifest.filesOf(role).stream().filter(f -> !f.isAvro()).findFirst().map(f -> {
      try {
        return Files.readString(dir.resolve(f.file()), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** The text of the listed text file {@code name} (e.g. {@link Manifest#CORRELATOR_CONFIG}), if the bundle has it. */
  public Optional<String> text(String name) {
    return manifest.files().stream().filter(f -> !f.isAvro() && f.file().equals(name)).findFirst().map(f -> {
      try {
        return Files.readString(dir.resolve(f.file()), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private static String key(BundleFile f, SpecificRecord r) {
    if (f.keyField() == null) {
      return null;
    }
    Schema.Field kf = r.getSchema().getField(f.keyField());
    Object k = kf == null ? null : r.get(kf.pos());
    return k == null ? null : k.toString();
  }

  /** The record's ts (epoch ms), 0 when it has none. */
  public static long ts(JsonLines.Line l) {
    Schema.Field f = l.value().getSchema().getField("ts");
    Object v = f == null ? null : l.value().get(f.pos());
    return v instanceof Long t ? t : 0L;
  }
}
