package io.fleetscope.agent.collectors.gpu;

import static io.fleetscope.agent.testing.TestData.CTX;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.BuiltinCollectors;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigLoader;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.schemas.Topics;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The dcgm_exporter collector over a capture (file: URL): GPU samples and the NVLink records beside them. */
class DcgmExporterCollectorTest {
  static List<AgentRecord> collect(String fixture, String extra) throws Exception {
    Path capture = TestData.fixture(fixture);
    AgentConfig c = new ConfigLoader(BuiltinCollectors.registry()).parse("cluster: test-cluster\nnode: node-a\n"
        + "dcgm_exporter: {enabled: true, url: \"" + capture.toUri() + "\"" + extra + "}\n", capture.getParent());
    var section = (DcgmExporterCollector.Config) c.collectors().get("dcgm_exporter");
    return new DcgmExporterCollector(section, new AgentEnv(c)).collect(CTX);
  }

  @Test
  void nvlinkFieldsBecomeNvlinkRecordsNextToTheGpuSamples() throws Exception {
    List<AgentRecord> r = collect("dcgm-exporter/dcgm-issue-149-a100-nvlink-prof-excerpt.txt", "");
    assertThat(r).filteredOn(x -> x.topic().equals(Topics.GPU)).hasSize(4);
    List<NvlinkSample> nvlink = r.stream().filter(x -> x.topic().equals(Topics.NVLINK)).map(x -> (NvlinkSample) x.value()).toList();
    assertThat(nvlink).hasSize(4).allSatisfy(s -> {
      assertThat(s.getLink()).isEqualTo(-1);
      assertThat(s.getNode()).isEqualTo("node-a");
    });
    assertThat(r).filteredOn(x -> x.topic().equals(Topics.NVLINK)).extracting(AgentRecord::key).containsOnly("node-a");
  }

  @Test
  void nvlinkOffSendsNone() throws Exception {
    assertThat(collect("dcgm-exporter/dcgm-nvlink-per-link-reconstructed.txt", ", nvlink: false"))
        .noneMatch(x -> x.topic().equals(Topics.NVLINK)).isNotEmpty();
  }
}
