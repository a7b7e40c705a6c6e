package io.fleetscope.sink.write;

/** The data format of the sink's COPY statements. */
public enum CopyFormat {
  /** PostgreSQL's binary COPY format: no text formatting in the sink, no parsing in the server. */
  BINARY,
  /** CSV text. */
  CSV;

  /** binary or csv. */
  public static CopyFormat of(String s) {
    return switch (s) {
      case "binary" -> BINARY;
      case "csv" -> CSV;
      default -> throw new IllegalArgumentException("copy format must be binary or csv, got '" + s + "'");
    };
  }
}
