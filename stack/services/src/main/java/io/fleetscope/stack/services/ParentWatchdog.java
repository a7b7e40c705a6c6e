package io.fleetscope.stack.services;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of attached child JVMs: {@code ParentWatchdog PARENT_PID MAIN_CLASS ARGS...} runs
 * MAIN_CLASS's main and exits (running its shutdown hooks, e.g. Kafka's controlled shutdown) once
 * the parent process is gone, so a test JVM killed with SIGKILL leaves no broker behind.
 */
public final class ParentWatchdog {
  private ParentWatchdog() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: ParentWatchdog PARENT_PID MAIN_CLASS [ARGS...]");
      System.exit(2);
    }
    long parent = Long.parseLong(args[0]);
    ProcessHandle.of(parent).ifPresentOrElse(
        h -> h.onExit().thenRun(() -> {
          System.err.println("parent pid=" + parent + " exited: stopping");
          System.exit(0);
        }),
        () -> System.exit(0));
    Method main = Class.forName(args[1]).getMethod("main", String[].class);
    main.invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
  }
}
