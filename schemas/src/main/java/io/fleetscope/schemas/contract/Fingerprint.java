package io.fleetscope.schemas.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fingerprint of an anomaly or incident: the first 16 hex digits of SHA-256 over its labels as
 * sorted {@code name=value} lines (each ended by a newline, UTF-8). The same label set always has the
 * same fingerprint, whatever the map's order; it is the Kafka key of both anomalies and incidents.
 */
public final class Fingerprint {
  private static final int HEX_DIGITS = 16;

  private Fingerprint() {}

  /** The fingerprint of {@code labels}. */
  public static String of(Map<String, String> labels) {
    StringBuilder lines = new StringBuilder();
    new TreeMap<>(labels).forEach((k, v) -> lines.append(k).append('=').append(v).append('\n'));
    byte[] digest = sha256().digest(lines.toString().getBytes(StandardCharsets.UTF_8));
    StringBuilder hex = new StringBuilder(HEX_DIGITS);
    for (int i = 0; i < HEX_DIGITS / 2; i++) {
      hex.append(String.format("%02x", digest[i]));
    }
    return hex.toString();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 missing from the JDK", e);
    }
  }
}
