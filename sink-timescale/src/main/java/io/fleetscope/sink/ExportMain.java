package io.fleetscope.sink;

/** Entry point of {@code ./fleetscope export}: see {@link io.fleetscope.sink.export.ExportMain}. */
public final class ExportMain {
  private ExportMain() {}

  public static void main(String[] args) {
    io.fleetscope.sink.export.ExportMain.main(args);
  }
}
