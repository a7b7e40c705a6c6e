package io.fleetscope.agent.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.agent.collectors.ckpt.CheckpointJson;
import io.fleetscope.agent.collectors.coolant.CduDocs;
import io.fleetscope.agent.collectors.coolant.ModbusDecoder;
import io.fleetscope.agent.collectors.coolant.ModbusImage;
import io.fleetscope.agent.collectors.coolant.ModbusRegisterSpec;
import io.fleetscope.agent.collectors.coolant.RedfishCduGatherer;
import io.fleetscope.agent.collectors.coolant.RedfishCduParser;
import io.fleetscope.agent.collectors.gpu.DcgmExporterParser;
import io.fleetscope.agent.collectors.gpu.DcgmiDmonParser;
import io.fleetscope.agent.collectors.gpu.NvidiaSmiCsvBlocks;
import io.fleetscope.agent.collectors.gpu.NvidiaSmiCsvParser;
import io.fleetscope.agent.collectors.gpu.NvidiaSmiXmlParser;
import io.fleetscope.agent.collectors.ib.EthtoolParser;
import io.fleetscope.agent.collectors.ib.IbSysfsParser;
import io.fleetscope.agent.collectors.ib.IbValues;
import io.fleetscope.agent.collectors.ib.IbstatParser;
import io.fleetscope.agent.collectors.ib.PerfqueryParser;
import io.fleetscope.agent.collectors.ib.SysfsReader;
import io.fleetscope.agent.collectors.jobs.ScontrolJobsParser;
import io.fleetscope.agent.collectors.jobs.SlurmGres;
import io.fleetscope.agent.collectors.jobs.SlurmJobsParser;
import io.fleetscope.agent.collectors.pdu.OidMap;
import io.fleetscope.agent.collectors.pdu.PduTarget;
import io.fleetscope.agent.collectors.pdu.RackPduDocs;
import io.fleetscope.agent.collectors.pdu.RedfishPduGatherer;
import io.fleetscope.agent.collectors.pdu.RedfishPduParser;
import io.fleetscope.agent.collectors.pdu.SnmpPduParser;
import io.fleetscope.agent.collectors.pdu.SnmpWalk;
import io.fleetscope.agent.collectors.redfish.RedfishClient;
import io.fleetscope.agent.collectors.xid.XidLogParser;
import io.fleetscope.agent.testing.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.xml.sax.SAXException;

/**
 * Hostile input for every parser of the agent: real captures mutated (truncated, numbers replaced
 * by huge, negative, NaN or garbage values, counters going backwards, timestamps years off, deep
 * nesting, random text). Each property asserts that the parser answers within a time limit,
 * either with records whose every floating-point value is finite or with its documented error
 * (IllegalArgumentException with a message naming the problem; for XML a SAXException).
 */
class AgentParsersHostileInputTest {
  static final int TRIES = 10_000;
  static final Duration LIMIT = Duration.ofSeconds(5);

