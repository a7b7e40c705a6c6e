package io.fleetscope.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Hostile input for the Avro deserializer (Confluent wire format) and the JSON-lines reader: real
 * records of every topic, encoded, then cut, flipped, padded, given huge length prefixes or the id
 * of another or an unknown schema; JSON lines cut, with numbers replaced by huge, negative or NaN
 * values, deep nesting or random text. Each answer comes within a time limit and is a record or the
 * documented error (SerializationException, IllegalArgumentException) with a message.
 */
class HostileSerdeInputTest {
  static final int TRIES = 10_000;
  static final Duration LIMIT = Duration.ofSeconds(5);
  static final List<Map.Entry<String, Topics.TopicSpec>> TOPICS = new ArrayList<>(Topics.all().entrySet());
  static final InMemoryRegistry REGISTRY = new InMemoryRegistry();
  static final List<byte[]> ENCODED = new ArrayList<>();
  static final List<String> LINES = new ArrayList<>();
  static final List<String> HOSTILE = List.of("NaN", "-Infinity", "1e309", "-1", "-9223372036854775809",
      "9223372036854775808", "99999999999999999999999999999999", "253402300800000", "-62135596800000", "\"\"",
      "null", "true", "{}", "[]", "\"\\u0000\"", "\"\\uD800\"", "0.5", "-0", "1e-400");
  private static ExecutorService worker = newWorker();

  static {
    RandomRecords random = new RandomRecords(29);
    AvroSerializer<SpecificRecord> ser = new AvroSerializer<>(REGISTRY);
    for (Map.Entry<String, Topics.TopicSpec> t : TOPICS) {
      for (boolean nulls : new boolean[] {false, true}) {
        SpecificRecord r = random.filled(t.getValue().valueClass(), nulls);
        ENCODED.add(ser.serialize(t.getKey(), r));
        LINES.add(JsonLines.toJson(new JsonLines.Line(t.getKey(), "node-a", r)));
      }
    }
  }

  @Property(tries = TRIES)
  void avroWireFormat(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    int i = r.nextInt(ENCODED.size());
    byte[] data = mutate(ENCODED.get(i), r);
    Map.Entry<String, Topics.TopicSpec> topic = TOPICS.get(i / 2);
    AvroDeserializer<?> d = new AvroDeserializer<>(REGISTRY, topic.getValue().valueClass());
    try {
      Object v = bounded(() -> d.deserialize(topic.getKey(), data));
      assertThat(v).isInstanceOf(topic.getValue().valueClass());
    } catch (SerializationException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }

  @Property(tries = TRIES)
  void jsonLines(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    String line = LINES.get(r.nextInt(LINES.size()));
    for (int n = 1 + r.nextInt(3); n > 0; n--) {
      line = mutate(line, r);
    }
    String in = line;
    try {
      JsonLines.Line l = bounded(() -> JsonLines.parse(in));
      assertThat(l.topic()).isNotBlank();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }

  static byte[] mutate(byte[] original, Random r) {
    byte[] b = original.clone();
    int n = 1 + r.nextInt(3);
    for (int k = 0; k < n; k++) {
      int at = b.length == 0 ? 0 : r.nextInt(b.length);
      switch (r.nextInt(7)) {
        case 0 -> b = java.util.Arrays.copyOf(b, at); // truncated
        case 1 -> {
          if (b.length > 0) {
            b[at] = (byte) r.nextInt(256);
          }
        }
        case 2 -> { // a huge or negative zig-zag varint (an array, map, string or bytes length) spliced in
          byte[] v = r.nextBoolean() ? new byte[] {(byte) 0xfe, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f}
              : new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                  (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01};
          b = splice(b, Math.max(at, Math.min(5, b.length)), v);
        }
        case 3 -> b = splice(b, b.length, new byte[1 + r.nextInt(16)]); // trailing bytes
        case 4 -> { // another or an unknown schema id
          if (b.length >= 5) {
            ByteBuffer.wrap(b, 1, 4).putInt(r.nextBoolean() ? 1 + r.nextInt(TOPICS.size() + 2) : r.nextInt());
          }
        }
        case 5 -> {
          if (b.length > 0) {
            b[0] = (byte) r.nextInt(3);
          }
        }
        default -> {
          byte[] x = new byte[r.nextInt(64)];
          r.nextBytes(x);
          b = r.nextInt(4) == 0 ? x : splice(b, at, x);
        }
      }
    }
    return b;
  }

  static byte[] splice(byte[] b, int at, byte[] x) {
    byte[] c = new byte[b.length + x.length];
    System.arraycopy(b, 0, c, 0, at);
    System.arraycopy(x, 0, c, at, x.length);
    System.arraycopy(b, at, c, at + x.length, b.length - at);
    return c;
  }

  static String mutate(String s, Random r) {
    int at = s.isEmpty() ? 0 : r.nextInt(s.length());
    switch (r.nextInt(6)) {
      case 0:
        return s.substring(0, at);
      case 1: { // a value replaced
        int colon = s.indexOf(':', at);
        if (colon < 0) {
          return s + HOSTILE.get(r.nextInt(HOSTILE.size()));
        }
        int end = colon + 1;
        while (end < s.length() && ",}]".indexOf(s.charAt(end)) < 0) {
          end++;
        }
        return s.substring(0, colon + 1) + HOSTILE.get(r.nextInt(HOSTILE.size())) + s.substring(end);
      }
      case 2:
        return s.substring(0, at) + "[".repeat(1 + r.nextInt(5000)) + s.substring(at);
      case 3:
        return s.substring(0, at) + "{\"a\":".repeat(1 + r.nextInt(3000)) + s.substring(at);
      case 4:
        return s.substring(0, at) + (char) r.nextInt(0x3000) + s.substring(Math.min(s.length(), at + 1));
      default:
        return s.substring(0, at) + "9".repeat(1 + r.nextInt(2000)) + s.substring(at);
    }
  }

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "hostile-input");
      t.setDaemon(true);
      return t;
    });
  }

  /** The call's result or exception; an AssertionError when it takes longer than LIMIT (a hang). */
  static synchronized <T> T bounded(Callable<T> c) throws Exception {
    Future<T> f = worker.submit(c);
    try {
      return f.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      worker.shutdownNow();
      worker = newWorker();
      throw new AssertionError("no answer within " + LIMIT.toMillis() + " ms (a hang)");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception ex) {
        throw ex;
      }
      if (e.getCause() instanceof Error er) {
        throw er;
      }
      throw e;
    }
  }
}
