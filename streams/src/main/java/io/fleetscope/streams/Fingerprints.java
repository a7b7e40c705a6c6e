package io.fleetscope.streams;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.TreeMap;

/** Fingerprint of a label set: the first 16 hex digits of SHA-256 over the sorted {@code name=value} lines. */
public final class Fingerprints {
  private Fingerprints() {}

  public static String of(Map<String, String> labels) {
    StringBuilder b = new StringBuilder();
    new TreeMap<>(labels).forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(b.toString().getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(16);
      for (int i = 0; i < 8; i++) {
        hex.append(String.format("%02x", d[i]));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 missing from the JDK", e);
    }
  }
}