  static final List<String> XML = read(Stream.of("telegraf-a100-sxm4-v12.xml", "telegraf-rtx-3080-v13.xml",
      "telegraf-a10g.xml", "netdata-a100-sxm4-mig.xml", "telegraf-rtx-4000-sff-ada-v13.xml", "telegraf-tesla-t4.xml")
      .map(f -> "nvidia-smi/" + f));
  static final List<String> CSV = List.of(
      TestData.section("nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h200__590.48.01.txt", "load :: query-gpu"),
      TestData.section("nvidia-smi/nvidia_gpu_exporter-capture-linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01.txt", "idle :: query-gpu"),
      TestData.read("nvidia-smi/h200-580.159.04/query-gpu-load.csv"));
  static final List<String> DCGM_EXPORTER = read(Stream.of("dcgm-exporter/datadog-dcgm-tests-fixtures-metrics.txt"));
  /** The column layout DCGM documents for {@code dcgmi dmon} (no capture was available). */
  static final List<String> DCGMI = List.of("""
      # Entity  TMPTR  POWER  GPUTL
            ID      C      W      %
          GPU 0     34  64.52     17
          GPU 1    N/A  61.10      0
      """);
  static final List<String> IBSTAT = read(files("infiniband/gpud-ibstat"));
  static final List<String> PERFQUERY = read(files("infiniband/treydock-infiniband_exporter/perfquery"));
  static final List<String> ETHTOOL = read(Stream.of("roce/ethq-tests-mlx5_core-ethtool-S.txt"));
  /** Kernel log lines in the formats dmesg and syslog write them. */
  static final List<String> KERNEL_LOG = List.of("""
      [ 1399.140318] NVRM: GPU at PCI:0000:01:00: GPU-34d7319c-5b19-1e75-186d-c187099e4fe5
      [ 1399.140323] NVRM: Xid (PCI:0000:01:00): 32, Channel ID 00000009 intr 00800000
      Dec  2 10:00:00 gpu-001 kernel: [ 5.1] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
      Dec  2 10:00:01 gpu-001 kernel: NVRM: Xid (PCI:0000:3b:00): 48, pid=2096908, name=python3, An uncorrectable double bit error (DBE) has been detected.
      """);
  static final List<String> SLURM_FILE = List.of("# JOBID GPUS USER PARTITION\n12345 0,1,2,3 alice train\n12346 4-7 bob\n");
  static final List<String> SQUEUE = List.of("777|carol|batch|gres/gpu:4(IDX:0-3)\n778|dave|batch|gres/gpu:2\n"
      + "779|erin|batch|gres/gpu:8(IDX:0,2-4,7)\n");
  static final List<String> SCONTROL = List.of(TestData.read("slurm/irush-cs-scontrol-show-job-d.txt"),
      "JobId=7 UserId=u(1) JobState=RUNNING Partition=p NodeList=node-[05-06] Nodes=node-06 CPU_IDs=0-1 Mem=150 "
          + "GRES=gpu:a100_3g.20gb:1(IDX:3),gpu:a100:2(IDX:0-1)\n");
  static final List<String> GRES = List.of("gpu:nvidia_h100_80gb_hbm3_4g.40gb:2(IDX:2-3),gpu:nvidia_h100_80gb_hbm3:2(IDX:0,1)",
      "gpu:1(IDX:0),shard:8(-/5,5/5,3/5,0/5)", "gpu:fake1:0(IDX:N/A),gpu:fake2:0(IDX:N/A)");
  static final List<String> CHECKPOINT = List.of(
      "{\"job\":\"llama-70b\",\"step\":12000,\"status\":\"completed\",\"bytes\":1400000000000,\"duration_s\":41.5,"
          + "\"storage\":\"/lustre/ckpt\",\"rank\":0,\"ts\":1767225600000}",
      "{\"job\":\"j\",\"step\":0,\"status\":\"started\"}");
  static final List<String> SNMPREC = List.of(resource("/pdu/librenms-apc_ap8959eu3.snmprec"),
      resource("/pdu/librenms-apc_apdu9959eu3.snmprec"), resource("/pdu/librenms-sentry4.snmprec"),
      // the Raritan capture has 7,792 lines: its first 600 of the PDU2 tables the map reads keep the tries fast
      resource("/pdu/librenms-raritan-pdu_px3.snmprec").lines()
          .filter(l -> l.matches("1\\.3\\.6\\.1\\.4\\.1\\.13742\\.6\\.(3\\.3\\.[34]|3\\.5\\.[34]|5\\.2\\.3|5\\.4\\.3)\\..*"))
          .limit(600).collect(java.util.stream.Collectors.joining("\n", "", "\n")));
  static final Map<String, OidMap> OID_MAPS = Stream.of("apc-rpdu2", "raritan-pdu2", "sentry4")
      .collect(java.util.stream.Collectors.toMap(v -> v, OidMap::builtIn));
  static final List<Map<String, String>> SYSFS_PORTS = sysfsPorts();

  // ---- GPU ----

  @Property(tries = TRIES)
  void nvidiaSmiXml(@ForAll long seed) throws Exception {
    check(() -> NvidiaSmiXmlParser.parse(Mutations.text(XML, seed), TestData.CTX), SAXException.class);
  }

  @Property(tries = TRIES)
  void nvidiaSmiCsv(@ForAll long seed) throws Exception {
    check(() -> NvidiaSmiCsvParser.parse(Mutations.text(CSV, seed), TestData.CTX));
  }

  /** The loop mode's line-by-line assembly: every block handed out (at a new probe or a pause) gives finite samples. */
  @Property(tries = TRIES / 20) // the same mutations as nvidiaSmiCsv, fed line by line: fewer tries keep CI time down
  void nvidiaSmiCsvStream(@ForAll long seed) throws Exception {
    check(() -> {
      NvidiaSmiCsvBlocks blocks = new NvidiaSmiCsvBlocks(NvidiaSmiCsvParser.DEFAULT_FIELDS);
      List<Object> out = new ArrayList<>();
      String text = Mutations.text(CSV, seed);
      for (String line : text.split("\n")) {
        NvidiaSmiCsvBlocks.Block done = blocks.line(line);
        if (done != null) out.addAll(done.samples(TestData.CTX));
      }
      NvidiaSmiCsvBlocks.Block open = blocks.pause();
      if (open != null) out.addAll(open.samples(TestData.CTX));
      return out;
    });
  }

