package io.fleetscope.agent.collectors.storage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.StorageSample;

/**
 * Pure: the output of {@code nvme smart-log /dev/nvmeN -o json} -> one {@link StorageSample} of tier
 * {@code local-nvme}. Handles both nvme-cli layouts: 1.x/2.x up to 2.10 print {@code critical_warning}
 * as a number, 2.11+ as an object with a {@code value}; some 2.x builds print large counters as
 * strings. Temperature is in Kelvin in the log (NVMe 1.4, Figure 194) and converted to Celsius; data
 * units are thousands of 512-byte units.
 */
public final class NvmeSmartLogParser {
  private NvmeSmartLogParser() {}

  public static final String SOURCE = "nvme-smart-log";
  public static final String TIER = "local-nvme";
  /** One data unit of the health log: 1000 x 512 bytes. */
  static final long DATA_UNIT_BYTES = 512_000L;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** @throws IllegalArgumentException when the text is not a smart-log JSON object */
  public static StorageSample parse(String json, String device, CollectContext ctx) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("nvme smart-log output of " + device + " is not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject() || !root.has("percent_used") && !root.has("media_errors")) {
      throw new IllegalArgumentException("nvme smart-log output of " + device + " has no health log fields (percent_used, media_errors)");
    }
    JsonNode cw = root.get("critical_warning");
    Long warning = cw != null && cw.isObject() ? number(cw.get("value")) : number(cw);
    Long kelvin = number(root.get("temperature"));
    Long unitsRead = number(root.get("data_units_read"));
    Long unitsWritten = number(root.get("data_units_written"));
    return StorageSample.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setTier(TIER).setDevice(device)
        .setCriticalWarning(warning == null ? null : warning.intValue())
        .setMediaErrors(number(root.get("media_errors")))
        .setPercentageUsed(asInt(number(root.get("percent_used"))))
        .setAvailableSparePct(asInt(number(root.get("avail_spare"))))
        .setTempC(kelvin == null || kelvin == 0 ? null : kelvin - 273.0)
        .setErrLogEntries(number(root.get("num_err_log_entries")))
        .setReadBytes(unitsRead == null ? null : Math.multiplyExact(unitsRead, DATA_UNIT_BYTES))
        .setWriteBytes(unitsWritten == null ? null : Math.multiplyExact(unitsWritten, DATA_UNIT_BYTES))
        .build();
  }

  private static Integer asInt(Long v) {
    return v == null ? null : (int) Math.min(Integer.MAX_VALUE, v);
  }

  /** A number, or a number printed as a string (nvme-cli 2.1); null when absent or not a number. */
  static Long number(JsonNode n) {
    if (n == null || n.isNull()) return null;
    if (n.isIntegralNumber()) return n.canConvertToLong() ? n.longValue() : Long.MAX_VALUE;
    if (n.isNumber()) return (long) n.doubleValue();
    if (n.isTextual()) {
      String t = n.textValue().trim();
      try {
        return t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t.replace(",", ""));
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }
}
