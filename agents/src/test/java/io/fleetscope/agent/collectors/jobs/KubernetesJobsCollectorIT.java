package io.fleetscope.agent.collectors.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.schemas.Topics;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jobs collector with {@code source: kubernetes} against a real gRPC server (grpc-java over netty,
 * epoll) listening on a unix socket the way the kubelet does, serving {@code v1.PodResourcesLister/List}
 * replies encoded with the reference protobuf runtime.
 */
class KubernetesJobsCollectorIT {
  @TempDir Path dir;
  private final AtomicReference<byte[]> reply = new AtomicReference<>();
  private final AtomicLong delayMs = new AtomicLong();
  private final AtomicInteger calls = new AtomicInteger();
  private EpollEventLoopGroup group;
  private Server server;
  private Path socket;

  @BeforeEach
  void startKubeletLikeServer() throws IOException {
    socket = dir.resolve("pod-resources/kubelet.sock");
    Files.createDirectories(socket.getParent());
    ServerServiceDefinition lister = ServerServiceDefinition.builder("v1.PodResourcesLister")
        .addMethod(PodResourcesClient.LIST, ServerCalls.asyncUnaryCall((request, out) -> {
          calls.incrementAndGet();
          try {
            Thread.sleep(delayMs.get());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          out.onNext(reply.get());
          out.onCompleted();
        }))
        .build();
    group = new EpollEventLoopGroup(1);
    server = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
        .channelType(EpollServerDomainSocketChannel.class)
        .bossEventLoopGroup(group).workerEventLoopGroup(group)
        .addService(lister)
        .build().start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
  }

  private JobsCollector collector(Duration timeout) throws IOException, ConfigException {
    Path uuidCsv = dir.resolve("uuids.csv");
    // `nvidia-smi --query-gpu=index,uuid --format=csv` on an 8-GPU node
    StringBuilder csv = new StringBuilder("index, uuid\n");
    String[] uuids = {PodResourcesParserTest.UUID0, PodResourcesParserTest.UUID1, PodResourcesParserTest.UUID2, PodResourcesParserTest.UUID3};
    for (int i = 0; i < uuids.length; i++) csv.append(i).append(", ").append(uuids[i]).append('\n');
    Files.writeString(uuidCsv, csv);
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "gpu-node-17";
    agent.baseDir = dir;
    JobsCollector.Config cfg = new JobsCollector.Config();
    cfg.source = "kubernetes";
    cfg.socket = Path.of("pod-resources/kubelet.sock"); // relative: resolved against the config's directory
    // counts its runs in uuid-runs
    cfg.gpuUuidCommand = List.of("sh", "-c", "echo run >> uuid-runs; cat " + uuidCsv);
    cfg.timeout = timeout;
    cfg.validate("jobs");
    return new JobsCollector(cfg, new AgentEnv(agent));
  }

  @Test
  void sendsWhichPodOwnsWhichGpusAtStartThenOnlyOnChange() throws Exception {
    reply.set(PodResourcesReplies.listResponse(PodResourcesParserTest.node()));
    try (JobsCollector c = collector(Duration.ofSeconds(5))) {
      List<AgentRecord> first = c.collect(new CollectContext(1_000, "c", "gpu-node-17"));
      assertThat(first).singleElement().satisfies(r -> {
        assertThat(r.topic()).isEqualTo(Topics.JOBS);
        assertThat(r.key()).isEqualTo("gpu-node-17");
        JobAllocations a = (JobAllocations) r.value();
        assertThat(a.getSource()).isEqualTo("kubelet-pod-resources");
        assertThat(a.getTs()).isEqualTo(1_000);
        assertThat(a.getAllocations()).containsExactly(GpuAllocation.newBuilder()
            .setJob("ml-team/llama-70b-worker-3").setGpus(List.of(0, 1, 2, 3)).setUser(null).setPartition("ml-team").build());
      });
      assertThat(c.collect(new CollectContext(2_000, "c", "gpu-node-17"))).isEmpty();
      assertThat(uuidMapRuns()).isEqualTo(1);

      // the trainer ends; a 1-GPU notebook starts on GPU 1 (the device plugin reports indices here)
      reply.set(PodResourcesReplies.listResponse(List.of(new PodResourcesReplies.Pod("research", "notebook-0", List.of(
          new PodResourcesReplies.Container("jupyter", List.of(new PodResourcesReplies.Grant("nvidia.com/gpu", List.of("1"), 0)), List.of()))))));
      List<AgentRecord> third = c.collect(new CollectContext(3_000, "c", "gpu-node-17"));
      assertThat(third).singleElement().extracting(r -> ((JobAllocations) r.value()).getAllocations())
          .isEqualTo(List.of(GpuAllocation.newBuilder().setJob("research/notebook-0").setGpus(List.of(1)).setUser(null).setPartition("research").build()));

      // the node drains: an empty allocation list is a change too
      reply.set(new byte[0]);
      assertThat(c.collect(new CollectContext(4_000, "c", "gpu-node-17")))
          .singleElement().extracting(r -> ((JobAllocations) r.value()).getAllocations()).isEqualTo(List.of());
      assertThat(calls.get()).isEqualTo(4);
    }
  }

  @Test
  void aDeviceThatNeverMapsRefreshesTheUuidMapOnceNotEveryRound() throws Exception {
    String mig = "MIG-00000001-0000-0000-0000-000000000001";
    reply.set(PodResourcesReplies.listResponse(List.of(new PodResourcesReplies.Pod("research", "mig-notebook", List.of(
        new PodResourcesReplies.Container("jupyter", List.of(new PodResourcesReplies.Grant("nvidia.com/gpu", List.of(mig, PodResourcesParserTest.UUID2), 0)), List.of()))))));
    try (JobsCollector c = collector(Duration.ofSeconds(5))) {
      for (int round = 1; round <= 3; round++) {
        List<AgentRecord> out = c.collect(new CollectContext(round * 1_000L, "c", "gpu-node-17"));
        if (round == 1) {
          assertThat(out).singleElement().extracting(r -> ((JobAllocations) r.value()).getAllocations().get(0).getGpus()).isEqualTo(List.of(2));
        } else {
          assertThat(out).isEmpty();
        }
      }
      assertThat(uuidMapRuns()).isEqualTo(1);
    }
  }

  private long uuidMapRuns() throws IOException {
    Path runs = dir.resolve("uuid-runs");
    return Files.exists(runs) ? Files.readAllLines(runs).size() : 0;
  }

  @Test
  void aKubeletThatDoesNotAnswerInTimeFailsTheRoundNotTheAgent() throws Exception {
    reply.set(PodResourcesReplies.listResponse(PodResourcesParserTest.node()));
    delayMs.set(1_500);
    try (JobsCollector c = collector(Duration.ofMillis(300))) {
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> c.collect(new CollectContext(1_000, "c", "gpu-node-17")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("DEADLINE_EXCEEDED");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(1_400));
      delayMs.set(0);
      assertThat(c.collect(new CollectContext(2_000, "c", "gpu-node-17"))).hasSize(1);
    }
  }

  @Test
  void aMissingSocketIsAClearError() throws Exception {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    Files.deleteIfExists(socket);
    try (JobsCollector c = collector(Duration.ofSeconds(1))) {
      assertThatThrownBy(() -> c.collect(new CollectContext(1_000, "c", "gpu-node-17")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("pod-resources socket")
          .hasMessageContaining("does not exist");
    }
  }
}
