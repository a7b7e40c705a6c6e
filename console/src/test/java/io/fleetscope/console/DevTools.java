package io.fleetscope.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Debian's headless Chromium driven over the DevTools protocol (a WebSocket, JDK's own client):
 * navigate, evaluate, click where an element is, take screenshots. Exceptions thrown by the page
 * are collected.
 */
final class DevTools implements AutoCloseable {
  static final Path CHROMIUM = Path.of(System.getProperty("fleetscope.chromium", "/usr/bin/chromium"));
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process browser;
  private final Path profile;
  private final WebSocket ws;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  final List<String> pageErrors = new CopyOnWriteArrayList<>();

  private DevTools(Process browser, Path profile, WebSocket ws) {
    this.browser = browser;
    this.profile = profile;
    this.ws = ws;
  }

  /** Starts Chromium (flags known to work on a closed network, as root) with a page of the given size. */
  static DevTools launch(Path logFile, int width, int height) throws Exception {
    if (!Files.isExecutable(CHROMIUM)) {
      throw new IllegalStateException(CHROMIUM + " is missing: install Debian's chromium (deploy/local/install.sh does)");
    }
    Path profile = Files.createTempDirectory("fleetscope-chromium");
    Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0", "--window-size=" + width + "," + height, "about:blank")
        .redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
    Path portFile = profile.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!Files.exists(portFile) || Files.readAllLines(portFile).isEmpty()) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new IllegalStateException("chromium gave no DevTools port; its log: " + Files.readString(logFile));
      }
      Thread.sleep(50);
    }
    int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
    HttpClient http = HttpClient.newHttpClient();
    String pageWs = null;
    while (pageWs == null) {
      JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
          HttpResponse.BodyHandlers.ofString()).body());
      for (JsonNode t : targets) {
        if ("page".equals(t.path("type").asText())) {
          pageWs = t.path("webSocketDebuggerUrl").asText();
        }
      }
      if (pageWs == null) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("chromium has no page target");
        }
        Thread.sleep(50);
      }
    }
    DevTools[] self = new DevTools[1];
    StringBuilder frame = new StringBuilder();
    WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(pageWs), new WebSocket.Listener() {
      @Override
      public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
        frame.append(data);
        if (last) {
          String msg = frame.toString();
          frame.setLength(0);
          self[0].onMessage(msg);
        }
        w.request(1);
        return null;
      }
    }).get(10, TimeUnit.SECONDS);
    self[0] = new DevTools(p, profile, ws);
    self[0].call("Page.enable", null);
    self[0].call("Runtime.enable", null);
    return self[0];
  }

  private void onMessage(String msg) {
    try {
      JsonNode m = JSON.readTree(msg);
      if (m.has("id")) {
        CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
        if (f != null) {
          if (m.has("error")) {
            f.completeExceptionally(new IllegalStateException("devtools: " + m.get("error")));
          } else {
            f.complete(m.path("result"));
          }
        }
      } else if ("Runtime.exceptionThrown".equals(m.path("method").asText())) {
        pageErrors.add(m.path("params").path("exceptionDetails").toString());
      }
    } catch (IOException e) {
      pageErrors.add("unreadable devtools message: " + e.getMessage());
    }
  }

  JsonNode call(String method, ObjectNode params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> f = new CompletableFuture<>();
    pending.put(id, f);
    ObjectNode m = JSON.createObjectNode().put("id", id).put("method", method);
    if (params != null) {
      m.set("params", params);
    }
    ws.sendText(m.toString(), true).get(10, TimeUnit.SECONDS);
    return f.get(60, TimeUnit.SECONDS);
  }

  void navigate(String url) throws Exception {
    call("Page.navigate", JSON.createObjectNode().put("url", url));
  }

  /** The value of a JavaScript expression (awaited when it is a promise). */
  JsonNode eval(String expression) throws Exception {
    JsonNode r = call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression).put("returnByValue", true)
        .put("awaitPromise", true));
    if (r.has("exceptionDetails")) {
      throw new IllegalStateException("page: " + r.get("exceptionDetails"));
    }
    return r.path("result").path("value");
  }

  /** Waits until the expression is true. */
  void await(String what, String expression, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    // false while the page is still loading (document.body null, the page's globals not yet there)
    while (!eval("(() => { try { return Boolean(" + expression + "); } catch (e) { return false; } })()").asBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what + " (" + expression + ")");
      }
      Thread.sleep(50);
    }
  }

  /** A real mouse click in the middle of the first element the selector finds. */
  void click(String selector) throws Exception {
    JsonNode box = eval("(() => { const e = document.querySelector(" + JSON.writeValueAsString(selector) + ");"
        + " if (!e) return null; e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
        + " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()");
    if (box.isNull()) {
      throw new AssertionError("nothing on the page matches " + selector);
    }
    for (String type : List.of("mousePressed", "mouseReleased")) {
      call("Input.dispatchMouseEvent", JSON.createObjectNode().put("type", type).put("x", box.get("x").asDouble())
          .put("y", box.get("y").asDouble()).put("button", "left").put("clickCount", 1));
    }
  }

  void screenshot(Path file) throws Exception {
    JsonNode r = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png").put("captureBeyondViewport", false));
    Files.createDirectories(file.getParent());
    Files.write(file, Base64.getDecoder().decode(r.get("data").asText()));
  }

  @Override
  public void close() throws Exception {
    ws.abort();
    browser.destroy();
    if (!browser.waitFor(10, TimeUnit.SECONDS)) {
      browser.destroyForcibly();
    }
    try (Stream<Path> all = Files.walk(profile)) {
      List<Path> paths = new ArrayList<>(all.sorted(Comparator.reverseOrder()).toList());
      for (Path x : paths) {
        Files.deleteIfExists(x);
      }
    } catch (IOException e) {
      // a file chromium still held: the temp directory is left behind
    }
  }
}
