package io.fleetscope.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Minimal GNU-style argument parser: {@code --name value}, {@code --name=value}, boolean
 * {@code --flag}, and positional arguments. Unknown options are refused with the list of known ones.
 */
public final class Args {
  private final Map<String, List<String>> options = new LinkedHashMap<>();
  private final List<String> positional = new ArrayList<>();

  private Args() {}

  /**
   * @param valued options that take a value
   * @param flags options that take none
   */
  public static Args parse(String[] argv, Set<String> valued, Set<String> flags) {
    Args a = new Args();
    for (int i = 0; i < argv.length; i++) {
      String s = argv[i];
      if (s.startsWith("--")) {
        String name = s.substring(2);
        String value = null;
        int eq = name.indexOf('=');
        if (eq >= 0) {
          value = name.substring(eq + 1);
          name = name.substring(0, eq);
        }
        if (flags.contains(name) && value == null) {
          a.options.computeIfAbsent(name, k -> new ArrayList<>()).add("true");
        } else if (valued.contains(name)) {
          if (value == null) {
            if (i + 1 >= argv.length) {
              throw new UsageException("--" + name + " needs a value");
            }
            value = argv[++i];
          }
          a.options.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        } else {
          List<String> known = new ArrayList<>();
          valued.forEach(v -> known.add("--" + v + " VALUE"));
          flags.forEach(f -> known.add("--" + f));
          throw new UsageException("unknown option --" + name + "; known: " + String.join(", ", known));
        }
      } else {
        a.positional.add(s);
      }
    }
    return a;
  }

  public String get(String name, String dflt) {
    List<String> v = options.get(name);
    return v == null ? dflt : v.get(v.size() - 1);
  }

  public List<String> all(String name) {
    return options.getOrDefault(name, List.of());
  }

  public int getInt(String name, int dflt) {
    String v = get(name, null);
    if (v == null) {
      return dflt;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a whole number, got '" + v + "'");
    }
  }

  public boolean has(String name) {
    return options.containsKey(name);
  }

  public List<String> positional() {
    return positional;
  }

  /** A command-line mistake: printed as one line with the usage, exit code 2. */
  public static final class UsageException extends RuntimeException {
    public UsageException(String message) {
      super(message);
    }
  }
}
