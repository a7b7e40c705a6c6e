package io.fleetscope.agent.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JVM's own floor, for the footprint benchmark: what a process costs before any agent code.
 *
 * <ul>
 *   <li>{@code idle}: main sleeps; the JVM with its flags and nothing else.
 *   <li>{@code io CSV SYSROOT}: the agent's I/O without its parsing, Avro or Kafka: an HTTP server on
 *       127.0.0.1, one {@code cat CSV} process a second read to the end, and every file under
 *       SYSROOT/class/infiniband/&#42;/ports/&#42;/counters read once a second.
 * </ul>
 */
public final class JvmFloor {
  private JvmFloor() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("idle")) {
      Thread.sleep(Long.MAX_VALUE);
      return;
    }
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/metrics", ex -> {
      byte[] body = "up 1\n".getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.start();
    Path csv = Path.of(args[1]);
    List<Path> counters = counterFiles(Path.of(args[2]));
    long bytes = 0;
    while (true) {
      long start = System.nanoTime();
      Process p = new ProcessBuilder("cat", csv.toString()).redirectErrorStream(true).start();
      bytes += p.getInputStream().readAllBytes().length;
      p.waitFor();
      for (Path c : counters) bytes += Files.readString(c).length();
      if (bytes < 0) System.out.println(bytes); // keeps the reads observable
      Thread.sleep(Math.max(0, 1000 - (System.nanoTime() - start) / 1_000_000));
    }
  }

  static List<Path> counterFiles(Path sys) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(sys.resolve("class/infiniband"))) {
      s.filter(Files::isRegularFile).filter(p -> p.getParent().getFileName().toString().equals("counters")).forEach(out::add);
    }
    return out;
  }
}
