package io.fleetscope.agent.config;

import java.util.ArrayList;
import java.util.List;

/** A collector section that runs a command: {@code command} is the program and its arguments (no shell). */
public class CommandConfig extends CollectorConfig {
  /** Program and arguments; subclasses set the default. */
  public List<String> command = new ArrayList<>();

  @Override
  public void validate(String section) throws ConfigException {
    super.validate(section);
    Checks.command(section + ".command", command);
  }
}
