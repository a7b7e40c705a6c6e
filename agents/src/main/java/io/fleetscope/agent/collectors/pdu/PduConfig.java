package io.fleetscope.agent.collectors.pdu;

import io.fleetscope.agent.collectors.redfish.RedfishClient;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.Checks;
import io.fleetscope.agent.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Section {@code pdu}: rack PDUs polled over SNMP and Redfish. Every key and default is documented
 * in agents/README.md under "### pdu".
 */
public final class PduConfig extends CollectorConfig {

  /** PDUs polled over SNMP v2c or v3. */
  public List<SnmpTarget> snmp = new ArrayList<>();
  /** PDUs (or PDU managers) polled over Redfish PowerDistribution. */
  public List<RedfishTarget> redfish = new ArrayList<>();

  /** One SNMP PDU. */
  public static final class SnmpTarget {
    /** Facility device id, the record key. Required. */
    public String device;
    /** Rack the PDU feeds (from the site file). Optional. */
    public String rack;
    /** Racks this PDU serves, for fleet.inventory.v1; default [rack]. */
    public List<String> racks = new ArrayList<>();
    /** Host name or address. Required unless replay_file is set. */
    public String host;
    /**
     * Replay: read this snmpsim .snmprec capture (OID|TYPE|VALUE lines) instead of polling a device,
     * e.g. to see with --once --dry-run what a PDU model sends. Optional.
     */
    public Path replayFile;
    /** UDP port. Default 161. */
    public int port = 161;
    /** v2c or v3. Default v2c. */
    public String version = "v2c";
    /** v2c community. Default public. */
    public String community = "public";
    /** v3 user name (USM). Required for v3. */
    public String user;
    /** v3 authentication: MD5, SHA, SHA224, SHA256, SHA384, SHA512 or none. Default SHA. */
    public String authProtocol = "SHA";
    /** v3 authentication pass phrase (at least 8 characters). */
    public String authPassword;
    /** v3 privacy: DES, AES128, AES192, AES256 or none. Default AES128. */
    public String privProtocol = "AES128";
    /** v3 privacy pass phrase (at least 8 characters). */
    public String privPassword;
    /** OID map: raritan-pdu2, apc-rpdu2 or sentry4. Required unless oid_map_file is set. */
    public String vendor;
    /** A site's own OID map (JSON, same format as the built-in ones); overrides vendor. */
    public Path oidMapFile;
    /** Timeout of one SNMP request. Default 2s. */
    public Duration requestTimeout = Duration.ofSeconds(2);
    /** Retries of one SNMP request. Default 1. */
    public int retries = 1;
    /** GETBULK max-repetitions. Default 25. */
    public int maxRepetitions = 25;
  }

  /** One Redfish service exposing PowerEquipment/RackPDUs. */
  public static final class RedfishTarget {
    /** Facility device id; with several RackPDUs on one service each becomes DEVICE-ID. Required. */
    public String device;
    /** Rack the PDU feeds. Optional. */
    public String rack;
    /** Racks this PDU serves, for fleet.inventory.v1; default [rack]. */
    public List<String> racks = new ArrayList<>();
    /** Service root, e.g. https://10.1.2.3 (the client appends /redfish/v1/...). Required. */
    public String baseUrl;
    /** Basic-auth user. Optional. */
    public String username;
    /** Basic-auth password. Optional. */
    public String password;
    /** Accept any TLS certificate (self-signed BMC certificates). Default false. */
    public boolean tlsInsecure = false;
  }

  @Override
  public void validate(String section) throws ConfigException {
    super.validate(section);
    Set<String> devices = new HashSet<>();
    for (int i = 0; i < snmp.size(); i++) {
      SnmpTarget t = snmp.get(i);
      String at = section + ".snmp[" + i + "]";
      Checks.notBlank(at + ".device", t.device);
      if (!devices.add(t.device)) {
        throw new ConfigException(at + ".device", "duplicate device id '" + t.device + "'");
      }
      if (t.replayFile == null) {
        Checks.notBlank(at + ".host", t.host);
      }
      if (t.port < 1 || t.port > 65535) {
        throw new ConfigException(at + ".port", "must be 1..65535, got " + t.port);
      }
      if (t.oidMapFile == null) {
        Checks.notBlank(at + ".vendor", t.vendor);
        if (!OidMap.BUILT_IN.contains(t.vendor)) {
          throw new ConfigException(at + ".vendor", "unknown vendor '" + t.vendor + "', known: " + OidMap.BUILT_IN
              + " (or give oid_map_file)");
        }
      }
      Checks.positive(at + ".request_timeout", t.requestTimeout);
      if (t.retries < 0 || t.retries > 5) {
        throw new ConfigException(at + ".retries", "must be 0..5, got " + t.retries);
      }
      if (t.maxRepetitions < 1 || t.maxRepetitions > 100) {
        throw new ConfigException(at + ".max_repetitions", "must be 1..100, got " + t.maxRepetitions);
      }
      switch (t.version == null ? "" : t.version) {
        case "v2c" -> Checks.notBlank(at + ".community", t.community);
        case "v3" -> {
          Checks.notBlank(at + ".user", t.user);
          SnmpSecurity.authProtocol(at + ".auth_protocol", t.authProtocol);
          SnmpSecurity.privProtocol(at + ".priv_protocol", t.privProtocol);
          boolean auth = !"none".equalsIgnoreCase(t.authProtocol);
          boolean priv = !"none".equalsIgnoreCase(t.privProtocol);
          if (priv && !auth) {
            throw new ConfigException(at + ".priv_protocol", "privacy needs authentication: set auth_protocol too");
          }
          if (auth) {
            passphrase(at + ".auth_password", t.authPassword);
          }
          if (priv) {
            passphrase(at + ".priv_password", t.privPassword);
          }
        }
        default -> throw new ConfigException(at + ".version", "must be v2c or v3, got '" + t.version + "'");
      }
    }
    for (int i = 0; i < redfish.size(); i++) {
      RedfishTarget t = redfish.get(i);
      String at = section + ".redfish[" + i + "]";
      Checks.notBlank(at + ".device", t.device);
      if (!devices.add(t.device)) {
        throw new ConfigException(at + ".device", "duplicate device id '" + t.device + "'");
      }
      RedfishClient.checkBaseUrl(at + ".base_url", t.baseUrl);
      if (t.password != null && t.username == null) {
        throw new ConfigException(at + ".username", "is required when password is set");
      }
    }
  }

  private static void passphrase(String key, String value) throws ConfigException {
    if (value == null || value.length() < 8) {
      throw new ConfigException(key, "must be at least 8 characters (SNMPv3 USM rule)");
    }
  }
}
