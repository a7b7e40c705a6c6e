package io.fleetscope.agent.collectors.ckpt;

import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Collector {@code ckpt}: starts the local checkpoint endpoint at construction and, each round,
 * hands out the events posted since the last round as {@code fleet.ckpt.v1} records keyed by this
 * node. The record's {@code ts} is the time the agent received the post.
 */
public final class CkptCollector implements Collector {

  private final CheckpointBuffer buffer;
  private final CheckpointServer server;

  public CkptCollector(CkptConfig config, AgentEnv env) throws IOException {
    this(config, System::currentTimeMillis);
  }

  CkptCollector(CkptConfig config, LongSupplier clock) throws IOException {
    this.buffer = new CheckpointBuffer(config.maxQueued, config.maxInFlight);
    this.server = new CheckpointServer(config.port, buffer, config.maxBodyBytes.bytes(), clock);
  }

  /** The port actually bound (differs from the config when it said 0). */
  public int port() {
    return server.port();
  }

  @Override
  public String name() {
    return "ckpt";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) {
    List<AgentRecord> out = new ArrayList<>();
    for (CheckpointBuffer.Stamped s : buffer.drain()) {
      CheckpointPost p = s.post();
      CheckpointEvent e = CheckpointEvent.newBuilder()
          .setTs(s.receivedTs()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource("ckpt-http")
          .setJob(p.job()).setStep(p.step()).setBytes(p.bytes()).setTier(p.tier()).setStatus(p.status())
          .setStartedTs(s.startedTs()).setFinishedTs(s.finishedTs()).setRanks(p.ranks())
          .build();
      out.add(new AgentRecord(Topics.CKPT, ctx.node(), e));
    }
    return out;
  }

  @Override
  public void close() {
    server.close();
  }
}