  @Property(tries = TRIES)
  void dcgmExporterText(@ForAll long seed) throws Exception {
    check(() -> DcgmExporterParser.parse(Mutations.text(DCGM_EXPORTER, seed), TestData.CTX));
  }

  @Property(tries = TRIES)
  void dcgmiDmon(@ForAll long seed) throws Exception {
    check(() -> DcgmiDmonParser.parse(Mutations.text(DCGMI, seed), DcgmiDmonParser.DEFAULT_TAGS, TestData.CTX));
  }

  @Property(tries = TRIES)
  void kernelLogXid(@ForAll long seed) throws Exception {
    check(() -> XidLogParser.parse(Mutations.text(KERNEL_LOG, seed), Map.of("0000:3b:00", 3), TestData.CTX));
  }

  // ---- InfiniBand / RoCE ----

  @Property(tries = TRIES)
  void ibstat(@ForAll long seed) throws Exception {
    check(() -> IbstatParser.parse(Mutations.text(IBSTAT, seed), Map.of("mlx5_0", 0), TestData.CTX).ports());
  }

  @Property(tries = TRIES)
  void perfquery(@ForAll long seed) throws Exception {
    check(() -> Collections.singletonList(PerfqueryParser.parse(Mutations.text(PERFQUERY, seed), "mlx5_0", 1, 0, TestData.CTX)));
  }

  @Property(tries = TRIES)
  void ethtool(@ForAll long seed) throws Exception {
    check(() -> {
      Map<String, Long> c = EthtoolParser.parse(Mutations.text(ETHTOOL, seed));
      EthtoolParser.pause(c);
      return List.of();
    });
  }

  @Property(tries = TRIES)
  void sysfsValues(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Map<String, String> files = Mutations.values(SYSFS_PORTS.get(r.nextInt(SYSFS_PORTS.size())), r);
    check(() -> List.of(IbSysfsParser.parse("mlx5_0", 1, files, IbValues.rail("mlx5_0", Map.of()), TestData.CTX)));
  }

  // ---- PDU, coolant ----

  @Property(tries = TRIES)
  void snmpVarbinds(@ForAll long seed) throws Exception {
    String vendor = List.of("apc-rpdu2", "raritan-pdu2", "sentry4").get((int) Math.floorMod(seed, 3L));
    check(() -> SnmpPduParser.parse(SnmpWalk.parseSnmprec(Mutations.text(SNMPREC, seed)), OID_MAPS.get(vendor),
        new PduTarget("pdu-1", "R1"), 1000L, "c1", "snmp-" + vendor));
  }

  static final List<RackPduDocs> PDU_DOCS = gatherPdu();
  static final List<CduDocs> CDU_DOCS = gatherCdu();

  @Property(tries = TRIES)
  void redfishPduJson(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    List<RackPduDocs> docs = PDU_DOCS.stream().map(d -> new RackPduDocs(Mutations.json(d.pdu(), r),
        d.metrics() == null || r.nextInt(8) == 0 ? null : Mutations.json(d.metrics(), r),
        mutate(d.mains(), r), mutate(d.outlets(), r))).toList();
    check(() -> RedfishPduParser.parse(docs, new PduTarget("pdu-rf-1", "R5"), 1000L, "c1"));
  }

  @Property(tries = TRIES)
  void redfishCduJson(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    List<CduDocs> docs = CDU_DOCS.stream().map(d -> new CduDocs(Mutations.json(d.unit(), r),
        mutate(d.primaryConnectors(), r), mutate(d.secondaryConnectors(), r), mutate(d.pumps(), r),
        d.leakDetection() == null ? null : Mutations.json(d.leakDetection(), r), mutate(d.leakDetectors(), r))).toList();
    check(() -> RedfishCduParser.parse(docs, "cdu-1", Map.of("secondary-1", "row-a-tcs"), 1000L, "c1"));
  }

  @Property(tries = TRIES)
  void modbusRegisters(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    List<ModbusRegisterSpec> map = new ArrayList<>();
    ModbusImage img = new ModbusImage();
    ModbusRegisterSpec.Table[] tables = ModbusRegisterSpec.Table.values();
    ModbusRegisterSpec.Type[] types = ModbusRegisterSpec.Type.values();
    for (String field : ModbusRegisterSpec.FIELDS) {
      ModbusRegisterSpec.Type type = field.equals("leak_detected") ? ModbusRegisterSpec.Type.BOOL
          : types[r.nextInt(types.length)];
      if (type == ModbusRegisterSpec.Type.BOOL && !field.equals("leak_detected")) {
        type = ModbusRegisterSpec.Type.FLOAT32;
      }
      ModbusRegisterSpec.Table table = type == ModbusRegisterSpec.Type.BOOL ? tables[2 + r.nextInt(2)] : tables[r.nextInt(2)];
      int address = r.nextInt(8);
      double scale = new double[] {1, 0.1, 0.01, 1e300, -1, 1e-300}[r.nextInt(6)];
      map.add(new ModbusRegisterSpec(field, address, table, type, scale, r.nextBoolean()));
      for (int a = 0; a < 10; a++) {
        if (r.nextInt(6) > 0) { // some registers not read
          img.putWord(table, a, r.nextInt(4) == 0 ? new int[] {0xFFFF, 0x7FC0, 0x7F80, 0xFF80, 0x8000, 0}[r.nextInt(6)]
              : r.nextInt(0x10000));
          img.putBit(table, a, r.nextBoolean());
        }
      }
    }
    check(() -> List.of(ModbusDecoder.decode(img, map, "cdu-1", "primary", 1000L, "c1")));
  }

