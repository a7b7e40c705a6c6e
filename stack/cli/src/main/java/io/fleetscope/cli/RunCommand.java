package io.fleetscope.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code run [--config FILE] [--kafka ..] [--registry ..] [--jdbc ..] [--alertmanager ..]}: creates the
 * topics that are missing and runs the analytics, correlator, sink and console until interrupted or
 * until one of them exits.
 */
final class RunCommand {
  static final int PARTITIONS = 4;
  static final long RAW_RETENTION_MS = 7L * 24 * 3600 * 1000;

  static int run(String[] argv, Endpoints base, PrintStream out, PrintStream err) throws Exception {
    Args a = Args.parse(argv, Set.of("config", "kafka", "registry", "jdbc", "alertmanager", "console-port"), Set.of());
    Endpoints e = base.withFlags(a);
    Path config = a.get("config", null) == null ? null : Path.of(a.get("config", null)).toAbsolutePath();
    Path state = StackCommand.config().stateDir();
    List<String> created = TopicBootstrap.ensure(e.kafka(), PARTITIONS, RAW_RETENTION_MS);
    out.printf("run topics_created=%d kafka=%s%n", created.size(), e.kafka());
    Pipeline p = new Pipeline(state, Pipeline.services(e, state, config));
    Runtime.getRuntime().addShutdownHook(new Thread(p::close, "pipeline-stop"));
    NotificationReceiver receiver = startReceiver(state, out, err);
    p.start(out, false);
    out.printf("run console=%s incidents=http://127.0.0.1:%d/api/v1/incidents alertmanager=%s (Ctrl-C stops)%n",
        e.consoleUrl(), Pipeline.CORRELATOR_HTTP_PORT, e.alertmanager());
    while (true) {
      String dead = p.firstDead();
      if (dead != null) {
        err.printf("run status=failed service=%s see=%s%n", dead, state.resolve("logs"));
        return 1;
      }
      Thread.sleep(1000);
    }
  }

  /** The local pager/ticket webhook receiver, unless something else already listens on its port. */
  static NotificationReceiver startReceiver(Path state, PrintStream out, PrintStream err) {
    try {
      NotificationReceiver r = new NotificationReceiver(NotificationReceiver.DEFAULT_PORT,
          state.resolve("logs/notifications.log"), out).start();
      out.printf("run notifications=http://127.0.0.1:%d/{pager,ticket} log=%s%n", NotificationReceiver.DEFAULT_PORT,
          state.resolve("logs/notifications.log"));
      return r;
    } catch (java.io.IOException e) {
      err.printf("run notifications=not-started port=%d reason=\"%s\"%n", NotificationReceiver.DEFAULT_PORT, e.getMessage());
      return null;
    }
  }

  private RunCommand() {}
}
