package io.fleetscope.serde;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A schema registry base URL split into the address and the user info it may carry
 * ({@code http://user:password@host:port}, Confluent's {@code basic.auth.credentials.source=URL}).
 * The address without user info is the one that is shown and logged.
 *
 * @param withoutUserInfo the URL without user info and without a trailing slash
 * @param userInfo {@code user:password} (decoded), or null
 */
public record RegistryUrl(String withoutUserInfo, String userInfo) {

  /** Splits {@code url}; throws IllegalArgumentException on a malformed URL (without repeating its user info). */
  public static RegistryUrl parse(String url) {
    URI uri;
    try {
      uri = new URI(url.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("schema registry url is malformed: " + e.getReason());
    }
    String raw = uri.getRawUserInfo();
    String bare = url.trim();
    if (raw != null) {
      bare = bare.replaceFirst(java.util.regex.Pattern.quote(raw + "@"), "");
    }
    if (bare.endsWith("/")) {
      bare = bare.substring(0, bare.length() - 1);
    }
    String info = raw == null ? null : URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    return new RegistryUrl(bare, info);
  }

  /** The value of an {@code Authorization} header for {@code userInfo} ({@code user:password}), or null for none. */
  public static String basicAuthorization(String userInfo) {
    if (userInfo == null || userInfo.isEmpty()) {
      return null;
    }
    return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return withoutUserInfo;
  }
}
