package io.fleetscope.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The fleet heatmap, aggregated on the server: racks by row, nodes by rack, one cell per GPU, each
 * cell one value and one level (0 fine, 1 watch, 2 warning, 3 critical, -1 no sample) of the chosen
 * {@link Metric}. The page draws the cells as they come; it computes nothing.
 */
public final class Heatmap {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private Heatmap() {}

  /** NVML clock event reasons that mean thermal throttling: 0x8 HW slowdown, 0x20 SW thermal, 0x40 HW thermal. */
  public static final long THERMAL_MASK = 0x8 | 0x20 | 0x40;
  /** 0x80 HW power brake. */
  public static final long POWER_BRAKE = 0x80;
  /** 0x4 SW power cap. */
  public static final long POWER_CAP = 0x4;

  /** What colours a cell. */
  public enum Metric {
    /** slowdown temperature minus temperature, in °C: 10 and more fine, under 10 watch, under 5 warning, 0 or less critical */
    HEADROOM("°C"),
    /** the analytics' thermal-throttle risk score (0 to 1), its level ok, watch, warning or critical */
    RISK("score"),
    /** corrected (SBE) errors; watch with any, warning with an uncorrected (DBE) error or a row remap pending, critical on a remap failure */
    ECC("SBE"),
    /** the throttle reasons bitmask: watch on SW power cap, warning on HW power brake, critical on thermal throttling */
    THROTTLE("reasons");

    public final String unit;

    Metric(String unit) {
      this.unit = unit;
    }

    public static Metric parse(String v) {
      if (v == null) {
        return HEADROOM;
      }
      for (Metric m : values()) {
        if (m.name().equalsIgnoreCase(v)) {
          return m;
        }
      }
      throw new ConsoleServer.BadParam("metric must be one of headroom, risk, ecc, throttle, got '" + TimeRange.shorten(v) + "'");
    }

    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One GPU's latest state; null where it has not reported (in the window) or the analytics have no score. */
  public record Cell(String row, String rack, String node, int gpu, Double tempC, Double slowdownC, Double riskHeadroomC,
      Long throttleReasons, Long sbe, Long dbe, Boolean remapPending, Boolean remapFailure, Double riskScore, String riskLevel) {
    public Cell {
      Objects.requireNonNull(node);
    }

    boolean reporting() {
      return tempC != null || throttleReasons != null || sbe != null;
    }
  }

  /** A cell's value and level, or null and -1 when there is nothing to show. */
  public record Reading(Double value, int level) {
    static final Reading NONE = new Reading(null, -1);
  }

  public static Reading read(Metric m, Cell c) {
    switch (m) {
      case HEADROOM: {
        Double h = c.tempC() != null && c.slowdownC() != null ? Double.valueOf(c.slowdownC() - c.tempC()) : c.riskHeadroomC();
        if (h == null) {
          return Reading.NONE;
        }
        return new Reading(round1(h), h <= 0 ? 3 : h < 5 ? 2 : h < 10 ? 1 : 0);
      }
      case RISK: {
        if (c.riskScore() == null) {
          return Reading.NONE;
        }
        int level = switch (String.valueOf(c.riskLevel())) {
          case "critical" -> 3;
          case "warning" -> 2;
          case "watch" -> 1;
          default -> 0;
        };
        return new Reading(Math.round(c.riskScore() * 100) / 100.0, level);
      }
      case ECC: {
        if (!c.reporting()) {
          return Reading.NONE;
        }
        long sbe = c.sbe() == null ? 0 : c.sbe();
        int level = Boolean.TRUE.equals(c.remapFailure()) ? 3
            : (c.dbe() != null && c.dbe() > 0) || Boolean.TRUE.equals(c.remapPending()) ? 2 : sbe > 0 ? 1 : 0;
        return new Reading((double) sbe, level);
      }
      default: {
        if (c.throttleReasons() == null) {
          return c.reporting() ? new Reading(0.0, 0) : Reading.NONE;
        }
        long r = c.throttleReasons();
        int level = (r & THERMAL_MASK) != 0 ? 3 : (r & POWER_BRAKE) != 0 ? 2 : (r & POWER_CAP) != 0 ? 1 : 0;
        return new Reading((double) r, level);
      }
    }
  }

  /**
   * The heatmap of these cells, which come ordered by row, rack, node and GPU:
   * {@code {"metric","unit","gpus","nodes","racks","reporting","levels":[n0,n1,n2,n3],
   * "rows":[{"row","racks":[{"rack","nodes":[{"node","gpu":[..],"v":[..],"l":[..]}]}]}]}}.
   */
  public static ObjectNode build(Metric m, List<Cell> cells) {
    ObjectNode out = F.objectNode();
    out.put("metric", m.key());
    out.put("unit", m.unit);
    ArrayNode rows = F.arrayNode();
    ObjectNode row = null;
    ObjectNode rack = null;
    ObjectNode node = null;
    int nodes = 0;
    int racks = 0;
    int reporting = 0;
    int[] levels = new int[4];
    for (Cell c : cells) {
      if (row == null || !row.path("row").asText().equals(c.row())) {
        row = rows.addObject().put("row", c.row());
        row.putArray("racks");
        rack = null;
      }
      if (rack == null || !rack.path("rack").asText().equals(c.rack())) {
        rack = ((ArrayNode) row.get("racks")).addObject().put("rack", c.rack());
        rack.putArray("nodes");
        racks++;
        node = null;
      }
      if (node == null || !node.path("node").asText().equals(c.node())) {
        node = ((ArrayNode) rack.get("nodes")).addObject().put("node", c.node());
        node.putArray("gpu");
        node.putArray("v");
        node.putArray("l");
        nodes++;
      }
      Reading r = read(m, c);
      ((ArrayNode) node.get("gpu")).add(c.gpu());
      if (r.value() == null) {
        ((ArrayNode) node.get("v")).addNull();
      } else {
        ((ArrayNode) node.get("v")).add(r.value());
      }
      ((ArrayNode) node.get("l")).add(r.level());
      if (c.reporting()) {
        reporting++;
      }
      if (r.level() >= 0) {
        levels[r.level()]++;
      }
    }
    out.put("gpus", cells.size());
    out.put("nodes", nodes);
    out.put("racks", racks);
    out.put("reporting", reporting);
    ArrayNode lv = out.putArray("levels");
    for (int n : levels) {
      lv.add(n);
    }
    out.set("rows", rows);
    return out;
  }

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
