package io.fleetscope.agent.hostile;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one parser call on a worker thread and fails when it takes longer than a limit (a hang):
 * one thread reused across tries, replaced after a timeout.
 */
public final class Bounded {
  private static ExecutorService worker = newWorker();

  private Bounded() {}

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hostile-input");
      t.setDaemon(true);
      return t;
    });
  }

  /** The call's result; its exception unchanged; an AssertionError after the limit. */
  public static synchronized <T> T call(Duration limit, Callable<T> c) throws Exception {
    Future<T> f = worker.submit(c);
    try {
      return f.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      worker.shutdownNow();
      worker = newWorker();
      throw new AssertionError("no answer within " + limit.toMillis() + " ms (a hang)");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception ex) {
        throw ex;
      }
      if (e.getCause() instanceof Error er) {
        throw er;
      }
      throw e;
    }
  }
}
