package io.fleetscope.streams;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.schemas.contract.AlertStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The JSON bodies: Alertmanager's v2 {@code POST /api/v2/alerts} and its webhook notification (version 4). */
public final class AlertPayloads {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  /** What Alertmanager writes as endsAt of a firing alert in webhook payloads. */
  public static final String ZERO_TIME = "0001-01-01T00:00:00Z";

  private AlertPayloads() {}

  /** {@code [{labels, annotations, startsAt, endsAt, generatorURL}, ...]}. */
  public static String alertmanagerV2(List<OutboundAlert> alerts) {
    ArrayNode arr = F.arrayNode();
    for (OutboundAlert a : alerts) {
      ObjectNode o = arr.addObject();
      o.set("labels", map(a.labels()));
      o.set("annotations", map(a.annotations()));
      o.put("startsAt", a.startsAt().toString());
      o.put("endsAt", a.endsAt().toString());
      if (a.generatorUrl() != null) {
        o.put("generatorURL", a.generatorUrl());
      }
    }
    return arr.toString();
  }

  /**
   * One webhook notification per cluster, in Alertmanager's webhook format: {@code {version:"4", groupKey,
   * truncatedAlerts, status, receiver, groupLabels, commonLabels, commonAnnotations, externalURL, alerts}}.
   */
  public static List<String> webhook(List<OutboundAlert> alerts, String receiver, String externalUrl) {
    Map<String, List<OutboundAlert>> byCluster = new TreeMap<>();
    for (OutboundAlert a : alerts) {
      byCluster.computeIfAbsent(a.labels().getOrDefault(AlertLabels.CLUSTER, ""), c -> new java.util.ArrayList<>()).add(a);
    }
    return byCluster.entrySet().stream().map(e -> webhookGroup(e.getKey(), e.getValue(), receiver, externalUrl)).toList();
  }

  private static String webhookGroup(String cluster, List<OutboundAlert> alerts, String receiver, String externalUrl) {
    ObjectNode o = F.objectNode();
    o.put("version", "4");
    o.put("groupKey", "{}:{cluster=\"" + cluster + "\"}");
    o.put("truncatedAlerts", 0);
    o.put("status", alerts.stream().anyMatch(OutboundAlert::firing) ? AlertStatus.FIRING : AlertStatus.RESOLVED);
    o.put("receiver", receiver);
    o.set("groupLabels", map(Map.of(AlertLabels.CLUSTER, cluster)));
    o.set("commonLabels", map(common(alerts.stream().map(OutboundAlert::labels).toList())));
    o.set("commonAnnotations", map(common(alerts.stream().map(OutboundAlert::annotations).toList())));
    o.put("externalURL", externalUrl);
    ArrayNode arr = o.putArray("alerts");
    for (OutboundAlert a : alerts) {
      ObjectNode x = arr.addObject();
      x.put("status", a.status());
      x.set("labels", map(a.labels()));
      x.set("annotations", map(a.annotations()));
      x.put("startsAt", a.startsAt().toString());
      x.put("endsAt", a.firing() ? ZERO_TIME : a.endsAt().toString());
      x.put("generatorURL", a.generatorUrl() == null ? "" : a.generatorUrl());
      x.put("fingerprint", a.fingerprint());
    }
    return o.toString();
  }

  static Map<String, String> common(List<Map<String, String>> maps) {
    if (maps.isEmpty()) {
      return Map.of();
    }
    Map<String, String> c = new LinkedHashMap<>(maps.get(0));
    for (Map<String, String> m : maps.subList(1, maps.size())) {
      c.entrySet().removeIf(e -> !e.getValue().equals(m.get(e.getKey())));
    }
    return c;
  }

  private static ObjectNode map(Map<String, String> m) {
    ObjectNode o = F.objectNode();
    new TreeMap<>(m == null ? Map.<String, String>of() : m).forEach(o::put);
    return o;
  }
}
