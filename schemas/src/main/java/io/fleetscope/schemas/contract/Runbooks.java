package io.fleetscope.schemas.contract;

import java.util.Locale;

/**
 * Where the runbook of an alert name is: a section of {@code docs/runbooks.md} whose anchor is the
 * alert name in lower case. Every alert name of ARCHITECTURE.md has one.
 */
public final class Runbooks {
  /** The runbooks document, relative to the repository root (the correlator lets it be overridden). */
  public static final String BASE = "docs/runbooks.md";

  private Runbooks() {}

  /** {@code docs/runbooks.md#<alertname lower case>}. */
  public static String url(String alertname) {
    return url(BASE, alertname);
  }

  /** {@code <base>#<alertname lower case>}, for a copy of the runbooks published elsewhere. */
  public static String url(String base, String alertname) {
    return base + "#" + alertname.toLowerCase(Locale.ROOT);
  }
}
