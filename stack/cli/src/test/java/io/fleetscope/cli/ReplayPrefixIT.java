package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.loadgen.output.ScenarioBundle;
import io.fleetscope.schemas.bundle.BundleFile;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.bundle.RecordSource;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay DIR --prefix P} on the real broker and registry: a simulator bundle (4 nodes, 5 minutes)
 * goes into the topics P&lt;topic&gt;; {@code export --prefix P} reads them back from Kafka into a new
 * bundle, whose every input topic must hold as many records as the original manifest lists, with the
 * same content (an order-free checksum of the records' Avro encodings: Kafka partitions by key, so the
 * order across keys is not kept).
 */
class ReplayPrefixIT {
  @Test
  void replaysIntoPrefixedTopicsAndReadsTheSameRecordsBack(@TempDir Path tmp) throws Exception {
    LocalKafka kafka = TestServices.kafka();
    String registry = TestServices.registry().url();
    LocalPostgres pg = TestServices.postgres();
    String jdbc = pg.createDatabase("replay_prefix");
    try (Connection c = new Database(jdbc, LocalPostgres.SUPERUSER, "", "").open()) {
      Migrator.migrate(c); // the export resolves its scope there; the database stays empty
    }
    Path scenario = tmp.resolve("scenario");
    ScenarioBundle.write(BundleLoopIT.SCENARIO, 4, 42, scenario);
    BundleReader original = BundleReader.open(scenario);
    Manifest m = original.manifest();
    String prefix = "replay-it-" + System.nanoTime() + ".";
    Map<String, String> env = Map.of("FLEETSCOPE_JDBC_URL", jdbc, "FLEETSCOPE_JDBC_USER", LocalPostgres.SUPERUSER);

    String replayed = run(env, "replay", scenario.toString(), "--prefix", prefix, "--kafka", kafka.bootstrapServers(),
        "--registry", registry);
    long inputs = m.files().stream().filter(f -> f.isAvro() && f.role().isInput()).mapToLong(BundleFile::records).sum();
    assertThat(replayed).contains("replay done sent=" + inputs + " rejected=0");

    Path back = tmp.resolve("back");
    String exported = run(env, "export", "--from", m.from().toString(), "--to", m.to().toString(), "--out", back.toString(),
        "--prefix", prefix, "--kafka", kafka.bootstrapServers(), "--registry", registry);
    System.out.print(exported);
    BundleReader again = BundleReader.open(back);
    List<BundleFile> checked = new ArrayList<>();
    for (BundleFile f : m.files()) {
      if (!f.isAvro() || !f.role().isInput()) {
        continue;
      }
      BundleFile g = again.manifest().files().stream().filter(x -> f.topic().equals(x.topic())).findFirst().orElseThrow();
      assertThat(g.source()).as(f.topic()).isEqualTo(RecordSource.KAFKA);
      assertThat(g.records()).as(f.topic()).isEqualTo(f.records());
      assertThat(g.writerSchemaIds()).as(f.topic()).hasSize(1);
      assertThat(checksum(again.records(g))).as(f.topic()).isEqualTo(checksum(original.records(f)));
      checked.add(f);
    }
    assertThat(checked).extracting(BundleFile::records).allSatisfy(n -> assertThat(n).isPositive());
    assertThat(checked).hasSizeGreaterThanOrEqualTo(4); // gpu, ib, pdu, coolant, inventory at least
  }

  /** SHA-256 over the sorted hex Avro encodings of the records: equal for the same records in any order. */
  static String checksum(List<SpecificRecord> records) throws Exception {
    List<String> enc = new ArrayList<>();
    for (SpecificRecord r : records) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      BinaryEncoder e = EncoderFactory.get().binaryEncoder(b, null);
      try {
        new SpecificDatumWriter<SpecificRecord>(r.getSchema()).write(r, e);
        e.flush();
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
      enc.add(HexFormat.of().formatHex(b.toByteArray()));
    }
    enc.sort(null);
    MessageDigest d = MessageDigest.getInstance("SHA-256");
    enc.forEach(s -> d.update(s.getBytes(StandardCharsets.US_ASCII)));
    return HexFormat.of().formatHex(d.digest());
  }

  private static String run(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        env).execute(args);
    assertThat(code).as(Arrays.toString(args) + ": " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8)).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }
}
