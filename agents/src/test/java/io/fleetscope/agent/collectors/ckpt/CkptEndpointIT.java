package io.fleetscope.agent.collectors.ckpt;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.ByteSize;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.schemas.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The checkpoint endpoint driven by real HTTP posts; the server's clock is a test clock. */
class CkptEndpointIT {

  static final long T0 = 1_764_680_000_000L;

  final AtomicLong clock = new AtomicLong(T0);
  final HttpClient http = HttpClient.newHttpClient();
  CkptCollector collector;

  @BeforeEach
  void start() throws Exception {
    CkptConfig cfg = new CkptConfig();
    cfg.port = 0;
    cfg.maxQueued = 3;
    cfg.maxBodyBytes = new ByteSize(512);
    cfg.validate("ckpt");
    collector = new CkptCollector(cfg, clock::get);
  }

  @AfterEach
  void stop() {
    collector.close();
  }

  HttpResponse<String> post(String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + collector.port() + CheckpointServer.PATH))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aStartAndAFinishBecomeTwoRecordsOnTheNextRound() throws Exception {
    assertThat(post("{\"job\":\"llama\",\"step\":100,\"status\":\"started\",\"tier\":\"local-nvme\",\"ranks\":8}").statusCode()).isEqualTo(202);
    clock.set(T0 + 30_000);
    HttpResponse<String> done = post("{\"job\":\"llama\",\"step\":100,\"status\":\"completed\",\"bytes\":64000000000,\"tier\":\"local-nvme\",\"ranks\":8}");
    assertThat(done.statusCode()).isEqualTo(202);
    assertThat(done.body()).isEqualTo("{\"accepted\":true,\"received_ts\":" + (T0 + 30_000) + "}");

    List<AgentRecord> records = collector.collect(new CollectContext(T0 + 31_000, "c1", "gpu-node-7"));

    assertThat(records).extracting(AgentRecord::topic).containsOnly(Topics.CKPT);
    assertThat(records).extracting(AgentRecord::key).containsOnly("gpu-node-7");
    assertThat(records).extracting(r -> r.value().toString()).containsExactly(
        CheckpointEvent.newBuilder().setTs(T0).setCluster("c1").setNode("gpu-node-7").setAgentSeq(0L).setSource("ckpt-http")
            .setJob("llama").setStep(100).setBytes(0).setTier("local-nvme").setStatus("started")
            .setStartedTs(T0).setFinishedTs(null).setRanks(8).build().toString(),
        CheckpointEvent.newBuilder().setTs(T0 + 30_000).setCluster("c1").setNode("gpu-node-7").setAgentSeq(0L).setSource("ckpt-http")
            .setJob("llama").setStep(100).setBytes(64_000_000_000L).setTier("local-nvme").setStatus("completed")
            .setStartedTs(T0).setFinishedTs(T0 + 30_000).setRanks(8).build().toString());
    assertThat(collector.collect(new CollectContext(T0 + 41_000, "c1", "gpu-node-7"))).isEmpty();
  }

  @Test
  void badInputGets400WithAJsonReasonAndIsNotQueued() throws Exception {
    HttpResponse<String> r = post("{\"job\":\"j\",\"step\":1,\"status\":\"started\",\"started_ts\":1764680000}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(r.body()).startsWith("{\"error\":\"started_ts must be epoch milliseconds");

    HttpResponse<String> orphan = post("{\"job\":\"j\",\"step\":2,\"status\":\"failed\"}");
    assertThat(orphan.statusCode()).isEqualTo(400);
    assertThat(orphan.body()).contains("no start was posted for job=j step=2");

    assertThat(post("not json").statusCode()).isEqualTo(400);
    assertThat(collector.collect(new CollectContext(T0, "c1", "n"))).isEmpty();
  }

  @Test
  void aFullBufferAnswers429UntilTheRoundDrainsIt() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(post("{\"job\":\"j\",\"step\":" + i + ",\"status\":\"started\"}").statusCode()).isEqualTo(202);
    }
    HttpResponse<String> full = post("{\"job\":\"j\",\"step\":3,\"status\":\"started\"}");
    assertThat(full.statusCode()).isEqualTo(429);
    assertThat(full.headers().firstValue("Retry-After")).contains("1");
    assertThat(full.body()).contains("event buffer full");

    assertThat(collector.collect(new CollectContext(T0, "c1", "n"))).hasSize(3);
    assertThat(post("{\"job\":\"j\",\"step\":3,\"status\":\"started\"}").statusCode()).isEqualTo(202);
  }

  @Test
  void oversizedBodiesWrongMethodsAndPathsAreRefused() throws Exception {
    String big = "{\"job\":\"" + "x".repeat(600) + "\",\"step\":1,\"status\":\"started\"}";
    assertThat(post(big).statusCode()).isEqualTo(413);
    HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + collector.port() + CheckpointServer.PATH)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
    HttpResponse<String> other = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + collector.port() + "/checkpoint"))
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(other.statusCode()).isEqualTo(404);
    HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + collector.port() + "/v1/health")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(health.body()).isEqualTo("{\"queued\":0,\"accepted\":0,\"rejected_full\":0,\"rejected_bad\":1}");
  }
}
