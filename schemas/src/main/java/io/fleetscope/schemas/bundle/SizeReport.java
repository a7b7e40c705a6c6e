package io.fleetscope.schemas.bundle;

import java.util.Locale;

/** The size report of a bundle: per file its records, bytes on disk and bytes per record, then the total. */
public final class SizeReport {
  private SizeReport() {}

  public static String of(Manifest m) {
    StringBuilder b = new StringBuilder();
    String fmt = "%-44s %-11s %-11s %10s %12s %10s%n";
    b.append(String.format(Locale.ROOT, fmt, "file", "role", "source", "records", "bytes", "B/record"));
    long records = 0;
    long bytes = 0;
    for (BundleFile f : m.files()) {
      b.append(String.format(Locale.ROOT, fmt, f.file(), f.role().id(), f.source().id(), f.records(), f.bytes(),
          perRecord(f.bytes(), f.records())));
      records += f.isAvro() ? f.records() : 0;
      bytes += f.bytes();
    }
    b.append(String.format(Locale.ROOT, fmt, "TOTAL", "", "", records, bytes, perRecord(bytes, records)));
    return b.toString();
  }

  private static String perRecord(long bytes, long records) {
    return records == 0 ? "-" : String.format(Locale.ROOT, "%.1f", bytes / (double) records);
  }
}
