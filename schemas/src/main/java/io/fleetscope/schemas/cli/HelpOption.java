package io.fleetscope.schemas.cli;

import picocli.CommandLine.Option;

/** {@code -h, --help}: prints the command's generated usage and exits 0. Add it with {@code @Mixin}. */
public final class HelpOption {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
  boolean help;
}
