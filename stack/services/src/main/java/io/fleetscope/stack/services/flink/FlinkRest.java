package io.fleetscope.stack.services.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The parts of Flink's REST API (v1) that FleetScope uses: cluster overview, jar upload and run,
 * job state, checkpoints, stop-with-savepoint, cancel and the exception history. Java's own HTTP
 * client and Jackson; Flink's {@code RestClusterClient} would drag the whole runtime onto the
 * caller's classpath for these few calls.
 */
public final class FlinkRest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** A failed call: the HTTP status and Flink's {@code errors} text. */
  public static final class RestException extends RuntimeException {
    private final int status;

    RestException(int status, String message) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /** What {@code /jars/:id/run} takes. {@code savepointPath} null starts empty. */
  public record RunRequest(String entryClass, List<String> args, Integer parallelism, String savepointPath,
      boolean allowNonRestoredState) {}

  /** One job of {@code /jobs/overview}. */
  public record JobSummary(String id, String name, String state, long startTime) {}

  /** The newest completed checkpoint of a job, with its size and duration; and what the job restored. */
  public record Checkpoints(long completed, long failed, long inProgress, Long latestId, String latestPath,
      long latestSizeBytes, long latestFullSizeBytes, long latestDurationMs, String restoredPath) {}

  private final String base;
  private final HttpClient http;

  public FlinkRest(String baseUrl) {
    this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
  }

  public String baseUrl() {
    return base;
  }

  /** {@code GET /overview}: taskmanagers, slots-total, slots-available, jobs-running, flink-version. */
  public JsonNode overview() {
    return get("/overview");
  }

  /** Whether {@code /overview} answers. */
  public boolean isHealthy() {
    try {
      return overview().has("taskmanagers");
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The resource ids of the TaskManagers the JobManager knows now. */
  public java.util.Set<String> taskManagerIds() {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (JsonNode tm : get("/taskmanagers").path("taskmanagers")) {
      out.add(tm.path("id").asText());
    }
    return out;
  }

  /** Uploads a job jar; returns its jar id on the cluster. */
  public String uploadJar(Path jar) {
    String boundary = "fleetscope-" + UUID.randomUUID();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    try {
      body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
          + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n").getBytes(StandardCharsets.UTF_8));
      body.write(Files.readAllBytes(jar));
      body.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("flink: cannot read job jar " + jar + ": " + e.getMessage(), e);
    }
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/jars/upload")).timeout(Duration.ofMinutes(2))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
    JsonNode r = send(req);
    String filename = r.path("filename").asText("");
    if (filename.isEmpty()) {
      throw new RestException(200, "upload of " + jar + " answered without a filename: " + r);
    }
    return Path.of(filename).getFileName().toString();
  }

  /** Runs an uploaded jar; returns the job id. */
  public String runJar(String jarId, RunRequest run) {
    ObjectNode body = JSON.createObjectNode();
    body.put("entryClass", run.entryClass());
    ArrayNode args = body.putArray("programArgsList");
    run.args().forEach(args::add);
    if (run.parallelism() != null) {
      body.put("parallelism", run.parallelism());
    }
    if (run.savepointPath() != null) {
      body.put("savepointPath", run.savepointPath());
      body.put("allowNonRestoredState", run.allowNonRestoredState());
      body.put("claimMode", "NO_CLAIM");
    }
    return post("/jars/" + jarId + "/run", body, Duration.ofMinutes(3)).path("jobid").asText();
  }

  public void deleteJar(String jarId) {
    send(HttpRequest.newBuilder(URI.create(base + "/jars/" + jarId)).timeout(TIMEOUT).DELETE().build());
  }

  /** Every job the cluster knows, newest first. */
  public List<JobSummary> jobs() {
    List<JobSummary> out = new ArrayList<>();
    for (JsonNode j : get("/jobs/overview").path("jobs")) {
      out.add(new JobSummary(j.path("jid").asText(), j.path("name").asText(), j.path("state").asText(),
          j.path("start-time").asLong()));
    }
    out.sort((a, b) -> Long.compare(b.startTime(), a.startTime()));
    return out;
  }

  /** The newest job with this name that is not in a terminal state. */
  public Optional<JobSummary> activeJob(String name) {
    return jobs().stream().filter(j -> j.name().equals(name))
        .filter(j -> !List.of("FINISHED", "CANCELED", "FAILED").contains(j.state())).findFirst();
  }

  /** {@code GET /jobs/:id}. */
  public JsonNode job(String jobId) {
    return get("/jobs/" + jobId);
  }

  /** The job's state: CREATED, RUNNING, RESTARTING, FAILING, FAILED, CANCELED, FINISHED, ... */
  public String jobState(String jobId) {
    return job(jobId).path("state").asText();
  }

  /** Whether the job is RUNNING with every task of every vertex RUNNING. */
  public boolean allTasksRunning(String jobId) {
    JsonNode j = job(jobId);
    if (!"RUNNING".equals(j.path("state").asText())) {
      return false;
    }
    for (JsonNode v : j.path("vertices")) {
      int running = v.path("tasks").path("RUNNING").asInt();
      if (running != v.path("parallelism").asInt()) {
        return false;
      }
    }
    return true;
  }

  /** {@code GET /jobs/:id/checkpoints}, condensed. */
  public Checkpoints checkpoints(String jobId) {
    JsonNode c = get("/jobs/" + jobId + "/checkpoints");
    JsonNode counts = c.path("counts");
    JsonNode latest = c.path("latest").path("completed");
    JsonNode restored = c.path("latest").path("restored");
    boolean has = latest.isObject() && latest.has("id");
    return new Checkpoints(counts.path("completed").asLong(), counts.path("failed").asLong(),
        counts.path("in_progress").asLong(), has ? latest.path("id").asLong() : null,
        has ? latest.path("external_path").asText(null) : null,
        has ? latest.path("checkpointed_size").asLong() : 0, has ? latest.path("state_size").asLong() : 0,
        has ? latest.path("end_to_end_duration").asLong() : 0,
        restored.isObject() ? restored.path("external_path").asText(null) : null);
  }

  /** Triggers a checkpoint now (besides the periodic ones); returns the trigger id for {@link #checkpointStatus}. */
  public String triggerCheckpoint(String jobId) {
    ObjectNode body = JSON.createObjectNode();
    body.put("checkpointType", "CONFIGURED");
    return post("/jobs/" + jobId + "/checkpoints", body, TIMEOUT).path("request-id").asText();
  }

  /** The triggered checkpoint's id once it completed; empty while in progress; throws when it failed. */
  public Optional<Long> checkpointStatus(String jobId, String triggerId) {
    JsonNode r = get("/jobs/" + jobId + "/checkpoints/" + triggerId);
    if (!"COMPLETED".equals(r.path("status").path("id").asText())) {
      return Optional.empty();
    }
    JsonNode op = r.path("operation");
    if (op.has("failure-cause")) {
      JsonNode f = op.path("failure-cause");
      throw new RestException(200, "checkpoint failed: " + firstLine(f.path("serialized-throwable").asText(
          f.path("stack-trace").asText(f.toString()))));
    }
    return Optional.of(op.path("checkpointId").asLong());
  }

  /** Triggers stop-with-savepoint; returns the trigger id to poll with {@link #savepointStatus}. */
  public String stopWithSavepoint(String jobId, String targetDirectory) {
    ObjectNode body = JSON.createObjectNode();
    if (targetDirectory != null) {
      body.put("targetDirectory", targetDirectory);
    }
    body.put("drain", false);
    return post("/jobs/" + jobId + "/stop", body, TIMEOUT).path("request-id").asText();
  }

  /** Triggers a savepoint of a running job (it keeps running). */
  public String triggerSavepoint(String jobId, String targetDirectory) {
    ObjectNode body = JSON.createObjectNode();
    if (targetDirectory != null) {
      body.put("target-directory", targetDirectory);
    }
    body.put("cancel-job", false);
    return post("/jobs/" + jobId + "/savepoints", body, TIMEOUT).path("request-id").asText();
  }

  /**
   * The savepoint operation's outcome: empty while in progress, the savepoint's location when done;
   * throws with Flink's failure cause when it failed.
   */
  public Optional<String> savepointStatus(String jobId, String triggerId) {
    JsonNode r = get("/jobs/" + jobId + "/savepoints/" + triggerId);
    if (!"COMPLETED".equals(r.path("status").path("id").asText())) {
      return Optional.empty();
    }
    JsonNode op = r.path("operation");
    if (op.has("failure-cause")) {
      JsonNode f = op.path("failure-cause");
      throw new RestException(200, "savepoint failed: " + firstLine(f.path("serialized-throwable").asText(
          f.path("stack-trace").asText(f.toString()))));
    }
    return Optional.of(op.path("location").asText());
  }

  /** Cancels a job (its retained checkpoints stay). */
  public void cancel(String jobId) {
    send(HttpRequest.newBuilder(URI.create(base + "/jobs/" + jobId + "?mode=cancel")).timeout(TIMEOUT)
        .method("PATCH", HttpRequest.BodyPublishers.noBody()).build());
  }

  /** The job's exception history, newest first: one entry per failure, with the task it happened in. */
  public List<JobFailure> exceptions(String jobId) {
    List<JobFailure> out = new ArrayList<>();
    for (JsonNode e : get("/jobs/" + jobId + "/exceptions?maxExceptions=20").path("exceptionHistory").path("entries")) {
      out.add(new JobFailure(e.path("timestamp").asLong(), e.path("taskName").asText(null),
          e.path("exceptionName").asText(""), e.path("stacktrace").asText("")));
    }
    return out;
  }

  /** One entry of a job's exception history. */
  public record JobFailure(long timestamp, String taskName, String exceptionName, String stacktrace) {}

  // ---- plumbing -------------------------------------------------------------------------------

  private JsonNode get(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).GET().build());
  }

  private JsonNode post(String path, JsonNode body, Duration timeout) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
  }

  private JsonNode send(HttpRequest req) {
    HttpResponse<String> r;
    try {
      r = http.send(req, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new RestException(0, "flink REST " + req.method() + " " + req.uri() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RestException(0, "interrupted: flink REST " + req.method() + " " + req.uri());
    }
    JsonNode body;
    try {
      body = r.body() == null || r.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(r.body());
    } catch (IOException e) {
      body = JSON.createObjectNode().put("text", r.body());
    }
    if (r.statusCode() >= 400) {
      StringBuilder msg = new StringBuilder();
      for (JsonNode e : body.path("errors")) {
        msg.append(msg.length() == 0 ? "" : "\n").append(e.asText());
      }
      throw new RestException(r.statusCode(), msg.length() == 0 ? "HTTP " + r.statusCode() + " from " + req.uri() : msg.toString());
    }
    return body;
  }

  static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