  // ---- jobs, checkpoints ----

  @Property(tries = TRIES)
  void slurmJobsFile(@ForAll long seed) throws Exception {
    check(() -> SlurmJobsParser.parseFile(Mutations.text(SLURM_FILE, seed)));
  }

  @Property(tries = TRIES)
  void slurmSqueue(@ForAll long seed) throws Exception {
    check(() -> SlurmJobsParser.parseSqueue(Mutations.text(SQUEUE, seed)));
  }

  @Property(tries = TRIES)
  void slurmScontrol(@ForAll long seed) throws Exception {
    check(() -> ScontrolJobsParser.parse(Mutations.text(SCONTROL, seed), "node-06"));
  }

  @Property(tries = TRIES)
  void slurmGres(@ForAll long seed) throws Exception {
    check(() -> SlurmGres.parse(Mutations.text(GRES, seed)));
  }

  @Property(tries = TRIES)
  void checkpointJson(@ForAll long seed) throws Exception {
    check(() -> List.of(CheckpointJson.parse(Mutations.text(CHECKPOINT, seed).getBytes(StandardCharsets.UTF_8))));
  }

  // ---- the assertions ----

  @SafeVarargs
  static void check(Callable<? extends Collection<?>> parse, Class<? extends Exception>... alsoDocumented) throws Exception {
    Collection<?> out;
    try {
      out = Bounded.call(LIMIT, parse);
    } catch (IllegalArgumentException e) {
      assertThat(e).isNotInstanceOf(NumberFormatException.class);
      assertThat(e.getMessage()).as("error message").isNotBlank();
      return;
    } catch (Exception e) {
      for (Class<? extends Exception> c : alsoDocumented) {
        if (c.isInstance(e)) {
          return;
        }
      }
      throw e;
    }
    for (Object o : out) {
      if (o instanceof SpecificRecord rec) {
        assertFinite(rec);
      }
    }
  }

  static void assertFinite(SpecificRecord rec) {
    for (Schema.Field f : rec.getSchema().getFields()) {
      Object v = rec.get(f.pos());
      if (v instanceof Double d) {
        assertThat(d).as(f.name() + " of " + rec).isFinite();
      } else if (v instanceof Float fl) {
        assertThat(fl).as(f.name() + " of " + rec).isFinite();
      }
    }
  }

  // ---- fixtures ----

  static List<JsonNode> mutate(List<JsonNode> docs, Random r) {
    return docs.stream().map(d -> r.nextBoolean() ? Mutations.json(d, r) : d).toList();
  }

  static Stream<String> files(String dir) {
    try (Stream<Path> s = Files.list(TestData.fixture(dir))) {
      return s.map(p -> dir + "/" + p.getFileName()).sorted().toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> read(Stream<String> rel) {
    return rel.map(TestData::read).toList();
  }

  static String resource(String path) {
    try (var in = AgentParsersHostileInputTest.class.getResourceAsStream(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Map<String, String>> sysfsPorts() {
    List<Map<String, String>> out = new ArrayList<>();
    for (String root : List.of("gpud-sysfs-h100", "node_exporter-sysfs")) {
      try {
        for (SysfsReader.PortDir p : SysfsReader.ports(TestData.fixture("infiniband/" + root + "/sys"))) {
          out.add(SysfsReader.readPort(p.dir()));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  static RedfishClient mockup(String dir) throws Exception {
    Path p = Path.of(AgentParsersHostileInputTest.class.getResource(dir).toURI());
    return new RedfishClient(p.toUri().toString(), null, null, false, Duration.ofSeconds(2));
  }

  static List<RackPduDocs> gatherPdu() {
    try {
      return RedfishPduGatherer.gather(mockup("/pdu/dmtf-public-pdu"));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static List<CduDocs> gatherCdu() {
    try {
      return RedfishCduGatherer.gather(mockup("/coolant/dmtf-public-cooling-unit"));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
