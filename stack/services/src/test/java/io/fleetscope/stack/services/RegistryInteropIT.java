package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.serde.WireFormat;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Interoperability with Confluent's own JavaScript client {@code @confluentinc/schemaregistry}
 * (pinned in src/test/interop/package.json): the JS client registers a schema in our registry and
 * serializes a record, our AvroDeserializer reads it; our AvroSerializer's bytes are decoded by
 * the JS client's AvroDeserializer. Skipped only when npm is not installed.
 */
class RegistryInteropIT {
  private static Path work;

  @BeforeAll
  static void installClient() throws Exception {
    assumeTrue(onPath("npm") && onPath("node"),
        "npm/node not found on PATH: install Node.js and npm (deploy/local/install.sh) to run the "
            + "Confluent JavaScript client interoperability test");
    Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    Path src = module.resolve("src/test/interop");
    work = module.resolve("target/interop");
    Files.createDirectories(work);
    Path lock = work.resolve("package-lock.json");
    boolean lockChanged = !Files.exists(lock) || Files.mismatch(lock, src.resolve("package-lock.json")) != -1;
    for (String f : List.of("package.json", "package-lock.json", "interop.js")) {
      Files.copy(src.resolve(f), work.resolve(f), StandardCopyOption.REPLACE_EXISTING);
    }
    if (lockChanged || !Files.isDirectory(work.resolve("node_modules/@confluentinc/schemaregistry"))) {
      ChildProcesses.run(List.of("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"), work, Duration.ofMinutes(5));
    }
  }

  private static GpuSample fullSample() {
    return GpuSample.newBuilder().setTs(1_764_000_000_123L).setCluster("c1").setNode("node-a").setAgentSeq(42L)
        .setSource("dcgm-exporter").setGpu(3).setUuid("GPU-4f9a6c2e-0b1d-4c3e-9a5f-7d2e1b3c4a5d")
        .setModel("NVIDIA H100 80GB HBM3").setPciBusId("00000000:19:00.0").setTempC(71.5).setMemTempC(80.25)
        .setPowerW(612.75).setPowerLimitW(700.0).setSmClockMhz(1980.0).setMemClockMhz(2619.0).setUtilPct(97.0)
        .setMemUtilPct(41.0).setMemUsedMib(61234.0).setMemTotalMib(81559.0).setThrottleReasons(0x20L)
        .setEccSbeTotal(17L).setEccDbeTotal(0L).setRetiredPagesSbe(2L).setRetiredPagesDbe(0L).setRowRemapPending(false)
        .setRowRemapFailure(false).setRemappedRowsCorrectable(1L).setRemappedRowsUncorrectable(0L)
        .setNvlinkTxBytes(9_007_199_254_740_000L).setNvlinkRxBytes(123_456_789_012L).setPcieReplayTotal(5L).build();
  }

  @Test
  void recordSerializedByConfluentsJsClientIsReadByOurDeserializer() throws Exception {
    String url = TestServices.registry().url();
    String topic = "it.interop.js2java";
    GpuSample expected = fullSample();
    Path schemaFile = work.resolve("gpu.avsc");
    Path recordFile = work.resolve("js2java-record.json");
    Path bytesFile = work.resolve("js2java.bin");
    Files.writeString(schemaFile, GpuSample.getClassSchema().toString());
    Files.writeString(recordFile, JsonLines.valueToJson(expected));
    Files.deleteIfExists(bytesFile);

    JsonNode produced = RegistryHttp.JSON.readTree(node("produce", url, topic, schemaFile.toString(),
        recordFile.toString(), bytesFile.toString()));
    int jsId = produced.get("registered_id").asInt();
    assertThat(produced.get("latest_id").asInt()).isEqualTo(jsId);
    assertThat(produced.get("latest_version").asInt()).isEqualTo(1);
    assertThat(produced.get("subjects").toString()).contains(topic + "-value");

    byte[] bytes = Files.readAllBytes(bytesFile);
    assertThat(bytes[0]).isEqualTo(WireFormat.MAGIC);
    assertThat(WireFormat.schemaId(bytes)).isEqualTo(jsId);

    AvroDeserializer<GpuSample> de = new AvroDeserializer<>(new RestSchemaRegistryClient(url), GpuSample.class);
    assertThat(de.deserialize(topic, bytes)).isEqualTo(expected);

    // our serializer on the same subject finds the schema the JS client registered: same id, same bytes
    AvroSerializer<GpuSample> ser = new AvroSerializer<>(new RestSchemaRegistryClient(url));
    byte[] ours = ser.serialize(topic, expected);
    assertThat(WireFormat.schemaId(ours)).isEqualTo(jsId);
    assertThat(ours).isEqualTo(bytes);
  }

  @Test
  void recordSerializedByOurSerializerIsReadByConfluentsJsClient() throws Exception {
    String url = TestServices.registry().url();
    String topic = "it.interop.java2js";
    // a sparse record: most optional fields absent (null)
    GpuSample sample = GpuSample.newBuilder().setTs(1_764_000_005_000L).setCluster("c1").setNode("node-b")
        .setAgentSeq(7L).setGpu(0).setTempC(44.0).setEccDbeTotal(1L).setRowRemapFailure(true).build();
    byte[] bytes = new AvroSerializer<GpuSample>(new RestSchemaRegistryClient(url)).serialize(topic, sample);
    Path bytesFile = work.resolve("java2js.bin");
    Files.write(bytesFile, bytes);

    String decoded = node("consume", url, topic, bytesFile.toString());
    assertThat(JsonLines.valueFromJson(GpuSample.class, decoded)).isEqualTo(sample);
    JsonNode js = RegistryHttp.JSON.readTree(decoded);
    assertThat(js.get("node").asText()).isEqualTo("node-b");
    assertThat(js.get("power_w").isNull()).isTrue();
  }

  @Test
  void jsClientSeesOurRegistryErrorsAsFailures() throws Exception {
    String url = TestServices.registry().url();
    Path bytesFile = work.resolve("unknown-id.bin");
    // wire format with a schema id no registry has
    Files.write(bytesFile, new byte[] {0, 0x7f, 0, 0, 1, 2});
    List<String> cmd = List.of("node", "interop.js", "consume", url, "it.interop.none", bytesFile.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).isEqualTo(1);
    assertThat(out).contains("40403");
  }

  private static String node(String... args) {
    List<String> cmd = new ArrayList<>(List.of("node", "interop.js"));
    cmd.addAll(List.of(args));
    String out = ChildProcesses.run(cmd, work, Duration.ofSeconds(60)).strip();
    String[] lines = out.split("\\R");
    return lines[lines.length - 1];
  }

  private static boolean onPath(String exe) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, exe))) {
        return true;
      }
    }
    return false;
  }
}
