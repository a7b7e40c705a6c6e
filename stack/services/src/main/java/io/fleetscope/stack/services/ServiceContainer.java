package io.fleetscope.stack.services;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * One service of the containers backend: a container of a FleetScope image on the host network
 * (it listens on 127.0.0.1 ports we chose, as the child processes do), through Testcontainers.
 * Ready when {@code ready} says so; stopped with SIGTERM (or the image's stop signal) and kept for a
 * restart on the same ports and data; removed on {@link #close}.
 */
final class ServiceContainer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ServiceContainer.class);

  /**
   * What to run.
   *
   * @param name service name for logs ({@code kafka}, {@code postgres}, ...)
   * @param image image name and tag, present locally ({@code deploy/images/build.sh})
   * @param args arguments after the image's entrypoint
   * @param env environment of the container
   * @param files files written into the container before it starts (path in the container -> text)
   * @param startTimeout how long {@code ready} may take
   */
  record Spec(String name, String image, List<String> args, Map<String, String> env, Map<String, String> files,
      Duration startTimeout) {}

  private final Spec spec;
  private final GenericContainer<?> container;
  private final BooleanSupplier ready;

  private ServiceContainer(Spec spec, GenericContainer<?> container, BooleanSupplier ready) {
    this.spec = spec;
    this.container = container;
    this.ready = ready;
  }

  /** Creates and starts the container and waits until {@code ready} answers true. */
  @SuppressWarnings("resource") // closed by the returned ServiceContainer
  static ServiceContainer start(Spec spec, BooleanSupplier ready) {
    long t0 = System.nanoTime();
    GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(spec.image()))
        .withNetworkMode("host")
        .withEnv(spec.env())
        .withCommand(spec.args().toArray(String[]::new));
    spec.files().forEach((path, text) -> c.withCopyToContainer(Transferable.of(text, 0644), path));
    // readiness is ours: on the host network nothing is exposed, so Testcontainers' default wait
    // (for exposed ports) returns at once and `ready` decides
    try {
      c.start();
    } catch (RuntimeException e) {
      c.stop();
      throw new IllegalStateException(spec.name() + ": container of " + spec.image() + " did not start: " + e.getMessage(), e);
    }
    ServiceContainer s = new ServiceContainer(spec, c, ready);
    s.awaitReady();
    log.info("container started service={} image={} id={} pid={} ms={}", spec.name(), spec.image(),
        c.getContainerId().substring(0, 12), s.pid(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    return s;
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + spec.startTimeout().toNanos();
    while (System.nanoTime() < deadline) {
      if (!isRunning()) {
        String tail = logTail(20);
        close();
        throw new IllegalStateException(spec.name() + ": container of " + spec.image() + " exited before it was ready; log tail:\n" + tail);
      }
      if (ready.getAsBoolean()) {
        return;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + spec.name(), e);
      }
    }
    String tail = logTail(20);
    close();
    throw new IllegalStateException(spec.name() + ": container of " + spec.image() + " not ready within "
        + spec.startTimeout() + "; log tail:\n" + tail);
  }

  private DockerClient docker() {
    return container.getDockerClient();
  }

  private InspectContainerResponse.ContainerState state() {
    return docker().inspectContainerCmd(container.getContainerId()).exec().getState();
  }

  /** The container's main process as the host sees it (signals sent to it reach the service). */
  long pid() {
    Long pid = state().getPidLong();
    return pid == null ? -1 : pid;
  }

  boolean isRunning() {
    return Boolean.TRUE.equals(state().getRunning());
  }

  /** Stops the container (its stop signal, then SIGKILL after {@code grace}); it stays for {@link #restart}. */
  void stop(Duration grace) {
    if (isRunning()) {
      long t0 = System.nanoTime();
      docker().stopContainerCmd(container.getContainerId()).withTimeout((int) Math.max(1, grace.toSeconds())).exec();
      log.info("container stopped service={} exit_code={} ms={}", spec.name(), state().getExitCodeLong(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }
  }

  /** Starts the stopped container again (same ports, same data) and waits until it is ready. */
  void restart(Duration grace) {
    stop(grace);
    docker().startContainerCmd(container.getContainerId()).exec();
    awaitReady();
    log.info("container restarted service={} pid={}", spec.name(), pid());
  }

  /** The last {@code lines} lines of the container's output. */
  String logTail(int lines) {
    String[] all = container.getLogs().split("\\R");
    return String.join("\n", java.util.Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
  }

  /** Stops and removes the container. */
  @Override
  public void close() {
    container.stop();
  }
}
