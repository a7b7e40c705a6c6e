package io.fleetscope.sink.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;

/**
 * Avro values of nested fields (maps, arrays, records) as plain JSON for jsonb columns, and back
 * (for the export): a record becomes an object of its fields, bytes become base64.
 */
public final class AvroJson {
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private AvroJson() {}

  public static JsonNode toNode(Object datum) {
    if (datum == null) {
      return NullNode.getInstance();
    }
    if (datum instanceof IndexedRecord r) {
      ObjectNode o = F.objectNode();
      for (Schema.Field f : r.getSchema().getFields()) {
        o.set(f.name(), toNode(r.get(f.pos())));
      }
      return o;
    }
    if (datum instanceof Map<?, ?> m) {
      ObjectNode o = F.objectNode();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        o.set(String.valueOf(e.getKey()), toNode(e.getValue()));
      }
      return o;
    }
    if (datum instanceof Collection<?> c) {
      ArrayNode a = F.arrayNode();
      for (Object x : c) {
        a.add(toNode(x));
      }
      return a;
    }
    if (datum instanceof CharSequence s) {
      return F.textNode(s.toString());
    }
    if (datum instanceof Integer i) {
      return F.numberNode(i);
    }
    if (datum instanceof Long l) {
      return F.numberNode(l);
    }
    if (datum instanceof Double d) {
      return F.numberNode(d);
    }
    if (datum instanceof Float f) {
      return F.numberNode(f);
    }
    if (datum instanceof Boolean b) {
      return F.booleanNode(b);
    }
    if (datum instanceof ByteBuffer b) {
      ByteBuffer d = b.duplicate();
      byte[] bytes = new byte[d.remaining()];
      d.get(bytes);
      return F.textNode(Base64.getEncoder().encodeToString(bytes));
    }
    return F.textNode(datum.toString());
  }

  public static String toJson(Object datum) {
    return toNode(datum).toString();
  }

  /** A JSON value read from a jsonb column as the Avro datum of the given schema. */
  public static Object fromNode(Schema schema, JsonNode n) {
    switch (schema.getType()) {
      case UNION: {
        if (n == null || n.isNull()) {
          return null;
        }
        for (Schema s : schema.getTypes()) {
          if (s.getType() != Schema.Type.NULL) {
            return fromNode(s, n);
          }
        }
        return null;
      }
      case RECORD: {
        IndexedRecord r = (IndexedRecord) SpecificData.get().newRecord(null, schema);
        for (Schema.Field f : schema.getFields()) {
          JsonNode v = n.get(f.name());
          r.put(f.pos(), v == null ? SpecificData.get().getDefaultValue(f) : fromNode(f.schema(), v));
        }
        return r;
      }
      case MAP: {
        Map<String, Object> m = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> e = it.next();
          m.put(e.getKey(), fromNode(schema.getValueType(), e.getValue()));
        }
        return m;
      }
      case ARRAY: {
        List<Object> l = new ArrayList<>();
        for (JsonNode x : n) {
          l.add(fromNode(schema.getElementType(), x));
        }
        return new GenericData.Array<>(schema, l);
      }
      case STRING:
        return n.asText();
      case INT:
        return n.asInt();
      case LONG:
        return n.asLong();
      case DOUBLE:
        return n.asDouble();
      case FLOAT:
        return (float) n.asDouble();
      case BOOLEAN:
        return n.asBoolean();
      case BYTES:
        return ByteBuffer.wrap(Base64.getDecoder().decode(n.asText()));
      case NULL:
        return null;
      default:
        throw new IllegalArgumentException("unsupported Avro type " + schema.getType());
    }
  }
}
