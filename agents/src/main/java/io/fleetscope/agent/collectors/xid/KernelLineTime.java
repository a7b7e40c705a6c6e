package io.fleetscope.agent.collectors.xid;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time a kernel log line was logged, from the line itself (so a line read late, e.g. after an
 * agent restart, keeps the kernel's time, not the read time). Recognised, first match wins:
 * <ul>
 *   <li>RFC 3339 / ISO 8601 at the start (rsyslog high precision, {@code journalctl -o short-iso},
 *       {@code short-iso-precise}): {@code 2026-12-05T03:32:12.123456+00:00 host kernel: ...}
 *   <li>traditional syslog ({@code journalctl -o short}, {@code short-precise}):
 *       {@code Dec  5 03:32:12[.123456] host kernel: ...}, in {@code zone}; the year is the one that
 *       puts the time nearest before the read time
 *   <li>{@code dmesg -T}: {@code [Sat Dec  5 03:32:12 2026] ...}, in {@code zone}
 *   <li>{@code dmesg}: {@code [12345.678901] ...} seconds since boot, when the boot time is known
 * </ul>
 * Lines with none of these ({@code journalctl -o cat}) have no time of their own: null.
 */
public final class KernelLineTime {
  private KernelLineTime() {}

  private static final Pattern ISO = Pattern.compile(
      "^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?)(Z|[+-]\\d{2}:?\\d{2})\\s");
  private static final Pattern SYSLOG = Pattern.compile(
      "^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(\\d{1,2}) (\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?\\s");
  private static final Pattern DMESG_T = Pattern.compile("^\\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\\d{1,2} \\d{2}:\\d{2}:\\d{2} \\d{4})\\]");
  private static final Pattern DMESG = Pattern.compile("^\\[\\s*(\\d{1,10})\\.(\\d{1,9})\\]");
  private static final DateTimeFormatter DMESG_T_FORMAT = DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy", Locale.ROOT);
  private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

  /**
   * @param readMillis when the line was read (picks the year of a syslog time)
   * @param bootMillis the boot time (for dmesg's seconds since boot); negative when unknown
   * @return epoch milliseconds, or null when the line carries no time
   */
  public static Long parse(String line, ZoneId zone, long readMillis, long bootMillis) {
    try {
      Matcher m = ISO.matcher(line);
      if (m.find()) {
        String offset = m.group(2);
        if (offset.length() == 5) offset = offset.substring(0, 3) + ":" + offset.substring(3);
        return OffsetDateTime.parse(m.group(1) + offset).toInstant().toEpochMilli();
      }
      m = SYSLOG.matcher(line);
      if (m.find()) {
        int month = MONTHS.indexOf(m.group(1)) / 3 + 1;
        int nanos = m.group(6) == null ? 0 : Integer.parseInt((m.group(6) + "00000000").substring(0, 9));
        int year = ZonedDateTime.ofInstant(java.time.Instant.ofEpochMilli(readMillis), zone).getYear();
        for (int y = year + 1; y >= year - 1; y--) {
          long t = LocalDateTime.of(y, month, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
              Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), nanos).atZone(zone).toInstant().toEpochMilli();
          if (t <= readMillis + 86_400_000L) return t;   // a day of clock skew allowed
        }
        return null;
      }
      m = DMESG_T.matcher(line);
      if (m.find()) {
        return LocalDateTime.parse(m.group(1).replaceAll(" +", " "), DMESG_T_FORMAT).atZone(zone).toInstant().toEpochMilli();
      }
      m = DMESG.matcher(line);
      if (m.find() && bootMillis >= 0) {
        long micros = Long.parseLong((m.group(2) + "000000").substring(0, 6));
        return bootMillis + Long.parseLong(m.group(1)) * 1000 + micros / 1000;
      }
    } catch (java.time.DateTimeException | NumberFormatException e) {
      return null;   // e.g. Feb 30: not a time
    }
    return null;
  }
}
