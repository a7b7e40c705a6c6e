package io.fleetscope.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.BuiltinCollectors;
import io.fleetscope.agent.collectors.gpu.DcgmExporterCollector;
import io.fleetscope.agent.collectors.ib.IbSysfsCollector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
  final ConfigLoader loader = new ConfigLoader(BuiltinCollectors.registry());

  AgentConfig parse(String yaml) throws ConfigException {
    return loader.parse(yaml, Path.of("/etc/fleetscope"));
  }

  @Test
  void defaults() throws Exception {
    AgentConfig c = parse("cluster: c1\nnode: n1\n");
    assertThat(c.interval).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.kafka.compression).isEqualTo("lz4");
    assertThat(c.kafka.bootstrap).isEqualTo("127.0.0.1:19092");
    assertThat(c.spool.maxBytes.bytes()).isEqualTo(256L << 20);
    assertThat(c.spool.fsyncInterval).isEqualTo(Duration.ofSeconds(1));
    assertThat(parse("cluster: c1\nnode: n1\nspool:\n  fsync_interval: 0s\n").spool.fsyncInterval).isZero();
    assertThat(c.metrics.port).isEqualTo(9464);
    assertThat(c.metrics.address).isEqualTo("127.0.0.1");
    assertThat(c.sysRoot()).isEqualTo(Path.of("/sys"));
    assertThat(c.collectors()).containsKeys("nvidia_smi", "xid", "ib", "inventory", "dcgm_exporter");
    var reg = BuiltinCollectors.registry();
    assertThat(reg.get("ib").enabled(c.collectors().get("ib"))).isTrue();
    assertThat(reg.get("dcgm_exporter").enabled(c.collectors().get("dcgm_exporter"))).isFalse();
    assertThat(c.collectors().get("ib").effectiveTimeout(c)).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void sectionsBindTypedAndRelativePathsResolveAgainstTheFile() throws Exception {
    AgentConfig c = parse("""
        cluster: c1
        node: n1
        interval: 1s
        paths: {sys: captures/sys}
        kafka: {compression: zstd, linger: 20ms, batch_size: 128KiB}
        dcgm_exporter: {enabled: true, url: "http://10.0.0.1:9400/metrics", timeout: 500ms}
        ib: {rails: {mlx5_4: 0}}
        """);
    assertThat(c.sysRoot()).isEqualTo(Path.of("/etc/fleetscope/captures/sys"));
    assertThat(c.kafka.batchSize.bytes()).isEqualTo(128 << 10);
    assertThat(c.kafka.linger).isEqualTo(Duration.ofMillis(20));
    var d = (DcgmExporterCollector.Config) c.collectors().get("dcgm_exporter");
    assertThat(d.url).isEqualTo("http://10.0.0.1:9400/metrics");
    assertThat(d.effectiveTimeout(c)).isEqualTo(Duration.ofMillis(500));
    assertThat(((IbSysfsCollector.Config) c.collectors().get("ib")).rails).containsEntry("mlx5_4", 0);
  }

  static Stream<Arguments> badConfigs() {
    return Stream.of(
        Arguments.of("node: n1\n", "cluster", "is required"),
        Arguments.of("cluster: c\nkafka: {compression: gzip}\n", "kafka.compression", "lz4 or zstd"),
        Arguments.of("cluster: c\nkafka: {bootstrapp: x}\n", "kafka.bootstrapp", "unknown key"),
        Arguments.of("cluster: c\ngpuu: {}\n", "gpuu", "unknown key"),
        Arguments.of("cluster: c\ninterval: soon\n", "interval", "not a duration"),
        Arguments.of("cluster: c\nspool: {max_bytes: lots}\n", "spool.max_bytes", "not a size"),
        Arguments.of("cluster: c\nspool: {max_bytes: 4KiB}\n", "spool.max_bytes", "at least two segments"),
        Arguments.of("cluster: c\nmetrics: {port: 70000}\n", "metrics.port", "0..65535"),
        Arguments.of("cluster: c\nmetrics: {address: localhost}\n", "metrics.address", "IP address"),
        Arguments.of("cluster: c\nnvidia_smi: {command: []}\n", "nvidia_smi.command", "non-empty list"),
        Arguments.of("cluster: c\nnvidia_smi: {fields: [name]}\n", "nvidia_smi.fields", "'index'"),
        Arguments.of("cluster: c\ndcgm_exporter: {url: \"localhost:9400\"}\n", "dcgm_exporter.url", "URL"),
        Arguments.of("cluster: c\nib: {rails: {mlx5_0: -1}}\n", "ib.rails.mlx5_0", "rail number"),
        Arguments.of("cluster: c\nib: {ethtool: {enabled: true, command: [ethtool, -S]}}\n", "ib.ethtool.command", "{netdev}"),
        Arguments.of("cluster: c\nperfquery: {enabled: true}\n", "perfquery.targets", "at least one"),
        Arguments.of("cluster: c\nxid: {start_at: middle}\n", "xid.start_at", "'end' or 'beginning'"),
        Arguments.of("cluster: c\njobs: {source: k8s}\n", "jobs.source", "slurm_file, squeue, scontrol or kubernetes"),
        Arguments.of("cluster: c\njobs: {source: kubernetes, gpu_resources: []}\n", "jobs.gpu_resources", "must name at least one resource"),
        Arguments.of("cluster: c\ninventory: {rack_cooling: fans}\n", "inventory.rack_cooling", "air, rear-door"),
        Arguments.of("cluster: c\nkafka: {properties: {acks: '1'}}\n", "kafka.properties.acks", "may not be overridden"),
        Arguments.of("cluster: c\nib: {enabled: maybe}\n", "ib.enabled", ""),
        Arguments.of("cluster: [c\n", "", "not valid YAML"));
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @MethodSource("badConfigs")
  void badValuesNameTheKeyAndWhy(String yaml, String key, String why) {
    assertThatThrownBy(() -> parse(yaml))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.key()).isEqualTo(key))
        .hasMessageContaining(why);
  }
}
