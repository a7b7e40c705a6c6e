package io.fleetscope.agent.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamingCommandTest {
  static final class Recorder implements StreamingCommand.Lines {
    final List<String> lines = new CopyOnWriteArrayList<>();
    final AtomicInteger pauses = new AtomicInteger();
    final AtomicInteger starts = new AtomicInteger();

    @Override
    public void line(String line) {
      lines.add(line);
    }

    @Override
    public void pause() {
      pauses.incrementAndGet();
    }

    @Override
    public void started() {
      starts.incrementAndGet();
    }
  }

  static void await(java.util.function.BooleanSupplier cond) throws InterruptedException {
    long end = System.nanoTime() + 10_000_000_000L;
    while (!cond.getAsBoolean() && System.nanoTime() < end) Thread.sleep(20);
    assertThat(cond.getAsBoolean()).isTrue();
  }

  @Test
  void linesArriveAsPrintedWithAPauseBetweenOutputs(@TempDir Path dir) throws Exception {
    Recorder r = new Recorder();
    try (StreamingCommand s = new StreamingCommand("t", List.of("sh", "-c", "printf 'a\\nb\\n'; sleep 0.3; printf 'c\\n'; exec sleep 60"), dir, r)) {
      s.start();
      await(() -> r.lines.size() == 3);
      assertThat(r.lines).containsExactly("a", "b", "c");
      assertThat(r.pauses.get()).as("after b and after c").isEqualTo(2);
      assertThat(s.running()).isTrue();
    }
  }

  @Test
  void aProcessThatExitsIsStartedAgainWithBackoff(@TempDir Path dir) throws Exception {
    Recorder r = new Recorder();
    try (StreamingCommand s = new StreamingCommand("t", List.of("sh", "-c", "echo run; exit 3"), dir, r, Duration.ofMillis(50))) {
      s.start();
      await(() -> r.starts.get() >= 3);
      assertThat(r.lines).hasSizeGreaterThanOrEqualTo(2).containsOnly("run");
    }
  }

  @Test
  void closeStopsTheProcessAndItsChildren(@TempDir Path dir) throws Exception {
    Recorder r = new Recorder();
    StreamingCommand s = new StreamingCommand("t", List.of("sh", "-c", "sleep 61 & echo up; wait"), dir, r);
    s.start();
    await(() -> r.lines.contains("up"));
    s.close();
    await(() -> ProcessHandle.current().descendants().noneMatch(p -> p.isAlive() && p.info().commandLine().orElse("").contains("sleep 61")));
    assertThat(s.running()).isFalse();
  }
}
