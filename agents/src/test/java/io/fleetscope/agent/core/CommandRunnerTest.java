package io.fleetscope.agent.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandRunnerTest {
  @TempDir Path dir;

  @Test
  void returnsStdoutOfACommandThatFinishes() throws Exception {
    CommandRunner.Result r = new CommandRunner(dir).runChecked(List.of("sh", "-c", "printf 'a,b\\n1,2\\n'"), Duration.ofSeconds(5));
    assertThat(r.exitCode()).isZero();
    assertThat(r.stdoutText()).isEqualTo("a,b\n1,2\n");
  }

  @Test
  void aNonZeroExitNamesTheCommandAndTheFirstStderrLine() {
    assertThatThrownBy(() -> new CommandRunner(dir).runChecked(List.of("sh", "-c", "echo 'no GPU found' >&2; echo more >&2; exit 9"), Duration.ofSeconds(5)))
        .isInstanceOf(IOException.class)
        .hasMessage("command sh exited 9: no GPU found");
  }

  @Test
  void aCommandThatHangsIsKilledAtItsDeadline() {
    assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
        assertThatThrownBy(() -> new CommandRunner(dir).run(List.of("sleep", "60"), Duration.ofMillis(300)))
            .isInstanceOf(TimeoutException.class)
            .hasMessageContaining("300ms"));
  }

  @Test
  void aChildThatKeepsStdoutOpenIsKilledTooAndTheNextCommandStillRuns() throws Exception {
    CommandRunner runner = new CommandRunner(dir);
    long t0 = System.nanoTime();
    assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
        assertThatThrownBy(() -> runner.run(List.of("sh", "-c", "sleep 60 & sleep 60"), Duration.ofMillis(300)))
            .isInstanceOf(TimeoutException.class));
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    // the shared watchdog keeps working for later commands
    assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
        assertThatThrownBy(() -> runner.run(List.of("sleep", "60"), Duration.ofMillis(200)))
            .isInstanceOf(TimeoutException.class));
    assertThat(runner.runChecked(List.of("echo", "ok"), Duration.ofSeconds(5)).stdoutText()).isEqualTo("ok\n");
  }
}
