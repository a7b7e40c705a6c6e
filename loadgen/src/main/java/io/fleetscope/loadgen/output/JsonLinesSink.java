package io.fleetscope.loadgen.output;

import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.JsonLines;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes records as ARCHITECTURE's JSON lines, one per line. */
public final class JsonLinesSink implements RecordSink {
  private final Writer out;

  public JsonLinesSink(Writer out) {
    this.out = out instanceof BufferedWriter ? out : new BufferedWriter(out, 1 << 16);
  }

  public static JsonLinesSink toFile(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      return new JsonLinesSink(new OutputStreamWriter(Files.newOutputStream(file), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void accept(SimRecord r) {
    try {
      out.write(JsonLines.toJson(r.toLine()));
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public long failed() {
    return 0;
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
