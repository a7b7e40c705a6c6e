package io.fleetscope.schemas;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The JSON-lines interchange of ARCHITECTURE.md: one record per line,
 * {@code {"topic":"fleet.gpu.v1","key":"node-a","value":{...}}}, where {@code value} has exactly the
 * fields of the topic's Avro schema as plain JSON (null for an absent optional field, numbers as
 * numbers, bytes as base64). Parsing is strict: unknown fields, missing required fields and wrong
 * types are refused with a message naming the field.
 */
public final class JsonLines {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private JsonLines() {}

  /** One line: the topic, the record key (node or device id; may be null) and the value. */
  public record Line(String topic, String key, SpecificRecord value) {}

  public static String toJson(Line line) {
    ObjectNode n = F.objectNode();
    n.put("topic", line.topic());
    if (line.key() == null) {
      n.putNull("key");
    } else {
      n.put("key", line.key());
    }
    n.set("value", line.value() == null ? NullNode.getInstance() : toNode(line.value()));
    return n.toString();
  }

  /**
   * Parses one line.
   *
   * @throws IllegalArgumentException naming what is wrong (bad JSON, unknown topic, bad field)
   */
  public static Line parse(String jsonLine) {
    JsonNode n;
    try {
      n = JSON.readTree(jsonLine);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    }
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("a line must be a JSON object with topic, key and value");
    }
    JsonNode topic = n.get("topic");
    if (topic == null || !topic.isTextual()) {
      throw new IllegalArgumentException("missing \"topic\"");
    }
    Topics.TopicSpec spec = Topics.require(topic.asText());
    JsonNode key = n.get("key");
    JsonNode value = n.get("value");
    if (value == null) {
      throw new IllegalArgumentException("missing \"value\"");
    }
    SpecificRecord v = value.isNull() ? null : fromNode(spec.valueClass(), value);
    return new Line(spec.name(), key == null || key.isNull() ? null : key.asText(), v);
  }

  public static String valueToJson(IndexedRecord record) {
    return toNode(record).toString();
  }

  public static <T extends SpecificRecord> T valueFromJson(Class<T> type, String json) {
    try {
      return fromNode(type, JSON.readTree(json));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    }
  }

  /** The record as a JSON object node. */
  public static ObjectNode toNode(IndexedRecord record) {
    return (ObjectNode) write(record.getSchema(), record);
  }

  public static <T extends SpecificRecord> T fromNode(Class<T> type, JsonNode value) {
    Schema schema = SpecificData.get().getSchema(type);
    return type.cast(read(schema, value, schema.getName()));
  }

  // ---- writing

  private static JsonNode write(Schema s, Object v) {
    if (v == null) {
      return NullNode.getInstance();
    }
    switch (s.getType()) {
      case RECORD: {
        IndexedRecord r = (IndexedRecord) v;
        ObjectNode o = F.objectNode();
        for (Schema.Field f : s.getFields()) {
          o.set(f.name(), write(f.schema(), r.get(f.pos())));
        }
        return o;
      }
      case UNION: {
        int i = GenericData.get().resolveUnion(s, v);
        return write(s.getTypes().get(i), v);
      }
      case ARRAY: {
        ArrayNode a = F.arrayNode();
        for (Object e : (Iterable<?>) v) {
          a.add(write(s.getElementType(), e));
        }
        return a;
      }
      case MAP: {
        ObjectNode o = F.objectNode();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          o.set(e.getKey().toString(), write(s.getValueType(), e.getValue()));
        }
        return o;
      }
      case STRING:
      case ENUM:
        return F.textNode(v.toString());
      case INT:
        return F.numberNode(((Number) v).intValue());
      case LONG:
        return F.numberNode(((Number) v).longValue());
      case FLOAT:
        return F.numberNode(((Number) v).floatValue());
      case DOUBLE:
        return F.numberNode(((Number) v).doubleValue());
      case BOOLEAN:
        return F.booleanNode((Boolean) v);
      case BYTES: {
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return F.textNode(Base64.getEncoder().encodeToString(bytes));
      }
      case NULL:
        return NullNode.getInstance();
      default:
        throw new IllegalArgumentException("unsupported Avro type " + s.getType());
    }
  }

  // ---- reading

  private static Object read(Schema s, JsonNode n, String path) {
    switch (s.getType()) {
      case RECORD: {
        if (!n.isObject()) {
          throw bad(path, "an object", n);
        }
        IndexedRecord r = (IndexedRecord) SpecificData.get().newRecord(null, s);
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
          String name = it.next();
          if (s.getField(name) == null) {
            throw new IllegalArgumentException("unknown field '" + path + "." + name + "' (not in schema " + s.getName() + ")");
          }
        }
        for (Schema.Field f : s.getFields()) {
          JsonNode fv = n.get(f.name());
          String fp = path + "." + f.name();
          if (fv == null) {
            if (!f.hasDefaultValue()) {
              throw new IllegalArgumentException("missing required field '" + fp + "'");
            }
            r.put(f.pos(), SpecificData.get().deepCopy(f.schema(), SpecificData.get().getDefaultValue(f)));
          } else {
            r.put(f.pos(), read(f.schema(), fv, fp));
          }
        }
        return r;
      }
      case UNION: {
        if (n.isNull()) {
          for (Schema t : s.getTypes()) {
            if (t.getType() == Schema.Type.NULL) {
              return null;
            }
          }
          throw bad(path, "a value", n);
        }
        IllegalArgumentException last = null;
        for (Schema t : s.getTypes()) {
          if (t.getType() == Schema.Type.NULL) {
            continue;
          }
          try {
            return read(t, n, path);
          } catch (IllegalArgumentException e) {
            last = e;
          }
        }
        throw last;
      }
      case ARRAY: {
        if (!n.isArray()) {
          throw bad(path, "an array", n);
        }
        List<Object> l = new ArrayList<>(n.size());
        int i = 0;
        for (JsonNode e : n) {
          l.add(read(s.getElementType(), e, path + "[" + i++ + "]"));
        }
        return l;
      }
      case MAP: {
        if (!n.isObject()) {
          throw bad(path, "an object", n);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          m.put(e.getKey(), read(s.getValueType(), e.getValue(), path + "." + e.getKey()));
        }
        return m;
      }
      case STRING:
        if (!n.isTextual()) {
          throw bad(path, "a string", n);
        }
        return n.asText();
      case INT:
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
          throw bad(path, "an int", n);
        }
        return n.intValue();
      case LONG:
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
          throw bad(path, "a long", n);
        }
        return n.longValue();
      case FLOAT:
        if (!n.isNumber()) {
          throw bad(path, "a number", n);
        }
        return n.floatValue();
      case DOUBLE:
        if (!n.isNumber()) {
          throw bad(path, "a number", n);
        }
        return n.doubleValue();
      case BOOLEAN:
        if (!n.isBoolean()) {
          throw bad(path, "true or false", n);
        }
        return n.booleanValue();
      case BYTES:
        if (!n.isTextual()) {
          throw bad(path, "a base64 string", n);
        }
        try {
          return ByteBuffer.wrap(Base64.getDecoder().decode(n.asText()));
        } catch (IllegalArgumentException e) {
          throw bad(path, "a base64 string", n);
        }
      case NULL:
        if (!n.isNull()) {
          throw bad(path, "null", n);
        }
        return null;
      default:
        throw new IllegalArgumentException("unsupported Avro type " + s.getType() + " at " + path);
    }
  }

  private static IllegalArgumentException bad(String path, String expected, JsonNode got) {
    String shown = got.toString();
    if (shown.length() > 60) {
      shown = shown.substring(0, 60) + "...";
    }
    return new IllegalArgumentException("field '" + path + "' must be " + expected + ", got " + shown);
  }
}
