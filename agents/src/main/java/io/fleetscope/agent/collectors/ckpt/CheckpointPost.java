package io.fleetscope.agent.collectors.ckpt;

/**
 * One validated checkpoint post, before the server fills in missing times.
 *
 * @param startedTs epoch ms, or null when the job did not send it
 * @param finishedTs epoch ms, or null when the job did not send it
 * @param ranks number of ranks that wrote the checkpoint, or null
 */
public record CheckpointPost(
    String job, long step, long bytes, String tier, String status, Long startedTs, Long finishedTs, Integer ranks) {

  public boolean isStart() {
    return status.equals("started");
  }
}
