package io.fleetscope.loadgen.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;

/**
 * Calls flink-jobs' AnalyzeMain.main(String[]) in this JVM, found by name on the classpath (loadgen
 * has no Maven dependency on flink-jobs). The class names tried are {@link #CANDIDATES}.
 */
public final class ReflectiveAnalyzer implements Analyzer {
  public static final List<String> CANDIDATES =
      List.of("io.fleetscope.flink.core.AnalyzeMain", "io.fleetscope.flink.AnalyzeMain");

  private final Method main;
  private final String className;

  private ReflectiveAnalyzer(Method main, String className) {
    this.main = main;
    this.className = className;
  }

  /** The analyzer, or an IllegalStateException saying which classes were looked for. */
  public static ReflectiveAnalyzer find() {
    for (String c : CANDIDATES) {
      try {
        Class<?> k = Class.forName(c);
        return new ReflectiveAnalyzer(k.getMethod("main", String[].class), c);
      } catch (ClassNotFoundException | NoSuchMethodException e) {
        // try the next one
      }
    }
    throw new IllegalStateException("no analyze entry point on the classpath (looked for " + CANDIDATES
        + "); run through ./fleetscope bench, or pass --analyze-cmd 'CMD {in} {out}'");
  }

  @Override
  public void analyze(Path in, Path out) throws Exception {
    try {
      main.invoke(null, (Object) new String[] {"--in", in.toString(), "--out", out.toString()});
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception ex ? ex : new RuntimeException(e.getCause());
    }
  }

  @Override
  public String describe() {
    return className + ".main";
  }
}
