package io.fleetscope.cli;

import io.fleetscope.loadgen.output.ScenarioBundle;
import io.fleetscope.schemas.bundle.BundleReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The scenario with a cooling incident and an ECC failure (4 nodes, seed 42) written as a bundle,
 * and what today's analytics and correlator make of it bounded ({@code backtest}'s run, the same as
 * {@code analyze --in DIR}): computed once per test JVM and shared by the ITs that compare with it
 * (BundleLoopIT, ReplayLiveIT), since the bounded run takes most of a minute on two cores.
 */
final class CoolingAndEcc {
  static final String SCENARIO = "src/test/resources/scenarios/cooling-and-ecc.yaml";
  static final int NODES = 4;
  static final long SEED = 42;

  private static BundleReader bundle;
  private static BacktestCommand.Outcome bounded;

  private CoolingAndEcc() {}

  /** The scenario's bundle (a directory named {@code scenario}, removed when the JVM exits). */
  static synchronized BundleReader bundle() {
    if (bundle == null) {
      try {
        Path root = Files.createTempDirectory("fleetscope-cooling-and-ecc-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(root), "cooling-and-ecc-cleanup"));
        ScenarioBundle.write(SCENARIO, NODES, SEED, root.resolve("scenario"));
        bundle = BundleReader.open(root.resolve("scenario"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return bundle;
  }

  /** The bundle scored and analysed with today's settings: its anomalies and incident versions are in {@code produced()}. */
  static synchronized BacktestCommand.Outcome bounded() throws Exception {
    if (bounded == null) {
      PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
      bounded = new BacktestCommand(quiet).score(bundle());
    }
    return bounded;
  }

  private static void delete(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }
}
