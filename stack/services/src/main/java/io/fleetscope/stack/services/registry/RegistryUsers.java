package io.fleetscope.stack.services.registry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The users the registry accepts in HTTP basic auth, read from a file of {@code user:password}
 * lines ({@code #} starts a comment). Passwords are kept only as SHA-256 digests and compared in
 * constant time; nothing here ever prints one.
 */
public final class RegistryUsers {
  private final Map<String, byte[]> digests;

  private RegistryUsers(Map<String, byte[]> digests) {
    this.digests = Map.copyOf(digests);
  }

  /** Reads {@code file}; throws IllegalArgumentException naming the file and line of a malformed entry. */
  public static RegistryUsers load(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read registry users file " + file + ": " + e.getClass().getSimpleName()
          + " " + e.getMessage(), e);
    }
    Map<String, byte[]> d = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int colon = line.indexOf(':');
      if (colon <= 0 || colon == line.length() - 1) {
        throw new IllegalArgumentException("registry users file " + file + " line " + (i + 1)
            + ": expected user:password");
      }
      d.put(line.substring(0, colon), sha256(line.substring(colon + 1)));
    }
    if (d.isEmpty()) {
      throw new IllegalArgumentException("registry users file " + file + " names no user");
    }
    return new RegistryUsers(d);
  }

  /** The given users ({@code user -> password}); for tests and embedding. */
  public static RegistryUsers of(Map<String, String> passwords) {
    Map<String, byte[]> d = new LinkedHashMap<>();
    passwords.forEach((u, p) -> d.put(u, sha256(p)));
    return new RegistryUsers(d);
  }

  /** How many users there are. */
  public int size() {
    return digests.size();
  }

  /**
   * The user an {@code Authorization} header proves, if it is {@code Basic} with a known user and
   * its password.
   */
  public Optional<String> authenticate(String authorizationHeader) {
    if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Basic ", 0, 6)) {
      return Optional.empty();
    }
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(authorizationHeader.substring(6).trim()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    int colon = decoded.indexOf(':');
    if (colon <= 0) {
      return Optional.empty();
    }
    String user = decoded.substring(0, colon);
    byte[] want = digests.get(user);
    byte[] got = sha256(decoded.substring(colon + 1));
    if (want == null) {
      MessageDigest.isEqual(got, got); // same work for a wrong user as for a wrong password
      return Optional.empty();
    }
    return MessageDigest.isEqual(want, got) ? Optional.of(user) : Optional.empty();
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
