package io.fleetscope.agent.collectors.fabric;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An InfiniBand port's link as the kernel prints it in sysfs {@code ports/<p>/rate}:
 * {@code "400 Gb/sec (4X NDR)"}, {@code "2.5 Gb/sec (1X SDR)"} or, for SDR, {@code "10 Gb/sec (4X)"}
 * (drivers/infiniband/core/sysfs.c rate_show: rate, active width, active speed). Pure.
 */
public final class IbLinkParser {
  private static final Pattern RATE = Pattern.compile("^\\s*(\\d+(?:\\.\\d+)?)\\s*Gb/sec\\s*\\((\\d+)X\\s*([A-Za-z0-9]*)\\)\\s*$");
  private static final Pattern CAP_MASK = Pattern.compile("^\\s*(0x[0-9a-fA-F]{1,8})\\s*$");

  private IbLinkParser() {}

  /** Rate (Gb/s), width ({@code 4X}) and per-lane speed ({@code NDR}). */
  public record Link(double rateGbps, String width, String speed) {}

  /** The link of a rate file's content; IllegalArgumentException naming what was read when it is not one. */
  public static Link parse(String rate) {
    Matcher m = RATE.matcher(rate == null ? "" : rate);
    if (!m.matches()) {
      throw new IllegalArgumentException("ports/<p>/rate: '" + (rate == null ? "" : rate.strip()) + "' is not '<N> Gb/sec (<W>X <SPEED>)'");
    }
    String speed = m.group(3).isEmpty() ? "SDR" : m.group(3).toUpperCase(Locale.ROOT);
    return new Link(Double.parseDouble(m.group(1)), m.group(2) + "X", speed);
  }

  /** The capability mask file's content ({@code 0xa651ec48}), lower case; IllegalArgumentException when not hex. */
  public static String capMask(String s) {
    Matcher m = CAP_MASK.matcher(s == null ? "" : s);
    if (!m.matches()) {
      throw new IllegalArgumentException("ports/<p>/cap_mask: '" + (s == null ? "" : s.strip()) + "' is not a hex mask");
    }
    return m.group(1).toLowerCase(Locale.ROOT);
  }
}
