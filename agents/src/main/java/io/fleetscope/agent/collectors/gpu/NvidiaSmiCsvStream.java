package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.StreamingCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One long-running {@code nvidia-smi --query-gpu=... -lms N} whose blocks are assembled as they
 * arrive ({@link NvidiaSmiCsvBlocks}); a round takes the newest block ({@link #take}). A block is
 * fresh for {@code maxAge} (two intervals: nvidia-smi's period drifts against the rounds by its
 * probe time, so a block may serve two rounds); with no fresh block a round waits for one, and
 * when none comes it fails, so the GPU records stop and go stale as with a failing per-round
 * command. When no line came for {@code stallAfter}, the process is restarted (with backoff).
 */
final class NvidiaSmiCsvStream implements AutoCloseable {
  private record Arrived(NvidiaSmiCsvBlocks.Block block, long nanos) {}

  private final NvidiaSmiCsvBlocks blocks;
  private final StreamingCommand command;
  private final Duration maxAge;
  private final Duration stallAfter;
  private final Object lock = new Object();
  private Arrived newest;

  NvidiaSmiCsvStream(String name, List<String> cmd, Path workDir, List<String> fields, Duration maxAge, Duration stallAfter) {
    this.blocks = new NvidiaSmiCsvBlocks(fields);
    this.maxAge = maxAge;
    this.stallAfter = stallAfter;
    this.command = new StreamingCommand(name, cmd, workDir, new StreamingCommand.Lines() {
      @Override
      public void line(String line) {
        offer(blocks.line(line));
      }

      @Override
      public void pause() {
        offer(blocks.pause());
      }

      @Override
      public void started() {
        blocks.restart();
      }
    });
  }

  private void offer(NvidiaSmiCsvBlocks.Block b) {
    if (b == null) return;
    synchronized (lock) {
      newest = new Arrived(b, System.nanoTime());
      lock.notifyAll();
    }
  }

  /**
   * The newest block if it is fresh, else waits up to {@code wait} for one. Throws when none came:
   * the message says why (no output yet, a bad line, a stall; a stalled process is restarted).
   */
  NvidiaSmiCsvBlocks.Block take(Duration wait) throws IOException, InterruptedException {
    command.start();
    long deadline = System.nanoTime() + wait.toNanos();
    synchronized (lock) {
      while (true) {
        long now = System.nanoTime();
        if (newest != null && now - newest.nanos() <= maxAge.toNanos()) return newest.block();
        long left = deadline - now;
        if (left <= 0) break;
        lock.wait(Math.max(1, left / 1_000_000));
      }
    }
    long silentMs = (System.nanoTime() - command.lastLineNanos()) / 1_000_000;
    String error = blocks.lastError();
    if (silentMs > stallAfter.toMillis() && command.running()) {
      command.restart("stalled silent_ms=" + silentMs);
      throw new IOException("nvidia-smi stream printed nothing for " + silentMs + "ms; restarting it");
    }
    throw new IOException("no nvidia-smi block in the last " + maxAge.toMillis() + "ms"
        + (command.running() ? "" : " (the stream is not running; see its log line)") + (error == null ? "" : ": " + error));
  }

  @Override
  public void close() {
    command.close();
  }
}
